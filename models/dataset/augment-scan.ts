/**
 * How a clean page becomes a scan for training: paper, light and the scanner's level curve, skew,
 * blur, noise, bilevel scans, dark scanner margins and pages photographed with a camera; and two
 * harder kinds of their own (bookScanAugment, cameraPageAugment) for the pages the model read as
 * blueprints or photos.
 */
import type { RgbaImage } from '../../engine/types.js';
import {
  addNoise,
  crop,
  flattenOn,
  grayscale,
  jpeg,
  drawSpecks,
  lightBy,
  resizeLong,
  viaSharp,
  warpOnto,
  type Speck,
} from './image-ops.js';

/** Paper tint, uneven light and the scanner's level curve, applied per pixel. */
function paperAndLight(image: RgbaImage, random: () => number): RgbaImage {
  const dim = random() < 0.25 ? 0.6 + random() * 0.3 : 1;
  const tint = [(245 - random() * 12) * dim, (242 - random() * 16) * dim, (232 - random() * 30) * dim];
  const black = random() * 40,
    angle = random() * 2 * Math.PI;
  const fall = random() < 0.5 ? random() * 0.45 : 0;
  const out = new Uint8Array(image.data.length);
  const { width, height } = image;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const t = (x / width - 0.5) * Math.cos(angle) + (y / height - 0.5) * Math.sin(angle) + 0.5;
      const light = 1 - fall * t;
      for (let c = 0; c < 3; c++) {
        const v = image.data[i + c] / 255;
        out[i + c] = Math.max(0, Math.min(255, Math.round((black + v * (tint[c] - black)) * light)));
      }
      out[i + 3] = 255;
    }
  }
  return { ...image, data: out };
}

export async function scanLike(image: RgbaImage, random: () => number, strength: number): Promise<RgbaImage> {
  let img = flattenOn(image, [255, 255, 255]);
  const gray = random() < 0.5;
  if (gray) img = grayscale(img);
  const angle = (random() - 0.5) * 3 * strength;
  if (Math.abs(angle) > 0.1) img = await viaSharp(img, (s) => s.rotate(angle, { background: { r: 255, g: 255, b: 255, alpha: 1 } }));
  if (random() < 0.7) img = await viaSharp(img, (s) => s.blur(0.3 + random() * 0.9 * strength));
  img = paperAndLight(img, random);
  img = addNoise(img, random, 2 + random() * 8 * strength, gray);
  if (random() < 0.6) img = await jpeg(img, Math.round(55 + random() * 40));
  return img;
}

export async function scanAugment(image: RgbaImage, random: () => number): Promise<RgbaImage> {
  let img = image;
  const r = random();
  // Whole pages, parts of pages, and strips of a few lines (as a snippet of a scanned page).
  if (r < 0.3) img = await crop(img, random, 0.35);
  else if (r < 0.5) {
    const height = Math.max(40, Math.round(img.height * (0.1 + random() * 0.25)));
    const top = Math.floor(random() * (img.height - height));
    img = await viaSharp(img, (s) => s.extract({ left: 0, top, width: img.width, height }));
  } else if (r < 0.65) {
    // A close-up: a few lines of a paragraph filling the frame, so the letters are large (a
    // phone picture of a passage, a scanned snippet); the thumbnail then sees words, not rows of grey.
    img = await resizeLong(img, Math.round(img.width * (1.5 + random() * 1.5)));
    const width = Math.max(40, Math.round(img.width * (0.25 + random() * 0.35)));
    const height = Math.max(40, Math.min(img.height, Math.round(width * (0.35 + random() * 0.6))));
    const left = Math.floor(random() * (img.width - width + 1)),
      top = Math.floor(random() * (img.height - height + 1));
    img = await viaSharp(img, (s) => s.extract({ left, top, width, height }));
  }
  if (random() < 0.3) img = await resizeLong(img, Math.round(300 + random() * 500));
  // A page photographed rather than scanned (phone or camera over a book): small, soft, lit
  // from one side, low contrast. Ruled-out by the plain scanner branch's gentle light fall-off.
  if (random() < 0.2) return photographedPage(img, random);
  if (random() < 0.2) return scanBorder(binarise(await scanLike(img, random, 0.5 + random()), random), random);
  img = await scanLike(img, random, 0.5 + random());
  return random() < 0.25 ? scanBorder(img, random) : img;
}

