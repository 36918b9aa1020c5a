/** Small image operations the augmentations are made of, on RGBA images (sharp where it has them). */
import sharp from 'sharp';
import type { RgbaImage } from '../../engine/types.js';
import { gaussian } from '../lib/mlp.js';

export async function fromEncoded(input: Buffer | string): Promise<RgbaImage> {
  const { data, info } = await sharp(input, { limitInputPixels: 60_000_000 })
    .toColourspace('srgb')
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

export async function viaSharp(image: RgbaImage, build: (s: ReturnType<typeof sharp>) => ReturnType<typeof sharp>): Promise<RgbaImage> {
  const s = build(
    sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length), {
      raw: { width: image.width, height: image.height, channels: 4 },
    }),
  );
  const { data, info } = await s.toColourspace('srgb').ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

export function flattenOn(image: RgbaImage, bg: [number, number, number]): RgbaImage {
  const out = new Uint8Array(image.data.length);
  for (let i = 0; i < out.length; i += 4) {
    const a = image.data[i + 3] / 255;
    for (let c = 0; c < 3; c++) out[i + c] = Math.round(image.data[i + c] * a + bg[c] * (1 - a));
    out[i + 3] = 255;
  }
  return { ...image, data: out };
}

export async function resizeLong(image: RgbaImage, longSide: number): Promise<RgbaImage> {
  const scale = longSide / Math.max(image.width, image.height);
  const width = Math.max(8, Math.round(image.width * scale)),
    height = Math.max(8, Math.round(image.height * scale));
  return viaSharp(image, (s) => s.resize(width, height, { fit: 'fill' }));
}

export async function crop(image: RgbaImage, random: () => number, minSide: number): Promise<RgbaImage> {
  const fw = minSide + random() * (1 - minSide),
    fh = minSide + random() * (1 - minSide);
  const width = Math.max(16, Math.round(image.width * fw)),
    height = Math.max(16, Math.round(image.height * fh));
  const left = Math.floor(random() * (image.width - width + 1)),
    top = Math.floor(random() * (image.height - height + 1));
  return viaSharp(image, (s) => s.extract({ left, top, width, height }));
}

export async function jpeg(image: RgbaImage, quality: number): Promise<RgbaImage> {
  const flat = flattenOn(image, [255, 255, 255]);
  const bytes = await sharp(Buffer.from(flat.data), { raw: { width: flat.width, height: flat.height, channels: 4 } })
    .jpeg({ quality })
    .toBuffer();
  return fromEncoded(bytes);
}

// In JS rather than sharp: sharp's greyscale output keeps one channel whatever colourspace is asked.
export function grayscale(image: RgbaImage): RgbaImage {
  const out = new Uint8Array(image.data);
  for (let i = 0; i < out.length; i += 4) {
    const l = Math.round(0.299 * out[i] + 0.587 * out[i + 1] + 0.114 * out[i + 2]);
    out[i] = out[i + 1] = out[i + 2] = l;
  }
  return { ...image, data: out };
}

export function addNoise(image: RgbaImage, random: () => number, sigma: number, gray: boolean): RgbaImage {
  const out = new Uint8Array(image.data);
  for (let i = 0; i < out.length; i += 4) {
    const shared = gaussian(random) * sigma;
    for (let c = 0; c < 3; c++)
      out[i + c] = Math.max(0, Math.min(255, Math.round(out[i + c] + (gray ? shared : gaussian(random) * sigma))));
  }
  return { ...image, data: out };
}

type Point = [number, number];

