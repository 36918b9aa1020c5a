/**
 * One-pixel skeleton of a binary mask: Zhang–Suen thinning ("A fast parallel algorithm for thinning
 * digital patterns", CACM 1984) run on a list of the remaining ink pixels, so each iteration costs
 * the ink, not the page. Works on a mask padded with a 1-pixel empty border (no bounds checks).
 */

/** Neighbour offsets P2..P9 clockwise from north, for a padded row stride. */
function ring(stride: number): Int32Array {
  return new Int32Array([-stride, -stride + 1, 1, stride + 1, stride, stride - 1, -1, -stride - 1]);
}

/**
 * The skeleton of `padded` minus the pixels set in `minus` (the filled parts), as a new mask, and
 * the skeleton's pixels in increasing order. The difference, the copy and the list of pixels to
 * thin are made in one pass over the page; `inkCount` (at least the ink pixels in `padded`) sizes
 * that list.
 */
/**
 * Zhang–Suen's test, decided once for each of the 256 neighbourhoods: DELETABLE[pass * 256 + bits]
 * where bit r is set when neighbour P(r + 2) is ink (P2 north, clockwise). 2 <= B <= 6 ink
 * neighbours, exactly one 0→1 step around the ring (A = 1), and the pass's two products zero.
 */
const DELETABLE = (() => {
  const table = new Uint8Array(512);
  for (let bits = 0; bits < 256; bits++) {
    const p = (r: number) => (bits >> (r - 2)) & 1;
    let b = 0,
      a = 0;
    for (let r = 2; r <= 9; r++) {
      b += p(r);
      if (!p(r) && p(r === 9 ? 2 : r + 1)) a++;
    }
    if (b < 2 || b > 6 || a !== 1) continue;
    if (!(p(2) & p(4) & p(6) || p(4) & p(6) & p(8))) table[bits] = 1;
    if (!(p(2) & p(4) & p(8) || p(2) & p(6) & p(8))) table[256 + bits] = 1;
  }
  return table;
})();

export function thin(
  padded: Uint8Array,
  stride: number,
  minus?: Uint8Array,
  inkCount = padded.length,
): { skeleton: Uint8Array; pixels: Int32Array } {
  const m = new Uint8Array(padded.length);
  const nb = ring(stride);
  let active = new Int32Array(inkCount);
  let count = 0;
  if (minus) {
    for (let i = 0; i < m.length; i++)
      if (padded[i] && !minus[i]) {
        m[i] = 1;
        active[count++] = i;
      }
  } else {
    for (let i = 0; i < m.length; i++)
      if (padded[i]) {
        m[i] = 1;
        active[count++] = i;
      }
  }
  const doomed = new Int32Array(count);
  let changed = true;
  while (changed) {
    changed = false;
    const [n0, n1, n2, n3, n4, n5, n6, n7] = nb;
    for (let pass = 0; pass < 2; pass++) {
      let nd = 0;
      const base = pass << 8;
      for (let k = 0; k < count; k++) {
        const p = active[k];
        const bits =
          m[p + n0] |
          (m[p + n1] << 1) |
          (m[p + n2] << 2) |
          (m[p + n3] << 3) |
          (m[p + n4] << 4) |
          (m[p + n5] << 5) |
          (m[p + n6] << 6) |
          (m[p + n7] << 7);
        if (DELETABLE[base + bits]) doomed[nd++] = p;
      }
      if (nd) {
        changed = true;
        for (let k = 0; k < nd; k++) m[doomed[k]] = 0;
        let w = 0;
        for (let k = 0; k < count; k++) if (m[active[k]]) active[w++] = active[k];
        count = w;
      }
    }
  }
  active = active.subarray(0, count);
  removeStairCorners(m, active, nb);
  let kept = 0;
  for (let k = 0; k < count; k++) if (m[active[k]]) active[kept++] = active[k];
  return { skeleton: m, pixels: active.slice(0, kept) };
}

/**
 * Zhang–Suen leaves the inner pixel of some diagonal steps (an "L" of three pixels). Such a pixel
 * has all its skeleton neighbours in one 8-connected group, so removing it keeps the line connected;
 * leaving it would show up as a false junction.
 */
function removeStairCorners(m: Uint8Array, pixels: Int32Array, nb: Int32Array): void {
  for (let k = 0; k < pixels.length; k++) {
    const p = pixels[k];
    if (!m[p]) continue;
    let b = 0;
    for (let r = 0; r < 8; r++) b += m[p + nb[r]];
    if (b < 2 || b > 3) continue;
    if (ringGroups(m, p, nb) === 1 && !isEdgeRun(m, p, nb)) m[p] = 0;
  }
}

/** True when the pixel's neighbours are two edge-neighbours opposite each other (a straight run), never removable. */
function isEdgeRun(m: Uint8Array, p: number, nb: Int32Array): boolean {
  return (m[p + nb[0]] && m[p + nb[4]]) || (m[p + nb[2]] && m[p + nb[6]]) ? true : false;
}

/**
 * Number of 8-connected groups among the set pixels of the 3×3 ring around p. Ring neighbours touch
 * when they are consecutive on the ring, or are two edge-neighbours (N, E, S, W) a quarter turn
 * apart. Walks the ring once; no allocation (this runs for every skeleton pixel).
 */
function ringGroups(m: Uint8Array, p: number, nb: Int32Array): number {
  let set = 0;
  for (let r = 0; r < 8; r++) if (m[p + nb[r]]) set |= 1 << r;
  if (!set) return 0;
  // Add the diagonal shortcuts: an unset corner between two set edge-neighbours still joins them.
  let bridged = set;
  for (let r = 1; r < 8; r += 2) {
    const before = (r + 7) & 7,
      after = (r + 1) & 7;
    if ((set >> before) & 1 && (set >> after) & 1) bridged |= 1 << r;
  }
  if (bridged === 0xff) return 1;
  // Count runs of set bits around the ring (a full ring is one group, handled above).
  let runs = 0;
  for (let r = 0; r < 8; r++) if ((bridged >> r) & 1 && !((bridged >> ((r + 7) & 7)) & 1)) runs++;
  return runs;
}
