/**
 * Connected-component labelling on a padded binary mask (1-pixel empty border, so neighbours need
 * no bounds checks), 8-connected (or 4-connected, for paper beside 8-connected ink), with a
 * typed-array stack (no per-pixel objects).
 */

export interface Components {
  /** 0 = not in the mask, 1..count = component id. */
  labels: Int32Array;
  count: number;
  /** area[id] in pixels (index 0 unused). */
  area: Int32Array;
  /** start[id]: the component's first pixel in row order (index 0 unused). */
  start: Int32Array;
}

/**
 * Components of `mask`, or of `mask` minus the pixels set in `minus` (without making that mask).
 * The stack grows on demand instead of being sized by a counting pass over the page.
 */
export function labelComponents(mask: Uint8Array, stride: number, minus?: Uint8Array, connectivity: 4 | 8 = 8): Components {
  const n = mask.length;
  const labels = new Int32Array(n);
  const without = minus ?? new Uint8Array(0);
  const hasMinus = minus !== undefined;
  let stack = new Int32Array(4096);
  const nb = connectivity === 8 ? [-stride - 1, -stride, -stride + 1, -1, 1, stride - 1, stride, stride + 1] : [-stride, -1, 1, stride];
  const reach = nb.length;
  const areas: number[] = [0],
    starts: number[] = [0];
  let count = 0;
  for (let start = 0; start < n; start++) {
    if (!mask[start] || labels[start] || (hasMinus && without[start])) continue;
    const id = ++count;
    let top = 0;
    stack[top++] = start;
    labels[start] = id;
    let area = 0;
    while (top > 0) {
      const p = stack[--top];
      area++;
      if (top + 8 > stack.length) {
        const bigger = new Int32Array(stack.length * 2);
        bigger.set(stack);
        stack = bigger;
      }
      for (let k = 0; k < reach; k++) {
        const q = p + nb[k];
        if (mask[q] && !labels[q] && !(hasMinus && without[q])) {
          labels[q] = id;
          stack[top++] = q;
        }
      }
    }
    areas.push(area);
    starts.push(start);
  }
  return { labels, count, area: new Int32Array(areas), start: new Int32Array(starts) };
}
