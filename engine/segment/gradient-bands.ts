/**
 * Gradient bands back into one shape.
 *
 * The merging models a region's colour as a plane, so a curved ramp (a radial highlight, a soft
 * shadow) stops merging part-way and is left as rings of bands: each band a shape of its own,
 * every boundary between them a chain to fit, and the picture banded where the original is smooth.
 * Two neighbouring regions whose shared boundary is soft (the colour steps across it no more than
 * it steps inside a ramp) are joined when one gradient fill (engine/fit/gradient.ts: linear or
 * radial) paints the two together about as well as each is painted alone. The softest boundaries
 * go first; a join is judged on everything already joined on either side.
 *
 * A hard edge, even a faint one, steps across in one pixel: its step is its whole contrast, which
 * no ramp of a few levels a pixel reaches, and a flat fill on each side paints it better than any
 * ramp across it, so it stays.
 */
import { gradientSampleStep, paintResidual } from '../fit/gradient.js';
import type { RasterImage } from '../types.js';

export interface GradientBandSettings {
  /** Mean RGB distance between the pixels facing each other across a boundary, at most, for it to be soft. */
  maxStep: number;
  /** Share of those pixel pairs that may step further than `hardStep` (a soft boundary may graze an edge). */
  maxHardShare: number;
  hardStep: number;
  /**
   * A join may raise the mean per-pixel residual of the paint (over both regions) by at most this
   * (RGB distance): about what 8-bit rounding and a 24-bin profile leave on a clean ramp.
   */
  residualSlack: number;
  /** …and never above this. */
  maxResidual: number;
}

interface BandSegmentation {
  labels: Int32Array;
  regionCount: number;
  area: Int32Array;
  transparent: Uint8Array;
}

/** Regions smaller than this are left to the other stages: a gradient fit needs samples. */
const MIN_REGION = 16;

/** Joins soft-bounded regions (labels in place) and returns the regions renumbered in scan order. */
export function joinGradientBands(image: RasterImage, regions: BandSegmentation, settings: GradientBandSettings): BandSegmentation {
  const { width, height, data } = image;
  const channels = image.channels ?? 4;
  const { labels, regionCount, area, transparent } = regions;
  const n = width * height;

  // Steps across every boundary between two painted regions, per pair of regions.
  const pairs = new Map<number, { sum: number; count: number; hard: number }>();
  const hard2 = settings.hardStep * settings.hardStep;
  const facing = (p: number, q: number): void => {
    const a = labels[p],
      b = labels[q];
    if (a === b || transparent[a] || transparent[b] || area[a] < MIN_REGION || area[b] < MIN_REGION) return;
    const key = a < b ? a * regionCount + b : b * regionCount + a;
    const dr = data[channels * p] - data[channels * q],
      dg = data[channels * p + 1] - data[channels * q + 1],
      db = data[channels * p + 2] - data[channels * q + 2];
    const d2 = dr * dr + dg * dg + db * db;
    let pair = pairs.get(key);
    if (!pair) pairs.set(key, (pair = { sum: 0, count: 0, hard: 0 }));
    pair.sum += Math.sqrt(d2);
    pair.count++;
    if (d2 > hard2) pair.hard++;
  };
  for (let y = 0, p = 0; y < height; y++) {
    for (let x = 0; x < width; x++, p++) {
      if (x + 1 < width) facing(p, p + 1);
      if (y + 1 < height) facing(p, p + width);
    }
  }
  const soft: Array<{ key: number; larger: number }> = [];
  for (const [key, pair] of pairs) {
    const step = pair.sum / pair.count;
    const a = Math.floor(key / regionCount),
      b = key % regionCount;
    if (step <= settings.maxStep && pair.hard <= settings.maxHardShare * pair.count) soft.push({ key, larger: Math.max(area[a], area[b]) });
  }
  if (soft.length === 0) return regions;
  // Largest regions first: a ramp grows outwards from its biggest piece, whose gradient already
  // holds the ramp's direction or centre, instead of from two thin bands that fit no ramp alone.
  soft.sort((s, t) => t.larger - s.larger || s.key - t.key);

  // Each region's pixels, in scan order, by counting sort.
  const first = new Int32Array(regionCount + 1);
  for (let p = 0; p < n; p++) first[labels[p] + 1]++;
  for (let r = 0; r < regionCount; r++) first[r + 1] += first[r];
  const pixels = new Int32Array(n);
  const next = first.slice(0, regionCount);
  for (let p = 0; p < n; p++) pixels[next[labels[p]]++] = p;

  const parent = new Int32Array(regionCount);
  for (let r = 0; r < regionCount; r++) parent[r] = r;
  const find = (r: number): number => {
    while (parent[r] !== r) r = parent[r] = parent[parent[r]];
    return r;
  };
  const members: number[][] = Array.from({ length: regionCount }, (_, r) => [r]);
  const size = Float64Array.from(area);
  const residual = new Float64Array(regionCount).fill(NaN);
  const paintOf = (group: number[], total: number): number => {
    // the group's pixels thinned as one region of `total` pixels would be (at most MAX_SAMPLES)
    const step = gradientSampleStep(total);
    const sample = new Int32Array(Math.ceil(total / step));
    // one pixel every `step` along the members' pixels end to end (each member's list read by stride)
    let k = 0,
      at = 0;
    for (const r of group) {
      let i = first[r] + at;
      for (; i < first[r + 1]; i += step) sample[k++] = pixels[i];
      at = i - first[r + 1];
    }
    return paintResidual(image, sample.subarray(0, k), { maxResidual: settings.maxResidual });
  };
  const ownResidual = (r: number): number => {
    if (Number.isNaN(residual[r])) residual[r] = paintOf(members[r], size[r]);
    return residual[r];
  };

  let joined = 0;
  // Two groups refused once are refused again until one of them grows (several boundary pairs
  // can lead to the same two groups): judged by their total size when refused.
  const refused = new Map<number, number>();
  for (const { key } of soft) {
    let a = find(Math.floor(key / regionCount)),
      b = find(key % regionCount);
    if (a === b) continue;
    const total = size[a] + size[b];
    const groups = a < b ? a * regionCount + b : b * regionCount + a;
    if (refused.get(groups) === total) continue;
    const before = (size[a] * ownResidual(a) + size[b] * ownResidual(b)) / total;
    // the larger keeps its id; equal sizes keep the lower (determinism)
    if (size[b] > size[a] || (size[b] === size[a] && b < a)) [a, b] = [b, a];
    const group = members[a].concat(members[b]);
    const after = paintOf(group, total);
    if (!(after <= before + settings.residualSlack && after <= settings.maxResidual)) {
      refused.set(groups, total);
      continue;
    }
    parent[b] = a;
    members[a] = group;
    members[b] = [];
    size[a] = total;
    residual[a] = after;
    joined++;
  }
  if (joined === 0) return regions;

  // Renumber in scan order of first appearance.
  const compact = new Int32Array(regionCount).fill(-1);
  const newArea = new Int32Array(regionCount);
  const clear = new Uint8Array(regionCount);
  let count = 0;
  for (let p = 0; p < n; p++) {
    const root = find(labels[p]);
    let l = compact[root];
    if (l < 0) {
      l = compact[root] = count++;
      clear[l] = transparent[root];
    }
    labels[p] = l;
    newArea[l]++;
  }
  return { labels, regionCount: count, area: newArea.slice(0, count), transparent: clear.slice(0, count) };
}
