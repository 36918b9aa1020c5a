/**
 * Connected-component labelling on a padded binary mask (1-pixel empty border, so neighbours need
 * no bounds checks), 8-connected, with a typed-array stack (no per-pixel objects).
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

export function labelComponents(mask: Uint8Array, stride: number): Components {
  const n = mask.length;
  const labels = new Int32Array(n);
  let inMask = 0;
  for (let i = 0; i < n; i++) inMask += mask[i];
  const stack = new Int32Array(inMask + 1);
  const nb = [-stride - 1, -stride, -stride + 1, -1, 1, stride - 1, stride, stride + 1];
  const areas: number[] = [0], starts: number[] = [0];
  let count = 0;
  for (let start = 0; start < n; start++) {
    if (!mask[start] || labels[start]) continue;
    const id = ++count;
    let top = 0;
    stack[top++] = start;
    labels[start] = id;
    let area = 0;
    while (top > 0) {
      const p = stack[--top];
      area++;
      for (let k = 0; k < 8; k++) {
        const q = p + nb[k];
        if (mask[q] && !labels[q]) { labels[q] = id; stack[top++] = q; }
      }
    }
    areas.push(area);
    starts.push(start);
  }
  return { labels, count, area: new Int32Array(areas), start: new Int32Array(starts) };
}