/** Strong one-sided light and a vignette over a dim, low-contrast page, as a camera sees a book. */
async function photographedPage(image: RgbaImage, random: () => number): Promise<RgbaImage> {
  let img = flattenOn(image, [255, 255, 255]);
  const gray = random() < 0.6;
  if (gray) img = grayscale(img);
  img = await resizeLong(img, Math.round(250 + random() * 450));
  const angle = (random() - 0.5) * 5;
  if (Math.abs(angle) > 0.2) img = await viaSharp(img, (s) => s.rotate(angle, { background: { r: 255, g: 255, b: 255, alpha: 1 } }));
  img = await viaSharp(img, (s) => s.blur(0.4 + random() * 0.9));
  const paper = 170 + random() * 70,
    warm = random() * 25;
  const tint = [paper, paper - warm * 0.4, paper - warm];
  const black = 20 + random() * 60;
  const fall = 0.3 + random() * 0.45,
    angleLight = random() * 2 * Math.PI,
    vignette = random() * 0.4;
  const out = new Uint8Array(img.data.length);
  const { width, height } = img;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const u = x / width - 0.5,
        v = y / height - 0.5;
      const t = u * Math.cos(angleLight) + v * Math.sin(angleLight) + 0.5;
      const light = (1 - fall * t) * (1 - vignette * 2 * (u * u + v * v));
      for (let c = 0; c < 3; c++)
        out[i + c] = Math.max(0, Math.min(255, Math.round((black + (img.data[i + c] / 255) * (tint[c] - black)) * light)));
      out[i + 3] = 255;
    }
  }
  img = addNoise({ ...img, data: out }, random, 2 + random() * 5, gray);
  return random() < 0.7 ? jpeg(img, Math.round(60 + random() * 35)) : img;
}

/** A bilevel (fax or 1-bit) scan: everything becomes black or white. */
function binarise(image: RgbaImage, random: () => number): RgbaImage {
  const threshold = 110 + random() * 60;
  const out = new Uint8Array(image.data.length);
  for (let i = 0; i < out.length; i += 4) {
    const v = 0.299 * image.data[i] + 0.587 * image.data[i + 1] + 0.114 * image.data[i + 2] < threshold ? 0 : 255;
    out[i] = out[i + 1] = out[i + 2] = v;
    out[i + 3] = 255;
  }
  return { ...image, data: out };
}

/** The dark margin a flatbed scanner leaves where the page does not reach its edge. */
function scanBorder(image: RgbaImage, random: () => number, minDepth = 0.01, depthRange = 0.06): RgbaImage {
  const out = new Uint8Array(image.data);
  const { width, height } = image;
  const grey = random() * 60;
  const edges = [random() < 0.5, random() < 0.5, random() < 0.5, random() < 0.5];
  const depth = edges.map(() => Math.round((minDepth + random() * depthRange) * Math.min(width, height)));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (
        (edges[0] && x < depth[0]) ||
        (edges[1] && x >= width - depth[1]) ||
        (edges[2] && y < depth[2]) ||
        (edges[3] && y >= height - depth[3])
      ) {
        const i = (y * width + x) * 4;
        out[i] = out[i + 1] = out[i + 2] = Math.round(grey + random() * 20);
      }
    }
  }
  return { ...image, data: out };
}

/** A crop of part of a page (a column, a paragraph) or the whole page, resized to a scanner's or camera's size. */
async function pageOrPart(image: RgbaImage, random: () => number, longMin: number, longMax: number): Promise<RgbaImage> {
  let img = flattenOn(image, [255, 255, 255]);
  if (random() < 0.35) img = await crop(img, random, 0.45);
  return resizeLong(img, Math.round(longMin + random() * (longMax - longMin)));
}

/**
 * A page of a bound book on a flatbed scanner: skewed, the gutter's shadow along one side, dark
 * bands where the lid did not cover the glass, dust specks, grey or yellowed paper. These are the
 * scans the model took for blueprints (dark border lines and specks read as drawing).
 */
