/**
 * Boundaries of a binary region as closed rings on the pixel-corner grid ("crack following").
 * Outer rings run clockwise on screen and holes anticlockwise (region always on the right), so the
 * default nonzero fill rule paints the region with its holes open.
 */

interface Ring {
  /** Corner coordinates x0,y0,x1,y1,… (every unit step, so index distance = arc length). */
  points: Float64Array;
  /** Any pixel of the region the ring bounds (for its colour). */
  pixel: number;
}

const DX = [1, 0, -1, 0];
const DY = [0, 1, 0, -1];

/** `mask` must have an empty 1-pixel border (the padded masks of this tracer), so neighbours need no bounds checks. */
export function traceRings(mask: Uint8Array, width: number, height: number): Ring[] {
  const vw = width + 1;
  const out = new Uint8Array(vw * (height + 1));
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1, p = y * width + 1; x < width - 1; x++, p++) {
      if (mask[p] !== 1) continue;
      if (mask[p - width] !== 1) out[y * vw + x] |= 1; // east along the top
      if (mask[p + 1] !== 1) out[y * vw + x + 1] |= 2; // south along the right
      if (mask[p + width] !== 1) out[(y + 1) * vw + x + 1] |= 4; // west along the bottom
      if (mask[p - 1] !== 1) out[(y + 1) * vw + x] |= 8; // north along the left
    }
  }
  const rings: Ring[] = [];
  for (let v0 = 0; v0 < out.length; v0++) {
    while (out[v0]) {
      let dir = out[v0] & 1 ? 0 : out[v0] & 2 ? 1 : out[v0] & 4 ? 2 : 3;
      const x0 = v0 % vw,
        y0 = (v0 - x0) / vw;
      // The pixel on the right of the first edge belongs to the region.
      const px = dir === 0 ? x0 : dir === 1 ? x0 - 1 : dir === 2 ? x0 - 1 : x0;
      const py = dir === 0 ? y0 : dir === 1 ? y0 : dir === 2 ? y0 - 1 : y0 - 1;
      const pts: number[] = [x0, y0];
      let v = v0,
        x = x0,
        y = y0;
      for (;;) {
        out[v] &= ~(1 << dir);
        x += DX[dir];
        y += DY[dir];
        v = y * vw + x;
        if (v === v0) break;
        pts.push(x, y);
        // At a saddle, turn right first: pixels touching only at a corner stay separate rings.
        const bits = out[v];
        const right = (dir + 1) & 3,
          straight = dir,
          left = (dir + 3) & 3;
        if (bits & (1 << right)) dir = right;
        else if (bits & (1 << straight)) dir = straight;
        else if (bits & (1 << left)) dir = left;
        else break;
      }
      rings.push({ points: new Float64Array(pts), pixel: py * width + px });
    }
  }
  return rings;
}