/** The 3×3 homography (row-major, h[8] = 1) taking the four `from` corners onto the four `to` corners. */
function homography(from: Point[], to: Point[]): number[] {
  const a: number[][] = [];
  for (let k = 0; k < 4; k++) {
    const [x, y] = from[k],
      [u, v] = to[k];
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  // Gaussian elimination with partial pivoting on the 8×9 augmented system.
  for (let col = 0; col < 8; col++) {
    let pivot = col;
    for (let row = col + 1; row < 8; row++) if (Math.abs(a[row][col]) > Math.abs(a[pivot][col])) pivot = row;
    [a[col], a[pivot]] = [a[pivot], a[col]];
    for (let row = 0; row < 8; row++) {
      if (row === col) continue;
      const f = a[row][col] / a[col][col];
      for (let k = col; k < 9; k++) a[row][k] -= f * a[col][k];
    }
  }
  return [...a.map((row, i) => row[8] / row[i]), 1];
}

/**
 * Draws `image` onto a new width×height canvas of `background` so that its corners (top-left,
 * top-right, bottom-right, bottom-left) land on `corners`: a page seen in perspective. Each output
 * pixel samples the source bilinearly through the inverse mapping.
 */
export function warpOnto(
  image: RgbaImage,
  corners: Point[],
  width: number,
  height: number,
  background: (x: number, y: number) => [number, number, number],
): RgbaImage {
  const { width: w, height: h, data } = image;
  const m = homography(corners, [
    [0, 0],
    [w - 1, 0],
    [w - 1, h - 1],
    [0, h - 1],
  ]);
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const d = m[6] * x + m[7] * y + m[8];
      let sx = (m[0] * x + m[1] * y + m[2]) / d,
        sy = (m[3] * x + m[4] * y + m[5]) / d;
      // Rounding leaves a corner's own pixel a hair outside the page: it still belongs to it.
      const edge = 1e-6;
      if (sx < -edge || sy < -edge || sx > w - 1 + edge || sy > h - 1 + edge) {
        const bg = background(x, y);
        out[o] = bg[0];
        out[o + 1] = bg[1];
        out[o + 2] = bg[2];
        out[o + 3] = 255;
        continue;
      }
      sx = Math.max(0, Math.min(w - 1, sx));
      sy = Math.max(0, Math.min(h - 1, sy));
      const x0 = Math.min(w - 2, Math.floor(sx)),
        y0 = Math.min(h - 2, Math.floor(sy));
      const fx = sx - x0,
        fy = sy - y0;
      const i00 = (y0 * w + x0) * 4,
        i10 = i00 + 4,
        i01 = i00 + w * 4,
        i11 = i01 + 4;
      for (let c = 0; c < 3; c++) {
        const top = data[i00 + c] * (1 - fx) + data[i10 + c] * fx,
          bottom = data[i01 + c] * (1 - fx) + data[i11 + c] * fx;
        out[o + c] = Math.round(top * (1 - fy) + bottom * fy);
      }
      out[o + 3] = 255;
    }
  }
  return { width, height, data: out };
}

/** Multiplies every pixel by a light level (0 = black, 1 = unchanged) that depends on its place (u, v in 0..1). */
export function lightBy(image: RgbaImage, light: (u: number, v: number) => number): RgbaImage {
  const { width, height } = image;
  const out = new Uint8Array(image.data);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4,
        l = light(x / width, y / height);
      for (let c = 0; c < 3; c++) out[i + c] = Math.max(0, Math.min(255, Math.round(out[i + c] * l)));
    }
  }
  return { ...image, data: out };
}

/** A round dot of dust or toner at (x, y), of a grey level. */
export interface Speck {
  x: number;
  y: number;
  radius: number;
  level: number;
}

export function drawSpecks(image: RgbaImage, specks: Speck[]): RgbaImage {
  const { width, height } = image;
  const out = new Uint8Array(image.data);
  for (const { x: cx, y: cy, radius: r, level } of specks) {
    for (let y = Math.max(0, Math.floor(cy - r)); y <= Math.min(height - 1, Math.ceil(cy + r)); y++) {
      for (let x = Math.max(0, Math.floor(cx - r)); x <= Math.min(width - 1, Math.ceil(cx + r)); x++) {
        if ((x - cx) ** 2 + (y - cy) ** 2 > r * r) continue;
        const i = (y * width + x) * 4;
        out[i] = out[i + 1] = out[i + 2] = level;
      }
    }
  }
  return { ...image, data: out };
}
