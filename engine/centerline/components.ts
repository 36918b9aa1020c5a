/**
 * Connected-component labelling on a binary mask with a typed-array stack (no per-pixel objects).
 */

export interface Components {
  /** 0 = not in the mask, 1..count = component id. */
  labels: Int32Array;
  count: number;
  /** area[id] in pixels (index 0 unused). */
  area: Int32Array;
  /** touchesBorder[id] = 1 when the component reaches the image edge. */
  touchesBorder: Uint8Array;
}

export function labelComponents(mask: Uint8Array, width: number, height: number, eightConnected: boolean): Components {
  const n = width * height;
  const labels = new Int32Array(n);
  const stack = new Int32Array(n);
  const areas: number[] = [0];
  const border: number[] = [0];
  let count = 0;
  for (let start = 0; start < n; start++) {
    if (!mask[start] || labels[start]) continue;
    const id = ++count;
    let top = 0;
    stack[top++] = start;
    labels[start] = id;
    let area = 0;
    let touches = 0;
    while (top > 0) {
      const p = stack[--top];
      area++;
      const x = p % width;
      const y = (p - x) / width;
      if (x === 0 || y === 0 || x === width - 1 || y === height - 1) touches = 1;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          if ((dx === 0 && dy === 0) || (!eightConnected && dx !== 0 && dy !== 0)) continue;
          const xx = x + dx;
          if (xx < 0 || xx >= width) continue;
          const q = yy * width + xx;
          if (mask[q] && !labels[q]) { labels[q] = id; stack[top++] = q; }
        }
      }
    }
    areas.push(area);
    border.push(touches);
  }
  return { labels, count, area: Int32Array.from(areas), touchesBorder: Uint8Array.from(border) };
}
