/**
 * Training augmentation of clip art, photos and line drawings (scans: augment-scan.ts). Every
 * random choice comes from the stream the builder seeds by source, file and variant.
 */
import type { RgbaImage } from '../../engine/types.js';
import { scanLike } from './augment-scan.js';
import { addNoise, crop, flattenOn, grayscale, jpeg, resizeLong, viaSharp } from './image-ops.js';

/** White lines on a blueprint blue: the page's lightness picks between blue and white. */
function whiteOnBlue(image: RgbaImage, random: () => number): RgbaImage {
  const blue = [20 + random() * 40, 50 + random() * 60, 120 + random() * 90];
  const flat = flattenOn(image, [255, 255, 255]);
  const out = new Uint8Array(flat.data.length);
  for (let i = 0; i < out.length; i += 4) {
    const ink = 1 - (0.299 * flat.data[i] + 0.587 * flat.data[i + 1] + 0.114 * flat.data[i + 2]) / 255;
    for (let c = 0; c < 3; c++) out[i + c] = Math.round(blue[c] + ink * (250 - blue[c]));
    out[i + 3] = 255;
  }
  return { ...flat, data: out };
}

export async function clipartAugment(image: RgbaImage, random: () => number): Promise<RgbaImage> {
  let img = image;
  const r = random();
  if (r < 0.15) {
    const bg: [number, number, number] = [200 + random() * 55, 200 + random() * 55, 200 + random() * 55].map(Math.round) as [
      number,
      number,
      number,
    ];
    img = flattenOn(img, bg);
  }
  if (random() < 0.3) img = await jpeg(img, Math.round(60 + random() * 35));
  return img;
}

/** A wide strip from the upper part of a picture: mostly sky, with little in it (a kite, a roof line). */
async function upperStrip(image: RgbaImage, random: () => number): Promise<RgbaImage> {
  const width = Math.max(16, Math.round(image.width * (0.5 + random() * 0.5)));
  const height = Math.max(16, Math.round(image.height * (0.25 + random() * 0.3)));
  const left = Math.floor(random() * (image.width - width + 1));
  const top = Math.min(image.height - height, Math.floor(random() * image.height * 0.2));
  return viaSharp(image, (s) => s.extract({ left, top, width, height }));
}

/** A close-up: a small part of the picture filling the frame, so surfaces (bark, planks, stone) become the whole image. */
async function closeUp(image: RgbaImage, random: () => number): Promise<RgbaImage> {
  const side = 0.12 + random() * 0.2;
  const width = Math.max(16, Math.round(image.width * side * (0.7 + random() * 0.6)));
  const height = Math.max(16, Math.round(image.height * side * (0.7 + random() * 0.6)));
  const left = Math.floor(random() * (image.width - width + 1)),
    top = Math.floor(random() * (image.height - height + 1));
  return viaSharp(image, (s) => s.extract({ left, top, width, height }));
}

/** Pale, washed-out colours (haze, overexposure, a bleached surface): contrast pulled towards a light grey. */
function washOut(image: RgbaImage, random: () => number): RgbaImage {
  const keep = 0.3 + random() * 0.4,
    light = 170 + random() * 70,
    saturation = 0.3 + random() * 0.7;
  const out = new Uint8Array(image.data);
  for (let i = 0; i < out.length; i += 4) {
    const l = 0.299 * out[i] + 0.587 * out[i + 1] + 0.114 * out[i + 2];
    for (let c = 0; c < 3; c++)
      out[i + c] = Math.max(0, Math.min(255, Math.round(light + (l + (out[i + c] - l) * saturation - light) * keep)));
  }
  return { ...image, data: out };
}

/**
 * The calmest part of a photograph: of a few candidate windows, the one whose luma changes least
 * between neighbours (judged on a 96-px copy), so that sky, water, mist, a studio backdrop or a
 * defocused background fills most of the frame. Such photos look like soft-gradient clip art to
 * the features unless training shows them as photos.
 */
