/**
 * Anti-aliasing bands back into the shapes they blend.
 *
 * Along a long anti-aliased edge the in-between pixels are alike, so the flood makes a thin band of
 * them that the merging keeps (its colour is far from both sides). But such a pixel is a mix of
 * the two colours beside it, not a shape of its own: each pixel of a thin region whose colour lies
 * on the line between two other regions near it (within two pixels) joins the one it is closer to,
 * the side that covers more of it. The boundary then runs through the band, and the sub-pixel stage
 * (engine/boundary/subpixel.ts) reads the band's colours to place it between pixel centres.
 *
 * A thin region whose colour is no such mix (a one-pixel ink line, a dark outline between light
 * fills) is left alone, and so are two bands side by side along a straight run (a strip of its own
 * colour: see joinStrips).
 */
import { renumberInScanOrder, type RegionLabels } from './renumber.js';

interface BandImage {
  width: number;
  height: number;
  rgb: Uint8Array;
}

/** A region at most this wide on average (2·area ÷ perimeter, px) may be an anti-aliasing band. */
const BAND_WIDTH = 1.3;
/** Neighbours are looked for this far (px, square window) around a band pixel. */
const REACH = 2;
/** Below this RGB distance two colours are too close to tell a mix of them from either. */
const MIN_CONTRAST = 24;
/** A mix lies within this share of the two colours' distance from the line between them. */
const OFF_LINE_SHARE = 0.3;
/** Two bands side by side for at least this many pixels, and… */
const MIN_STRIP_RUN = 8;
/** …along at least this share of the smaller one, are a strip. */
const STRIP_SHARE = 0.5;
/** At most this many distinct neighbour regions are weighed per band pixel. */
const MAX_CANDIDATES = 8;

/** Moves band pixels to their sides (labels in place) and returns the regions renumbered in scan order. */
export function absorbAntialiasBands(image: BandImage, regions: RegionLabels): RegionLabels {
  const { width, height, rgb } = image;
  const { labels, regionCount, transparent } = regions;

  const perimeter = new Int32Array(regionCount);
  const sums = new Float64Array(3 * regionCount);
  for (let y = 0, p = 0; y < height; y++) {
    for (let x = 0; x < width; x++, p++) {
      const l = labels[p];
      sums[3 * l] += rgb[3 * p];
      sums[3 * l + 1] += rgb[3 * p + 1];
      sums[3 * l + 2] += rgb[3 * p + 2];
      if (x + 1 < width && labels[p + 1] !== l) {
        perimeter[l]++;
        perimeter[labels[p + 1]]++;
      }
      if (y + 1 < height && labels[p + width] !== l) {
        perimeter[l]++;
        perimeter[labels[p + width]]++;
      }
    }
  }
  const mean = new Float64Array(3 * regionCount);
  const band = new Uint8Array(regionCount);
  let anyBand = false;
  for (let r = 0; r < regionCount; r++) {
    const a = Math.max(1, regions.area[r]);
    mean[3 * r] = sums[3 * r] / a;
    mean[3 * r + 1] = sums[3 * r + 1] / a;
    mean[3 * r + 2] = sums[3 * r + 2] / a;
    if (!transparent[r] && perimeter[r] > 0 && (2 * regions.area[r]) / perimeter[r] <= BAND_WIDTH) {
      band[r] = 1;
      anyBand = true;
    }
  }
  if (!anyBand) return regions;
  const stripInto = joinStrips(image, labels, regionCount, band, regions.area);

  // Decisions read the labels as the merging left them; they are applied afterwards, so no band
  // pixel's choice depends on another's (or on the order of the scan).
  const moved: number[] = [];
  const candidates = new Int32Array(MAX_CANDIDATES);
  for (let y = 0, p = 0; y < height; y++) {
    for (let x = 0; x < width; x++, p++) {
      if (!band[labels[p]]) continue;
      let found = 0;
      for (let dy = -REACH; dy <= REACH; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (let dx = -REACH; dx <= REACH; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= width) continue;
          const l = labels[yy * width + xx];
          if (band[l] || transparent[l]) continue;
          let seen = false;
          for (let k = 0; k < found; k++) if (candidates[k] === l) seen = true;
          if (!seen && found < MAX_CANDIDATES) candidates[found++] = l;
        }
      }
      if (found < 2) continue;
      const r = rgb[3 * p],
        g = rgb[3 * p + 1],
        b = rgb[3 * p + 2];
      // the pair whose line passes nearest the pixel's colour, relative to their contrast
      let best = -1,
        bestOff = Infinity;
      for (let i = 0; i < found; i++) {
        const A = 3 * candidates[i];
        for (let j = i + 1; j < found; j++) {
          const C = 3 * candidates[j];
          const dr = mean[A] - mean[C],
            dg = mean[A + 1] - mean[C + 1],
            db = mean[A + 2] - mean[C + 2];
          const contrast2 = dr * dr + dg * dg + db * db;
          if (contrast2 < MIN_CONTRAST * MIN_CONTRAST) continue;
          const pr = r - mean[C],
            pg = g - mean[C + 1],
            pb = b - mean[C + 2];
          const alpha = (pr * dr + pg * dg + pb * db) / contrast2;
          if (alpha < 0 || alpha > 1) continue;
          const er = pr - alpha * dr,
            eg = pg - alpha * dg,
            eb = pb - alpha * db;
          const off = (er * er + eg * eg + eb * eb) / contrast2;
          if (off > OFF_LINE_SHARE * OFF_LINE_SHARE || off >= bestOff) continue;
          bestOff = off;
          best = alpha >= 0.5 ? candidates[i] : candidates[j];
        }
      }
      if (best >= 0) moved.push(p, best);
    }
  }
  if (moved.length === 0 && stripInto === null) return regions;
  for (let k = 0; k < moved.length; k += 2) labels[moved[k]] = moved[k + 1];

  // regions emptied by the move disappear
  return renumberInScanOrder(labels, regionCount, transparent, stripInto);
}

