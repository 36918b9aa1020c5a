/**
 * What held-out samples go through. Packaged images are taken as they are (large wallpapers also
 * as crops). Pages of held-out manuals are degraded here, by code that no training source calls
 * (the builder refuses a training source that uses HELD_OUT_ONLY): a page photographed from
 * above and a page scanned from a book, each made in its own way, with its own light and
 * geometry, so that the held-out figures measure the training's kinds on a family it never saw.
 */
import type { RgbaImage } from '../../engine/types.js';
import { addNoise, crop, drawSpecks, flattenOn, jpeg, lightBy, resizeLong, viaSharp, warpOnto, type Speck } from './image-ops.js';

export async function heldOutPhoto(image: RgbaImage, random: () => number, variant: number): Promise<RgbaImage> {
  return variant === 0 ? image : crop(image, random, 0.5);
}

export const asIs = async (image: RgbaImage) => image;

/**
 * A page on a table, photographed from above and in front: the far (top) edge narrower than the
 * near one, turned a little, lit brightest in the middle and dimmer towards the corners, paper
 * grey under the room's exposure, a coloured table around it.
 */
export async function heldOutCameraPage(image: RgbaImage, random: () => number): Promise<RgbaImage> {
  const page = await resizeLong(flattenOn(image, [255, 255, 255]), Math.round(700 + random() * 500));
  const { width, height } = page;
  const frame = 1.08 + random() * 0.2;
  const outW = Math.round(width * frame),
    outH = Math.round(height * frame);
  const squeeze = 0.03 + random() * 0.1,
    turn = (random() - 0.5) * 0.2;
  const cx = outW / 2,
    cy = outH / 2;
  const quad: Array<[number, number]> = [
    [-0.5 + squeeze, -0.5],
    [0.5 - squeeze, -0.5],
    [0.5, 0.5],
    [-0.5, 0.5],
  ].map(([u, v]) => {
    const x = u * width,
      y = v * height;
    return [cx + x * Math.cos(turn) - y * Math.sin(turn), cy + x * Math.sin(turn) + y * Math.cos(turn)];
  });
  const table = [60 + random() * 150, 50 + random() * 120, 40 + random() * 110];
  let img = warpOnto(
    page,
    quad,
    outW,
    outH,
    (_x, y) => table.map((c) => Math.round(c * (0.8 + 0.2 * (y / outH)))) as [number, number, number],
  );
  const exposure = 0.55 + random() * 0.25,
    bowl = 0.2 + random() * 0.35,
    side = (random() - 0.5) * 0.4;
  img = lightBy(img, (u, v) => exposure * (1 - bowl * ((u - 0.5) ** 2 + (v - 0.5) ** 2) * 2) * (1 + side * (u - 0.5)));
  img = addNoise(img, random, 3 + random() * 4, true);
  img = await resizeLong(img, Math.round(600 + random() * 400));
  return jpeg(img, Math.round(70 + random() * 20));
}

/**
 * A book page on a flatbed: the glass beyond the page black on every side, the page curling
 * away into the spine (a dark band that fades as 1/(1+d²)), a small skew, clusters of dust, and
 * the scanner's level curve turning white paper light grey.
 */
export async function heldOutBookScan(image: RgbaImage, random: () => number): Promise<RgbaImage> {
  let img = await resizeLong(flattenOn(image, [255, 255, 255]), Math.round(800 + random() * 500));
  const spineRight = random() < 0.5,
    curl = 0.03 + random() * 0.08,
    depth = 0.4 + random() * 0.5;
  const paper = 0.78 + random() * 0.15;
  img = lightBy(img, (u) => {
    const d = (spineRight ? 1 - u : u) / curl;
    return paper * (1 - depth / (1 + d * d));
  });
  const pad = () => Math.round((0.03 + random() * 0.08) * Math.max(img.width, img.height));
  const black = { r: 15, g: 15, b: 15, alpha: 1 };
  img = await viaSharp(img, (s) => s.extend({ top: pad(), bottom: pad(), left: pad(), right: pad(), background: black }));
  const angle = (random() - 0.5) * 8;
  img = await viaSharp(img, (s) => s.rotate(angle, { background: black }));
  const specks: Speck[] = [];
  for (let cluster = Math.round(3 + random() * 12); cluster > 0; cluster--) {
    const cx = random() * img.width,
      cy = random() * img.height,
      spread = 5 + random() * 25;
    for (let dot = Math.round(5 + random() * 30); dot > 0; dot--) {
      specks.push({
        x: cx + (random() - 0.5) * 2 * spread,
        y: cy + (random() - 0.5) * 2 * spread,
        radius: 0.7 + random() * 1.3,
        level: Math.round(random() * 60),
      });
    }
  }
  img = drawSpecks(img, specks);
  img = addNoise(img, random, 2 + random() * 4, true);
  return jpeg(img, Math.round(75 + random() * 20));
}

/** Degradations that only held-out sources may use. */
export const HELD_OUT_ONLY: ReadonlySet<unknown> = new Set([heldOutCameraPage, heldOutBookScan]);