export async function calmestWindow(image: RgbaImage, random: () => number): Promise<RgbaImage> {
  const small = await resizeLong(image, 96);
  const { width: w, height: h, data } = small;
  const luma = (x: number, y: number) =>
    0.299 * data[(y * w + x) * 4] + 0.587 * data[(y * w + x) * 4 + 1] + 0.114 * data[(y * w + x) * 4 + 2];
  const step = new Float32Array(w * h);
  for (let y = 0; y < h - 1; y++)
    for (let x = 0; x < w - 1; x++) step[y * w + x] = Math.abs(luma(x + 1, y) - luma(x, y)) + Math.abs(luma(x, y + 1) - luma(x, y));
  let best = { left: 0, top: 0, width: image.width, height: image.height, busy: Infinity };
  // Six candidates: enough to find the quiet part of most pictures, few enough that the choice stays varied.
  for (let k = 0; k < 6; k++) {
    const width = Math.max(16, Math.round(image.width * (0.35 + random() * 0.65)));
    const height = Math.max(16, Math.round(image.height * (0.25 + random() * 0.5)));
    const left = Math.floor(random() * (image.width - width + 1)),
      top = Math.floor(random() * (image.height - height + 1));
    const [x0, y0] = [Math.floor((left * w) / image.width), Math.floor((top * h) / image.height)];
    const [x1, y1] = [
      Math.min(w - 1, Math.ceil(((left + width) * w) / image.width)),
      Math.min(h - 1, Math.ceil(((top + height) * h) / image.height)),
    ];
    let sum = 0;
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) sum += step[y * w + x];
    const busy = sum / Math.max(1, (x1 - x0) * (y1 - y0));
    if (busy < best.busy) best = { left, top, width, height, busy };
  }
  const { left, top, width, height } = best;
  return viaSharp(image, (s) => s.extract({ left, top, width, height }));
}

/**
 * Deep, saturated colour, as a polarising filter or an edited wallpaper gives a sky or sea: chroma
 * pushed away from luma and the picture a little darker. The training photos' skies are mostly pale,
 * so without this a deep blue sky exists in training only as generated gradient art.
 */
function vivid(image: RgbaImage, random: () => number): RgbaImage {
  const saturation = 1.3 + random() * 0.9,
    exposure = 0.7 + random() * 0.35;
  const out = new Uint8Array(image.data);
  for (let i = 0; i < out.length; i += 4) {
    const l = 0.299 * out[i] + 0.587 * out[i + 1] + 0.114 * out[i + 2];
    for (let c = 0; c < 3; c++) out[i + c] = Math.max(0, Math.min(255, Math.round((l + (out[i + c] - l) * saturation) * exposure)));
  }
  return { ...image, data: out };
}

/** Photos dominated by smooth areas: a sky strip or the calmest window, sometimes deepened or defocused, at wallpaper size or less. */
export async function calmPhotoAugment(image: RgbaImage, random: () => number): Promise<RgbaImage> {
  // Half are the sky of a landscape (its upper strip), half the calmest part wherever it lies.
  let img = random() < 0.5 ? await upperStrip(image, random) : await calmestWindow(image, random);
  if (random() < 0.5) img = vivid(img, random);
  img = await resizeLong(img, Math.round(300 + random() * 1620));
  if (random() < 0.3) img = await viaSharp(img, (s) => s.blur(1 + random() * 5));
  if (random() < 0.25) img = addNoise(img, random, 1 + random() * 4, false);
  if (random() < 0.6) img = await jpeg(img, Math.round(55 + random() * 40));
  return img;
}

export async function photoAugment(image: RgbaImage, random: () => number, variant: number): Promise<RgbaImage> {
  const r = random();
  let img =
    variant === 0
      ? image
      : r < 0.2
        ? await upperStrip(image, random)
        : r < 0.32
          ? await closeUp(image, random)
          : await crop(image, random, 0.4);
  img = await resizeLong(img, Math.round(200 + random() * 1400));
  if (random() < 0.12) img = washOut(img, random);
  if (random() < 0.1) img = grayscale(img);
  if (random() < 0.2) img = await viaSharp(img, (s) => s.blur(0.5 + random() * 2));
  if (random() < 0.2) img = addNoise(img, random, 1 + random() * 5, false);
  if (random() < 0.5) img = await jpeg(img, Math.round(45 + random() * 50));
  return img;
}

