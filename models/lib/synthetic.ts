/**
 * Deterministic synthetic images for the classifier's fixtures and tests: a flat-colour logo and a
 * noisy photo-like scene. Generated from a seed, never read from disk.
 */
import type { RgbaImage } from '../../engine/types.js';
import { gaussian, seededRandom } from './mlp.js';

/** A logo: a few flat, saturated shapes on white, antialiased only at their edges. */
export function syntheticLogo(width: number, height: number, seed: number): RgbaImage {
  const random = seededRandom(seed);
  const data = new Uint8Array(width * height * 4).fill(255);
  const palette = [
    [220, 40, 40],
    [30, 90, 200],
    [250, 190, 20],
    [40, 160, 80],
  ].map((c) => c.map((v) => Math.round(v * (0.85 + 0.15 * random()))));
  const shapes = Array.from({ length: 4 }, (_, k) => ({
    cx: width * (0.25 + 0.5 * random()),
    cy: height * (0.25 + 0.5 * random()),
    r: Math.min(width, height) * (0.08 + 0.15 * random()),
    colour: palette[k],
    square: k % 2 === 1,
  }));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (const s of shapes) {
        const d = s.square ? Math.max(Math.abs(x - s.cx), Math.abs(y - s.cy)) : Math.hypot(x - s.cx, y - s.cy);
        const cover = Math.max(0, Math.min(1, s.r - d + 0.5));
        if (cover > 0) {
          const i = (y * width + x) * 4;
          for (let c = 0; c < 3; c++) data[i + c] = Math.round(data[i + c] * (1 - cover) + s.colour[c] * cover);
        }
      }
    }
  }
  return { width, height, data };
}

/** A photo-like scene: smooth sky-to-ground light, soft blobs of texture and sensor noise. */
export function syntheticPhoto(width: number, height: number, seed: number): RgbaImage {
  const random = seededRandom(seed);
  const data = new Uint8Array(width * height * 4);
  const blobs = Array.from({ length: 12 }, () => ({
    x: random() * width,
    y: random() * height,
    r: (0.05 + random() * 0.2) * width,
    c: [random() * 120 - 60, random() * 120 - 60, random() * 120 - 60],
  }));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = y / height;
      let r = 90 + 100 * (1 - t),
        g = 120 + 60 * (1 - t) + 30 * Math.sin(x / 17),
        b = 170 * (1 - t) + 50;
      for (const blob of blobs) {
        const w = Math.exp(-((x - blob.x) ** 2 + (y - blob.y) ** 2) / (2 * blob.r * blob.r));
        r += blob.c[0] * w;
        g += blob.c[1] * w;
        b += blob.c[2] * w;
      }
      const texture = 18 * Math.sin(x * 0.9 + 3 * Math.sin(y * 0.3)) * Math.sin(y * 0.7);
      const i = (y * width + x) * 4;
      data[i] = Math.max(0, Math.min(255, Math.round(r + texture + gaussian(random) * 8)));
      data[i + 1] = Math.max(0, Math.min(255, Math.round(g + texture + gaussian(random) * 8)));
      data[i + 2] = Math.max(0, Math.min(255, Math.round(b + texture + gaussian(random) * 8)));
      data[i + 3] = 255;
    }
  }
  return { width, height, data };
}

/** Black text-like dashes in rows on a light page, or long ruled lines for a drawing. */
export function syntheticPage(width: number, height: number, seed: number, lines: boolean): RgbaImage {
  const random = seededRandom(seed);
  const data = new Uint8Array(width * height * 4).fill(255);
  const ink = (x: number, y: number) => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    const i = (y * width + x) * 4;
    data[i] = data[i + 1] = data[i + 2] = 20;
  };
  if (lines) {
    for (let k = 0; k < 30; k++) {
      const horizontal = random() < 0.5,
        at = Math.floor(random() * (horizontal ? height : width));
      const from = Math.floor(random() * 0.5 * (horizontal ? width : height)),
        to = from + Math.floor(random() * 0.5 * (horizontal ? width : height));
      for (let p = from; p < to; p++) {
        if (horizontal) ink(p, at);
        else ink(at, p);
      }
    }
  } else {
    for (let row = 10; row + 8 < height; row += 14) {
      for (let x = 10; x < width - 10;) {
        const word = 3 + Math.floor(random() * 25);
        for (let dx = 0; dx < word; dx += 2) for (let dy = 0; dy < 7; dy++) if (random() < 0.6) ink(x + dx, row + dy);
        x += word + 5;
      }
    }
  }
  return { width, height, data };
}
