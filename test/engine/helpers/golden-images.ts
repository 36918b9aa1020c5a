/**
 * Synthetic inputs for the golden SVG tests (golden.test.ts). Each is computed from integer
 * arithmetic and a seeded generator, never read from disk, so the same pixels come out on every
 * machine; PNG is lossless, so what the engine decodes is exactly these pixels.
 */
import { seededRandom } from './bmp-writer.js';
import { raster, testCard, type Raster } from './images.js';

type Rgb = [number, number, number];

const PAPER: Rgb = [250, 247, 238];
const INK: Rgb = [24, 26, 40];

function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [0, 1, 2].map((c) => Math.round(a[c] + (b[c] - a[c]) * t)) as Rgb;
}

/**
 * Share of the pixel (x, y) covered by `inside`, sampled on a 4×4 grid: the anti-aliasing a
 * rasteriser gives, so the tracer sees the ramps it meets in real exports.
 */
function coverage(x: number, y: number, inside: (px: number, py: number) => boolean): number {
  let hits = 0;
  for (let sy = 0; sy < 4; sy++) for (let sx = 0; sx < 4; sx++) if (inside(x + (sx + 0.5) / 4, y + (sy + 0.5) / 4)) hits++;
  return hits / 16;
}

/** Distance from (px, py) to the segment a–b. Math.sqrt, not Math.hypot: sqrt is exactly rounded everywhere. */
function segmentDistance(px: number, py: number, [ax, ay]: [number, number], [bx, by]: [number, number]): number {
  const dx = bx - ax,
    dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return distance(px - ax - t * dx, py - ay - t * dy);
}

function distance(dx: number, dy: number): number {
  return Math.sqrt(dx * dx + dy * dy);
}

/** Hard-edged rectangle, ring with a hole and triangle on cream: no anti-aliasing at all. */
export function flatShapes(): Raster {
  return testCard(96, 72);
}

/** A disc with an anti-aliased rim on a flat background. */
export function antiAliasedDisc(): Raster {
  const inside = (px: number, py: number) => (px - 32) ** 2 + (py - 30) ** 2 < 22 ** 2;
  return raster(64, 60, (x, y) => mix([236, 240, 245], [200, 50, 60], coverage(x, y, inside)));
}

/** A left-to-right ramp across the whole image with a flat bar in front of it. */
export function linearGradient(): Raster {
  return raster(96, 48, (x, y) => {
    if (y >= 20 && y < 28 && x >= 12 && x < 84) return [30, 30, 30];
    return mix([40, 90, 210], [240, 170, 40], x / 95);
  });
}

/** A disc shaded from a light centre to a dark rim (a sphere's highlight) on white. */
export function radialDisc(): Raster {
  const inside = (px: number, py: number) => (px - 36) ** 2 + (py - 36) ** 2 < 28 ** 2;
  return raster(72, 72, (x, y) => {
    const r = Math.min(1, distance(x + 0.5 - 30, y + 0.5 - 30) / 34);
    const shade = mix([250, 220, 160], [150, 40, 20], r);
    return mix([255, 255, 255], shade, coverage(x, y, inside));
  });
}

/**
 * Text-like strokes on paper: letter shapes built from 2-px segments and a bowl, anti-aliased, as
 * a scan of a printed word looks before any noise.
 */
export function lineArt(): Raster {
  const strokes: Array<[[number, number], [number, number]]> = [
    // "H"
    [
      [8, 10],
      [8, 38],
    ],
    [
      [24, 10],
      [24, 38],
    ],
    [
      [8, 24],
      [24, 24],
    ],
    // "T"
    [
      [32, 10],
      [52, 10],
    ],
    [
      [42, 10],
      [42, 38],
    ],
    // "/" and a baseline rule
    [
      [58, 38],
      [72, 10],
    ],
    [
      [6, 46],
      [100, 46],
    ],
  ];
  const onStroke = (px: number, py: number) =>
    strokes.some(([a, b]) => segmentDistance(px, py, a, b) <= 1.3) || Math.abs(distance(px - 88, py - 26) - 10) <= 1.3;
  return raster(108, 54, (x, y) => mix(PAPER, INK, coverage(x, y, onStroke)));
}

/** A 1-bit drawing: a frame, a diagonal, a circle and a dimension tick, black on white. */
export function oneBitDrawing(): Raster {
  return raster(80, 64, (x, y) => {
    const px = x + 0.5,
      py = y + 0.5;
    const frame = (x >= 4 && x < 76 && (y === 4 || y === 5 || y === 58 || y === 59)) || (y >= 4 && y < 60 && (x === 4 || x === 75));
    const diagonal = segmentDistance(px, py, [10, 52], [40, 12]) <= 1;
    const circle = Math.abs(distance(px - 56, py - 32) - 12) <= 1;
    const tick = x >= 52 && x <= 60 && y === 50;
    return frame || diagonal || circle || tick ? [0, 0, 0] : [255, 255, 255];
  });
}

/**
 * Transparent background with an opaque badge, a half-transparent square and a soft (partly
 * transparent) anti-aliased rim: alpha below the engine's threshold must stay unpainted.
 */
export function transparency(): Raster {
  const inside = (px: number, py: number) => (px - 40) ** 2 + (py - 26) ** 2 < 16 ** 2;
  return raster(64, 48, (x, y) => {
    const cover = coverage(x, y, inside);
    if (cover > 0) return [30, 140, 90, Math.round(255 * cover)];
    if (x >= 6 && x < 20 && y >= 8 && y < 22) return [200, 60, 40, 160];
    if (x >= 6 && x < 20 && y >= 30 && y < 42) return [40, 40, 200, 255];
    return [0, 0, 0, 0];
  });
}

/**
 * A small photo-like field: smooth value noise (bilinear between seeded lattice colours) with a
 * little per-pixel grain, the texture that drives the photo preset's denoise and merging.
 */
export function noiseField(size = 48, cells = 6): Raster {
  const random = seededRandom(0x5eed);
  const lattice = Array.from({ length: (cells + 1) ** 2 }, () => [random(), random(), random()]);
  const at = (cx: number, cy: number) => lattice[cy * (cells + 1) + cx];
  return raster(size, size, (x, y) => {
    const fx = (x / size) * cells,
      fy = (y / size) * cells;
    const cx = Math.floor(fx),
      cy = Math.floor(fy),
      tx = fx - cx,
      ty = fy - cy;
    const grain = (random() - 0.5) * 16;
    return [0, 1, 2].map((c) => {
      const top = at(cx, cy)[c] * (1 - tx) + at(cx + 1, cy)[c] * tx;
      const bottom = at(cx, cy + 1)[c] * (1 - tx) + at(cx + 1, cy + 1)[c] * tx;
      return Math.max(0, Math.min(255, Math.round(40 + 180 * (top * (1 - ty) + bottom * ty) + grain)));
    }) as Rgb;
  });
}
