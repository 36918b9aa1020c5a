/**
 * The denoise pass as the engine defines it (engine/prepare/index.ts smoothSimilar), pixel by
 * pixel in plain loops: the reference the WebAssembly kernel (engine/wasm/assembly/denoise.ts) is
 * held to, byte for byte. One pass of a 3×3 "sigma filter": each pixel becomes the mean of itself
 * and the neighbours whose colour lies within `range` of it, rounded half up; a transparent pixel
 * (with `hasTransparency`) keeps its colour and is nobody's neighbour. Rows `fromRow` to `toRow` - 1
 * are written to `out`.
 */
export function referenceSmooth(
  rgb: Uint8Array,
  transparent: Uint8Array,
  hasTransparency: boolean,
  width: number,
  height: number,
  range: number,
  fromRow = 0,
  toRow = height,
  out: Uint8Array = new Uint8Array(rgb.length),
): Uint8Array {
  const clear = (p: number) => hasTransparency && transparent[p] === 1;
  for (let y = fromRow; y < toRow; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (clear(i)) {
        out.set(rgb.subarray(3 * i, 3 * i + 3), 3 * i);
        continue;
      }
      const sums = [0, 0, 0];
      let count = 0;
      for (let yy = Math.max(0, y - 1); yy <= Math.min(height - 1, y + 1); yy++) {
        for (let xx = Math.max(0, x - 1); xx <= Math.min(width - 1, x + 1); xx++) {
          const j = yy * width + xx;
          if (clear(j)) continue;
          let distance2 = 0;
          for (let k = 0; k < 3; k++) distance2 += (rgb[3 * j + k] - rgb[3 * i + k]) ** 2;
          if (distance2 > range * range) continue;
          for (let k = 0; k < 3; k++) sums[k] += rgb[3 * j + k];
          count++;
        }
      }
      for (let k = 0; k < 3; k++) out[3 * i + k] = Math.floor(sums[k] / count + 0.5);
    }
  }
  return out;
}