export async function bookScanAugment(image: RgbaImage, random: () => number): Promise<RgbaImage> {
  let img = await pageOrPart(image, random, 450, 1300);
  const gray = random() < 0.6;
  if (gray) img = grayscale(img);
  const paper = 0.72 + random() * 0.26,
    yellow = random() * 0.12;
  const gutterLeft = random() < 0.5,
    gutterWidth = 0.04 + random() * 0.16,
    gutterDark = 0.3 + random() * 0.6;
  img = lightBy(img, (u) => {
    const d = (gutterLeft ? u : 1 - u) / gutterWidth;
    return paper * (1 - gutterDark * Math.exp(-d * d));
  });
  if (yellow > 0.02 && !gray) {
    const data = new Uint8Array(img.data);
    for (let i = 0; i < data.length; i += 4) data[i + 2] = Math.round(data[i + 2] * (1 - yellow));
    img = { ...img, data };
  }
  const lid = Math.round(random() * 70);
  const angle = (random() < 0.5 ? -1 : 1) * (0.3 + random() * 5.5);
  img = await viaSharp(img, (s) => s.rotate(angle, { background: { r: lid, g: lid, b: lid, alpha: 1 } }));
  img = scanBorder(img, random, 0.02, 0.16);
  const speck = (maxRadius: number, level: () => number): Speck => ({
    x: random() * img.width,
    y: random() * img.height,
    radius: 0.5 + random() * (maxRadius - 0.5),
    level: level(),
  });
  const dark = Math.round(img.width * img.height * (0.00005 + random() * 0.0008)),
    darkRadius = 1 + random() * 2.5;
  img = drawSpecks(
    img,
    Array.from({ length: dark }, () => speck(darkRadius, () => Math.round(random() * 90))),
  );
  if (random() < 0.3)
    img = drawSpecks(
      img,
      Array.from({ length: Math.round(img.width * img.height * 0.0002 * random()) }, () => speck(1.5, () => 255)),
    );
  if (random() < 0.6) img = await viaSharp(img, (s) => s.blur(0.3 + random() * 0.8));
  img = addNoise(img, random, 2 + random() * 7, gray);
  if (random() < 0.2) img = binarise(img, random);
  return random() < 0.6 ? jpeg(img, Math.round(55 + random() * 40)) : img;
}

/**
 * A printed page photographed with a phone or camera: grey paper (the exposure is set for the
 * room, not the page), light that falls off across it and a brighter patch near the lamp, a
 * slight perspective, sometimes the desk showing around it; soft and noisy. These read as photos.
 */
export async function cameraPageAugment(image: RgbaImage, random: () => number): Promise<RgbaImage> {
  let img = await pageOrPart(image, random, 500, 1200);
  const gray = random() < 0.3;
  if (gray) img = grayscale(img);
  const { width, height } = img;
  // The page's corners, pulled in or out by up to 9 % of a side; with a margin, the desk shows.
  const margin = random() < 0.5 ? 0.02 + random() * 0.12 : -0.03 * random();
  const jitter = () => (random() - 0.5) * 0.18;
  const corners: Array<[number, number]> = [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 1],
  ].map(([u, v]) => [
    (margin + (1 - 2 * margin) * u + jitter() * (1 - 2 * margin)) * width,
    (margin + (1 - 2 * margin) * v + jitter() * (1 - 2 * margin)) * height,
  ]);
  const desk = [40 + random() * 120, 30 + random() * 100, 20 + random() * 90];
  const grain = random() * 0.25,
    grainScale = 4 + random() * 30;
  img = warpOnto(img, corners, width, height, (x, y) => {
    const g = 1 + grain * Math.sin(x / grainScale + 3 * Math.sin(y / (grainScale * 5)));
    return desk.map((c) => Math.max(0, Math.min(255, Math.round(c * g)))) as [number, number, number];
  });
  const exposure = 0.5 + random() * 0.4,
    cast = [(random() - 0.5) * 0.12, (random() - 0.5) * 0.06, (random() - 0.5) * 0.16];
  const angle = random() * 2 * Math.PI,
    fall = 0.15 + random() * 0.5;
  const spotU = random(),
    spotV = random(),
    spot = random() * 0.35,
    spotSize = 0.1 + random() * 0.3;
  img = lightBy(img, (u, v) => {
    const t = (u - 0.5) * Math.cos(angle) + (v - 0.5) * Math.sin(angle) + 0.5;
    const d2 = ((u - spotU) ** 2 + (v - spotV) ** 2) / spotSize;
    return exposure * (1 - fall * t) * (1 + spot * Math.exp(-d2));
  });
  if (!gray) {
    const data = new Uint8Array(img.data);
    for (let i = 0; i < data.length; i += 4)
      for (let c = 0; c < 3; c++) data[i + c] = Math.max(0, Math.min(255, Math.round(data[i + c] * (1 + cast[c]))));
    img = { ...img, data };
  }
  img = await viaSharp(img, (s) => s.blur(0.4 + random() * 1.2));
  img = addNoise(img, random, 2 + random() * 7, gray);
  return random() < 0.8 ? jpeg(img, Math.round(55 + random() * 35)) : img;
}