/**
 * Light or strong colours inside the closed shapes of a line drawing, as diagrams fill their
 * nodes (dot's `style=filled`, coloured blocks of a flowchart): white regions that do not reach
 * the border take a colour of a small palette. Regions smaller than a letter's counter stay white,
 * and so do those over 8 % of the picture: a node is filled, not the whole inside of a drawing.
 */
function colourFills(image: RgbaImage, random: () => number): RgbaImage {
  const { width, height } = image;
  const data = new Uint8Array(image.data);
  const pixels = width * height;
  const palette = Array.from({ length: 1 + Math.floor(random() * 4) }, () => {
    const hue = random() * 6,
      strong = random() < 0.35;
    const saturation = strong ? 0.6 + random() * 0.4 : 0.15 + random() * 0.5;
    const value = strong ? 0.75 + random() * 0.25 : 0.85 + random() * 0.15;
    const f = hue - Math.floor(hue),
      p = value * (1 - saturation),
      q = value * (1 - saturation * f),
      t = value * (1 - saturation * (1 - f));
    const rgb = [
      [value, t, p],
      [q, value, p],
      [p, value, t],
      [p, q, value],
      [t, p, value],
      [value, p, q],
    ][Math.floor(hue) % 6];
    return rgb.map((v) => Math.round(v * 255));
  });
  const share = 0.4 + random() * 0.6;
  const isPaper = (i: number) => data[i * 4] > 215 && data[i * 4 + 1] > 215 && data[i * 4 + 2] > 215;
  const seen = new Uint8Array(pixels);
  const region = new Int32Array(pixels);
  for (let start = 0; start < pixels; start++) {
    if (seen[start] || !isPaper(start)) continue;
    let size = 0,
      touchesBorder = false;
    seen[start] = 1;
    region[size++] = start;
    for (let k = 0; k < size; k++) {
      const i = region[k],
        x = i % width,
        y = (i - x) / width;
      if (x === 0 || y === 0 || x === width - 1 || y === height - 1) touchesBorder = true;
      for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, y > 0 ? i - width : -1, y < height - 1 ? i + width : -1]) {
        if (j >= 0 && !seen[j] && isPaper(j)) {
          seen[j] = 1;
          region[size++] = j;
        }
      }
    }
    if (touchesBorder || size < pixels * 0.0015 || size > pixels * 0.08 || random() > share) continue;
    const colour = palette[Math.floor(random() * palette.length)];
    for (let k = 0; k < size; k++) {
      const o = region[k] * 4;
      // Keeps the anti-aliased edge: a pixel's darkness against white darkens the fill the same way.
      for (let c = 0; c < 3; c++) data[o + c] = Math.round((colour[c] * data[o + c]) / 255);
    }
    // Sometimes the outline takes the fill's colour too (dot's `color=red, style=filled`): the
    // two rings of line pixels around the region become a darker shade of it.
    if (random() < 0.4) {
      let ring = Array.from(region.subarray(0, size));
      for (let pass = 0; pass < 2; pass++) {
        const next: number[] = [];
        for (const i of ring) {
          const x = i % width;
          for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width]) {
            if (j < 0 || j >= pixels || seen[j] === 2 || isPaper(j)) continue;
            seen[j] = 2;
            next.push(j);
            for (let c = 0; c < 3; c++) data[j * 4 + c] = Math.round(colour[c] * 0.75);
          }
        }
        ring = next;
      }
    }
  }
  return { ...image, data };
}

export async function blueprintAugment(image: RgbaImage, random: () => number): Promise<RgbaImage> {
  let img = flattenOn(image, [255, 255, 255]);
  if (random() < 0.3) img = colourFills(img, random);
  const r = random();
  if (r < 0.2) img = whiteOnBlue(img, random);
  else if (r < 0.65) img = await scanLike(img, random, 0.3 + random() * 0.9);
  else if (random() < 0.3) img = await jpeg(img, Math.round(60 + random() * 35));
  return img;
}
