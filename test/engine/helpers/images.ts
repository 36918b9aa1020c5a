/**
 * Synthetic images for the engine tests, made from typed arrays and encoded with sharp, and a
 * resvg renderer to look at what the SVG paints.
 */
import sharp from 'sharp';
import { Resvg } from '@resvg/resvg-js';

export interface Raster {
  width: number;
  height: number;
  data: Uint8Array; // RGBA
}

export function raster(width: number, height: number, paint: (x: number, y: number) => [number, number, number, number?]): Raster {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b, a = 255] = paint(x, y);
      const i = (y * width + x) * 4;
      data[i] = r;
      data[i + 1] = g;
      data[i + 2] = b;
      data[i + 3] = a;
    }
  }
  return { width, height, data };
}

export async function png(image: Raster): Promise<Uint8Array> {
  const buffer = await sharp(Buffer.from(image.data), { raw: { width: image.width, height: image.height, channels: 4 } })
    .png()
    .toBuffer();
  return new Uint8Array(buffer);
}

/** Renders at `zoom`; `background` white composites on white, undefined keeps alpha. */
export function render(svg: string, width: number, zoom = 1, background?: string): Raster {
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'width', value: width * zoom },
    ...(background ? { background } : {}),
    font: { loadSystemFonts: false },
  });
  const out = resvg.render();
  return { width: out.width, height: out.height, data: new Uint8Array(out.pixels) };
}

/** Flat-colour test card: background, a rectangle, a disc with a hole, a triangle. */
export function testCard(width = 96, height = 72): Raster {
  return raster(width, height, (x, y) => {
    const dx = x + 0.5 - 62,
      dy = y + 0.5 - 36;
    const d2 = dx * dx + dy * dy;
    if (d2 < 20 * 20 && d2 >= 7 * 7) return [30, 110, 200];
    if (x >= 8 && x < 36 && y >= 10 && y < 30) return [220, 40, 40];
    if (y >= 44 && y < 66 && x >= 8 && x < 8 + (y - 44) * 1.2) return [30, 160, 60];
    return [250, 240, 200];
  });
}

/** Share of pixels (RGB) that differ by more than `tolerance` on any channel, over both on white. */
export function mismatch(a: Raster, b: Raster, tolerance: number): number {
  let bad = 0;
  const n = a.width * a.height;
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < 3; c++) {
      const va = onWhite(a.data, i, c),
        vb = onWhite(b.data, i, c);
      if (Math.abs(va - vb) > tolerance) {
        bad++;
        break;
      }
    }
  }
  return bad / n;
}

function onWhite(data: Uint8Array, pixel: number, channel: number): number {
  const a = data[pixel * 4 + 3] / 255;
  return data[pixel * 4 + channel] * a + 255 * (1 - a);
}

export function countMatches(text: string, pattern: RegExp): number {
  return (text.match(pattern) ?? []).length;
}

/** Share (8×8 samples) of pixel (x, y) for which `inside` holds: an anti-aliased renderer's coverage. */
export function coverage(x: number, y: number, inside: (x: number, y: number) => boolean): number {
  let hits = 0;
  for (let j = 0; j < 8; j++) for (let i = 0; i < 8; i++) if (inside(x + (i + 0.5) / 8, y + (j + 0.5) / 8)) hits++;
  return hits / 64;
}

/** `share` of colour a over colour b, per channel. */
export function mix(a: number[], b: number[], share: number): [number, number, number] {
  return [0, 1, 2].map((c) => Math.round(a[c] * share + b[c] * (1 - share))) as [number, number, number];
}

/**
 * Anti-aliased clip art whose hidden outline takes a shortcut across a shape that group_by=color
 * lifts below it: on white, a large blue rectangle, an orange band over its right end (the blue
 * outline under it becomes one straight line, engine/svg/underlap.ts), and a white dot on the band
 * straddling the blue's right edge, painted last. Grouped, white is the bottom layer, so the dot
 * goes below the blue; left out as a background colour, the dot is a hole.
 */
export function hiddenShortcutArt(): Raster {
  const white = [255, 255, 255],
    blue = [40, 90, 170],
    orange = [240, 150, 40];
  return raster(120, 80, (x, y) => {
    const inBlue = coverage(x, y, (u, v) => u >= 10.3 && u < 90.4 && v >= 10.2 && v < 69.6);
    const inBand = coverage(x, y, (u, v) => u >= 55.4 && u < 104.6 && v >= 24.7 && v < 55.3);
    const inDot = coverage(x, y, (u, v) => Math.hypot(u - 90.2, v - 40.1) < 6.3);
    return mix(white, mix(orange, mix(blue, white, inBlue), inBand), inDot);
  });
}

/**
 * A label image of runs along the scan, long and short: at each pixel, with `changeChance`, the
 * next label is drawn from 0..labelCount-1 (`random`: a seeded generator).
 */
export function randomLabelRuns(width: number, height: number, labelCount: number, changeChance: number, random: () => number): Int32Array {
  const labels = new Int32Array(width * height);
  let label = 0;
  for (let p = 0; p < labels.length; p++) {
    if (random() < changeChance) label = Math.floor(random() * labelCount);
    labels[p] = label;
  }
  return labels;
}

/** A copy of `array` in a SharedArrayBuffer, `offset` bytes in (a multiple of its element size). */
export function sharedAt<T extends Int32Array | Uint8Array>(array: T, offset: number): T {
  const Type = array.constructor as new (buffer: SharedArrayBuffer, offset: number, length: number) => T;
  const copy = new Type(new SharedArrayBuffer(offset + array.byteLength), offset, array.length);
  copy.set(array);
  return copy;
}
