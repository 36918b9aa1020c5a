import type { BandSides } from '../../../engine/wasm/band-sides.js';

/** Neighbours are looked for this far around a band pixel, and at most this many distinct regions weighed. */
const REACH = 2;
const MAX_CANDIDATES = 8;

/**
 * The band pixels' sides chosen in TypeScript as the engine chose them before the choice went to
 * WebAssembly (engine/wasm/assembly/band-sides.ts): the reference the kernel is held to. Fills
 * `movedTo` and returns how many pixels move.
 */
export function referenceBandSides(sides: BandSides): number {
  const { width, height, labels, rgb, pixels: bandPixels, movedTo, unjoinable, band, mean } = sides;
  let moves = 0;
  const candidates = new Int32Array(MAX_CANDIDATES);
  for (let i = 0; i < bandPixels.length; i++) {
    const p = bandPixels[i];
    movedTo[i] = -1;
    if (!band[labels[p]]) continue;
    const x = p % width,
      y = (p - x) / width;
    const top = y >= REACH ? -REACH : -y,
      bottom = y + REACH < height ? REACH : height - 1 - y,
      left = x >= REACH ? -REACH : -x,
      right = x + REACH < width ? REACH : width - 1 - x;
    let found = 0;
    for (let dy = top; dy <= bottom; dy++) {
      const row = p + dy * width;
      for (let dx = left; dx <= right; dx++) {
        const l = labels[row + dx];
        if (unjoinable[l]) continue;
        let seen = false;
        for (let k = 0; k < found; k++) if (candidates[k] === l) seen = true;
        if (!seen && found < MAX_CANDIDATES) candidates[found++] = l;
      }
    }
    if (found < 2) continue;
    const r = rgb[3 * p],
      g = rgb[3 * p + 1],
      b = rgb[3 * p + 2];
    let best = -1,
      bestOff = Infinity;
    for (let a = 0; a < found; a++) {
      const A = 3 * candidates[a];
      for (let j = a + 1; j < found; j++) {
        const C = 3 * candidates[j];
        const dr = mean[A] - mean[C],
          dg = mean[A + 1] - mean[C + 1],
          db = mean[A + 2] - mean[C + 2];
        const contrast2 = dr * dr + dg * dg + db * db;
        if (contrast2 < sides.minContrast2) continue;
        const pr = r - mean[C],
          pg = g - mean[C + 1],
          pb = b - mean[C + 2];
        const alpha = (pr * dr + pg * dg + pb * db) / contrast2;
        if (alpha < 0 || alpha > 1) continue;
        const er = pr - alpha * dr,
          eg = pg - alpha * dg,
          eb = pb - alpha * db;
        const off = (er * er + eg * eg + eb * eb) / contrast2;
        if (off > sides.offLine2 || off >= bestOff) continue;
        bestOff = off;
        best = alpha >= 0.5 ? candidates[a] : candidates[j];
      }
    }
    if (best >= 0) {
      movedTo[i] = best;
      moves++;
    }
  }
  return moves;
}
