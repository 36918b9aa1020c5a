/**
 * Test fixtures for the fitter: rasterise a shape into a pixel mask and walk its outer boundary as
 * a closed chain of pixel-corner (crack) points, the form the segmentation stage hands to fitChain.
 */
interface Mask {
  width: number;
  height: number;
  inside: Uint8Array;
}

/** A pixel is inside when its centre is inside the shape. */
export function rasterise(width: number, height: number, contains: (x: number, y: number) => boolean): Mask {
  const inside = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) inside[y * width + x] = contains(x + 0.5, y + 0.5) ? 1 : 0;
  return { width, height, inside };
}

export function polygonContains(vertices: Array<[number, number]>): (x: number, y: number) => boolean {
  return (x, y) => {
    let inside = false;
    for (let i = 0, j = vertices.length - 1; i < vertices.length; j = i++) {
      const [xi, yi] = vertices[i],
        [xj, yj] = vertices[j];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
  };
}

/** The boundary chain of a polygon rasterised into a width × height mask. */
export function polygonChain(width: number, height: number, vertices: Array<[number, number]>): Float64Array {
  return boundaryChain(rasterise(width, height, polygonContains(vertices)));
}

/**
 * Walks the boundary of the single 4-connected blob in the mask, clockwise on screen (y down),
 * keeping the inside on the right. Returns x0,y0,x1,y1,… unit steps, not repeating the first point.
 */
export function boundaryChain(mask: Mask): Float64Array {
  const { width, height, inside } = mask;
  const at = (x: number, y: number) => (x >= 0 && y >= 0 && x < width && y < height ? inside[y * width + x] : 0);
  let sx = -1,
    sy = -1;
  for (let i = 0; i < inside.length && sx < 0; i++)
    if (inside[i]) {
      sx = i % width;
      sy = Math.floor(i / width);
    }
  if (sx < 0) return new Float64Array(0);
  // start on the top-left corner of the first pixel, heading right along its top edge
  const pts: number[] = [];
  let x = sx,
    y = sy,
    dx = 1,
    dy = 0;
  do {
    pts.push(x, y);
    x += dx;
    y += dy;
    // pixels ahead-left and ahead-right of the corner we reached, relative to the heading
    const left = pixelAt(at, x, y, dx, dy, -1),
      right = pixelAt(at, x, y, dx, dy, 1);
    if (right && !left) continue; // straight on
    if (right && left) {
      [dx, dy] = [dy, -dx];
      continue;
    } // turn left (counter-clockwise)
    [dx, dy] = [-dy, dx]; // no pixel ahead-right: turn right
  } while (!(x === sx && y === sy) && pts.length < 8 * (width + 1) * (height + 1));
  return Float64Array.from(pts);
}

/** The pixel ahead of corner (x,y) on the given side of heading (dx,dy): side -1 left, +1 right. */
function pixelAt(at: (x: number, y: number) => number, x: number, y: number, dx: number, dy: number, side: number): number {
  // the two pixels touching the corner ahead: offset by the heading and by the side normal
  const nx = side > 0 ? -dy : dy,
    ny = side > 0 ? dx : -dx;
  const px = x + (dx < 0 ? -1 : dx > 0 ? 0 : nx < 0 ? -1 : 0);
  const py = y + (dy < 0 ? -1 : dy > 0 ? 0 : ny < 0 ? -1 : 0);
  return at(px, py);
}