/**
 * Two bands side by side along a horizontal or vertical run are no edge's anti-aliasing: across a
 * straight axis-aligned edge only one pixel is a mix. They are a thin strip of its own colour (an
 * artist's one-pixel highlight or shade line inside an outline, drawn off the pixel grid so it
 * covers parts of two pixel rows or columns), and its pixels are a mix of the strip and each side. Joined
 * into one region (the lower id) and no longer bands; null when there is none.
 */
function joinStrips(image: BandImage, labels: Int32Array, regionCount: number, band: Uint8Array, area: Int32Array): Int32Array | null {
  const { width, height, rgb } = image;
  const beside = new Map<number, number>();
  const note = (a: number, b: number) => {
    const key = a < b ? a * regionCount + b : b * regionCount + a;
    beside.set(key, (beside.get(key) ?? 0) + 1);
  };
  for (let y = 1; y + 1 < height; y++) {
    for (let x = 1, p = y * width + 1; x + 1 < width; x++, p++) {
      const l = labels[p];
      if (!band[l]) continue;
      // a vertical run: this pixel and its right neighbour each continue their band up and down,
      // and step from the fill on the left to the fill on the right
      const r = labels[p + 1];
      if (
        r !== l &&
        band[r] &&
        x + 2 < width &&
        labels[p - width] === l &&
        labels[p + width] === l &&
        labels[p + 1 - width] === r &&
        labels[p + 1 + width] === r &&
        !band[labels[p - 1]] &&
        !band[labels[p + 2]] &&
        mixesInOrder(rgb, p - 1, p, p + 1, p + 2)
      )
        note(l, r);
      const d = labels[p + width];
      if (
        d !== l &&
        band[d] &&
        y + 2 < height &&
        labels[p - 1] === l &&
        labels[p + 1] === l &&
        labels[p + width - 1] === d &&
        labels[p + width + 1] === d &&
        !band[labels[p - width]] &&
        !band[labels[p + 2 * width]] &&
        mixesInOrder(rgb, p - width, p, p + width, p + 2 * width)
      )
        note(l, d);
    }
  }
  let into: Int32Array | null = null;
  for (const [key, run] of beside) {
    const a = Math.floor(key / regionCount),
      b = key % regionCount;
    if (run < MIN_STRIP_RUN || run < STRIP_SHARE * Math.min(area[a], area[b])) continue;
    into ??= Int32Array.from({ length: regionCount }, (_, r) => r);
    const ra = rootOf(into, a),
      rb = rootOf(into, b);
    if (ra !== rb) into[Math.max(ra, rb)] = Math.min(ra, rb);
  }
  if (into === null) return null;
  for (let r = 0; r < regionCount; r++) {
    const root = rootOf(into, r);
    into[r] = root;
    if (root !== r) band[r] = band[root] = 0;
  }
  return into;
}

/**
 * Whether pixels p and q lie on the colour line from pixel a to pixel b, p nearer a than q is: what
 * a strip's two pixels are between its two sides (two thin lines of their own colours, a dark one
 * beside a white one, are not).
 */
function mixesInOrder(rgb: Uint8Array, a: number, p: number, q: number, b: number): boolean {
  const dr = rgb[3 * b] - rgb[3 * a],
    dg = rgb[3 * b + 1] - rgb[3 * a + 1],
    db = rgb[3 * b + 2] - rgb[3 * a + 2];
  const contrast2 = dr * dr + dg * dg + db * db;
  if (contrast2 < MIN_CONTRAST * MIN_CONTRAST) return false;
  const along = (c: number): number => {
    const pr = rgb[3 * c] - rgb[3 * a],
      pg = rgb[3 * c + 1] - rgb[3 * a + 1],
      pb = rgb[3 * c + 2] - rgb[3 * a + 2];
    const t = (pr * dr + pg * dg + pb * db) / contrast2;
    const er = pr - t * dr,
      eg = pg - t * dg,
      eb = pb - t * db;
    return (er * er + eg * eg + eb * eb) / contrast2 <= OFF_LINE_SHARE * OFF_LINE_SHARE ? t : NaN;
  };
  const tp = along(p),
    tq = along(q);
  return tp > 0 && tp < tq && tq < 1;
}

function rootOf(into: Int32Array, r: number): number {
  while (into[r] !== r) r = into[r];
  return r;
}
