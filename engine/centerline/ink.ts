/**
 * Clean-up of the ink mask (engine/ink/paper.ts separates it) before the centerline tracer thins it:
 * noise pin-holes filled, dust dropped, both judged against the drawing's own line width.
 */
import { labelComponents, type Components } from '../ink/components.js';

/** Ink specks smaller than this (pixels) are scan dust at any line width (see removeSpecks for wider lines). */
const MIN_INK_AREA = 3;

/**
 * Background pin-holes of one or two pixels can be scanner noise when the ink around them is at least this deep
 * (px): a hole inside a 3-px or wider line, not the eye of a small "e".
 */
const PINHOLE_INK_DEPTH = 2;

/**
 * Fills noise pin-holes (one or two paper pixels walled in by ink) in a padded mask, judged by the
 * distance transform around them; the filled pixels get distance 1, their neighbours keep the
 * slightly low distances they had (a local underestimate, not worth a second transform).
 */
export function fillPinholes(mask: Uint8Array, distance: Float32Array, stride: number): void {
  const nb = [-stride - 1, -stride, -stride + 1, -1, 1, stride - 1, stride, stride + 1];
  const end = mask.length - 2 * stride;
  for (let p = 2 * stride; p < end; p++) {
    // Walled in needs ink on at least one side: most paper pixels stop at this test.
    if (mask[p] || (!mask[p - 1] && !mask[p + 1])) continue;
    const x = p % stride;
    if (x < 2 || x >= stride - 2) continue;
    // Walled in: every neighbour is ink but at most one, and that one is walled in by ink too.
    let open = -1,
      walled = true;
    for (let ko = 0; ko < 8; ko++) {
      const o = nb[ko];
      if (mask[p + o]) continue;
      if (open >= 0) {
        walled = false;
        break;
      }
      open = p + o;
    }
    if (!walled) continue;
    if (open >= 0) {
      for (let ko = 0; ko < 8; ko++) {
        const o = nb[ko];
        if (!mask[open + o] && open + o !== p) {
          walled = false;
          break;
        }
      }
      if (!walled) continue;
    }
    let deep = false;
    for (let dy = -2; dy <= 2 && !deep; dy++)
      for (let dx = -2; dx <= 2; dx++) {
        if (distance[p + dy * stride + dx] >= PINHOLE_INK_DEPTH) {
          deep = true;
          break;
        }
      }
    if (!deep) continue;
    mask[p] = 1;
    distance[p] = 1;
    if (open >= 0) {
      mask[open] = 1;
      distance[open] = 1;
    }
  }
}

/**
 * Dust relative to the drawing: a speck with less area than half the square of the typical line
 * width cannot be a piece of that line work (a comma in 1-px text is 3 px; dust beside 4-px lines
 * is dust). Works on the padded mask and clears the specks' distances.
 */
export function removeSpecks(
  mask: Uint8Array,
  distance: Float32Array,
  stride: number,
  typicalHalfWidth: number,
): Components & { inkLeft: number } {
  const minArea = Math.max(MIN_INK_AREA, Math.round(0.5 * (2 * typicalHalfWidth) ** 2));
  const parts = labelComponents(mask, stride);
  const { labels, area, start } = parts;
  // Specks are a few pixels each: clear each one from its first pixel, not by a pass over the page.
  const nb = [-stride - 1, -stride, -stride + 1, -1, 1, stride - 1, stride, stride + 1];
  const stack: number[] = [];
  let inkLeft = 0;
  for (let id = 1; id <= parts.count; id++) {
    if (area[id] >= minArea) {
      inkLeft += area[id];
      continue;
    }
    const first = start[id];
    mask[first] = 0;
    distance[first] = 0;
    labels[first] = 0;
    stack.push(first);
    while (stack.length) {
      const p = stack.pop()!;
      for (let k = 0; k < 8; k++) {
        const q = p + nb[k];
        if (labels[q] === id) {
          mask[q] = 0;
          distance[q] = 0;
          labels[q] = 0;
          stack.push(q);
        }
      }
    }
  }
  return { ...parts, inkLeft };
}
