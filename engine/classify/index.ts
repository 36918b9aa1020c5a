/**
 * Classify stage: which preset family fits the image. First cut is a documented heuristic (issue 2
 * allows it until the ONNX classifier of issue 4 lands, which replaces the internals of this module
 * and keeps its exported surface).
 *
 * Heuristic: on a 64×64 thumbnail, count distinct quantised colours and the share of near-white
 * and near-blue pixels. Few colours with a white page → scan; a dominant blue page → blueprint;
 * few colours otherwise → clipart; many → photo.
 */
import type { ImageClass, RgbaImage } from '../types.js';

export interface ClassifyResult {
  class: ImageClass;
  scores: Record<ImageClass, number>;
  ms: number;
  provider: 'heuristic' | 'cpu' | 'cuda';
}

export async function classifyImage(image: RgbaImage): Promise<ClassifyResult> {
  const started = performance.now();
  const { width, height, data } = image;
  const step = Math.max(1, Math.floor(Math.max(width, height) / 64));
  const colours = new Set<number>();
  let samples = 0, white = 0, blue = 0;
  for (let y = 0; y < height; y += step) {
    for (let x = 0; x < width; x += step) {
      const i = (y * width + x) * 4;
      const a = data[i + 3] / 255;
      const r = data[i] * a + 255 * (1 - a), g = data[i + 1] * a + 255 * (1 - a), b = data[i + 2] * a + 255 * (1 - a);
      colours.add(((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4));
      samples++;
      if (r > 220 && g > 220 && b > 220) white++;
      if (b > 90 && b > r + 40 && b > g + 10) blue++;
    }
  }
  const distinct = colours.size / Math.max(1, samples);
  const whiteShare = white / Math.max(1, samples);
  const blueShare = blue / Math.max(1, samples);
  const scores: Record<ImageClass, number> = { clipart: 0, photo: 0, scan: 0, blueprint: 0 };
  if (blueShare > 0.5) scores.blueprint = 1;
  else if (whiteShare > 0.75 && distinct < 0.08) scores.scan = 1;
  else if (distinct < 0.25) scores.clipart = 1;
  else scores.photo = 1;
  const best = (Object.keys(scores) as ImageClass[]).find((k) => scores[k] === 1) ?? 'photo';
  return { class: best, scores, ms: performance.now() - started, provider: 'heuristic' };
}
