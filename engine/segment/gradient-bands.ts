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
 *
 * Joins in different connected components of the soft boundaries (regions as nodes) never meet:
 * a join unites two groups of one component, and whatever judges a join (the groups, their
 * moments and fits, the neighbours a sample is tested against, the refused pairs) compares only
 * against groups of that component. So the components are joined one at a time, each in the order
 * of the one sorted list of soft boundaries, in any order and on any thread
 * (engine/parallel/gradient-joins.ts shares them with a worker), with the same outcome.
 */
import type { RasterImage } from '../types.js';
import { gradientSampleStep, paintResidual } from '../fit/gradient.js';
import { withImageInKernel } from '../wasm/gradient-fit.js';
import { scratchInt32, scratchSlots, scratchUint8, SparePool } from '../scratch.js';
import { addShifted, MOMENTS, surfaceResidual } from './colour-moments.js';
import { measureMomentsInKernel } from '../wasm/moments.js';
import { boundaryStepsInKernel, type BoundarySteps } from '../wasm/boundary-steps.js';
import { renumberInScanOrder, runEnd, type RegionLabels } from './renumber.js';
import { findRoot } from '../union-find.js';

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

/** Empty arrays a state object holds between traces (it keeps no trace's arrays alive). */
const NO_INTS = new Int32Array(0);
const NO_FLAGS = new Uint8Array(0);
/** Regions smaller than this are left to the other stages: a gradient fit needs samples. */
const MIN_REGION = 16;
/** Per region on a soft boundary: the moments of its clean pixels, then of its edge pixels, about its reference pixel. */
export const MOMENT_BLOCK = 2 * MOMENTS;
/**
 * The pixel lists of the regions being joined, kept for the next trace on this thread: fresh
 * pages for four bytes a pixel cost more than listing them.
 */
const sparePixelLists = new SparePool((bytes) => new Int32Array(bytes / 4), 1, 64 << 20);
/** The pixels of the group being judged (read only inside its paintResidual call). */
const JOIN = scratchSlots('gradient bands', Int32Array, ['sample']);
/** Which pixels of the joined regions lie on a hard edge (valid for one trace's joining). */
const MOMENT_EDGES = scratchSlots('gradient bands', Uint8Array, ['edgePixel']);

/** The soft boundaries to judge, by component (see the top of this file). */
export interface JoinPlan {
  /** The soft pairs' regions, component by component, each component's in the order they are judged. */
  pairA: Int32Array;
  pairB: Int32Array;
  /** Component c's pairs are pairA/pairB[componentStart[c] .. componentStart[c + 1]). */
  componentStart: Int32Array;
  /**
   * The components, most pairs first: the order in which threads take them. A component's time is
   * nearly all its gradient fits, at most one per pair: on each public clip-art image the component
   * with most pairs took longest (0.2–27 ms), the one with most pixels not always (logo's, 76 000
   * pixels, took 0.03 ms).
   */
  order: Int32Array;
  /** Pixels per component (the moments pass reads each once). */
  componentPixels: Float64Array;
  /** 1 for a region on a soft boundary. */
  involved: Uint8Array;
  /** Region r's pixels (regions on a soft boundary only) lie at [first[r], first[r + 1]) of the pixel lists. */
  first: Int32Array;
  /** Regions on a soft boundary, and their pixels: in all, and in the component with most. */
  involvedRegions: number;
  involvedPixels: number;
  largestPixels: number;
}

/**
 * The colour moments (./colour-moments.ts) of every region on a soft boundary, per group as groups
 * join, in arrays a worker can share (numberSlots and measureMoments fill them, momentsOf reads them).
 */
export interface MomentTables {
  /** Each region's block of sums, -1 for a region on no soft boundary. */
  slot: Int32Array;
  /** Per block: the reference pixel its sums are taken about. */
  refX: Int32Array;
  refY: Int32Array;
  /** MOMENT_BLOCK sums per block. */
  sums: Float64Array;
  /** 1 for a pixel of an involved region beside a pixel of another region that steps hard (other pixels: anything). */
  edgePixel: Uint8Array;
}

/** Joins soft-bounded regions (labels in place) and returns the regions renumbered in scan order. Everything on this thread. */
export function joinGradientBands(
  image: RasterImage,
  regions: RegionLabels,
  settings: GradientBandSettings,
  plan = planGradientJoins(image, regions, settings),
): RegionLabels {
  if (plan === null) return regions;
  const { regionCount } = regions;
  const slots = plan.involvedRegions;
  const tables: MomentTables = {
    slot: new Int32Array(regionCount),
    refX: new Int32Array(slots),
    refY: new Int32Array(slots),
    sums: new Float64Array(slots * MOMENT_BLOCK),
    edgePixel: scratchUint8(MOMENT_EDGES.edgePixel, image.width * image.height),
  };
  numberSlots(plan.involved, tables.slot);
  measureMoments(image, regions, settings.hardStep, tables);
  // listed when a join first needs them (on a drawing whose joins the moments settle, never)
  let listed: Int32Array | null = null;
  const pixelList = (): Int32Array => (listed ??= listPixels(regions, plan, sparePixelLists.take(4 * plan.involvedPixels)));
  const joinedInto = identityMap(regionCount);
  let next = 0;
  const components = plan.order.length;
  joinComponents(image, regions, settings, plan, tables, pixelList, joinedInto, () => (next < components ? plan.order[next++] : -1));
  if (listed !== null) sparePixelLists.giveBack(listed);
  return renumberJoined(regions, joinedInto);
}

/** Every region its own group. */
export function identityMap(regionCount: number, into = new Int32Array(regionCount)): Int32Array {
  for (let r = 0; r < regionCount; r++) into[r] = r;
  return into;
}

/** The regions renumbered in scan order after the joins in `joinedInto` (unchanged when there are none). */
export function renumberJoined(regions: RegionLabels, joinedInto: Int32Array): RegionLabels {
  for (let r = 0; r < regions.regionCount; r++) {
    if (joinedInto[r] !== r)
      return renumberInScanOrder(regions.labels, regions.regionCount, regions.transparent, joinedInto, regions.colourSums);
  }
  return regions;
}

/** The soft boundaries, sorted and grouped by component; null when there is none. */
export function planGradientJoins(image: RasterImage, regions: RegionLabels, settings: GradientBandSettings): JoinPlan | null {
  const { regionCount, area } = regions;
  const steps = boundarySteps(image, regions, settings.hardStep);
  const soft: Array<{ a: number; b: number; larger: number }> = [];
  for (let i = 0; i < steps.count; i++) {
    const a = steps.a[i],
      b = steps.b[i],
      count = steps.pixelPairs[i];
    if (steps.sum[i] / count <= settings.maxStep && steps.hard[i] <= settings.maxHardShare * count) {
      soft.push({ a, b, larger: Math.max(area[a], area[b]) });
    }
  }
  if (soft.length === 0) return null;
  // Largest regions first: a ramp grows outwards from its biggest piece, whose gradient already
  // holds the ramp's direction or centre, instead of from two thin bands that fit no ramp alone.
  // Specks last, once the bands around them are joined. Ties in the order of the pair (a < b), so
  // the order does not depend on the table's layout.
  const speckPair = (pair: { a: number; b: number }) => (Math.min(area[pair.a], area[pair.b]) < MIN_REGION ? 1 : 0);
  soft.sort((s, t) => speckPair(s) - speckPair(t) || t.larger - s.larger || s.a - t.a || s.b - t.b);

  // the components: regions linked by soft pairs, numbered in the order of their first pair
  const linked = identityMap(regionCount);
  for (const { a, b } of soft) linked[findRoot(linked, a)] = findRoot(linked, b);
  const componentOfRoot = new Int32Array(regionCount).fill(-1);
  const componentOf = new Int32Array(soft.length);
  let components = 0;
  for (let i = 0; i < soft.length; i++) {
    const r = findRoot(linked, soft[i].a);
    if (componentOfRoot[r] < 0) componentOfRoot[r] = components++;
    componentOf[i] = componentOfRoot[r];
  }
  // the pairs by component, each component's in the sorted order (a stable counting sort)
  const componentStart = new Int32Array(components + 1);
  for (let i = 0; i < soft.length; i++) componentStart[componentOf[i] + 1]++;
  for (let c = 0; c < components; c++) componentStart[c + 1] += componentStart[c];
  const at = componentStart.slice(0, components);
  const pairA = new Int32Array(soft.length),
    pairB = new Int32Array(soft.length);
  const involved = new Uint8Array(regionCount);
  const componentPixels = new Float64Array(components);
  let involvedRegions = 0,
    involvedPixels = 0;
  for (let i = 0; i < soft.length; i++) {
    const c = componentOf[i];
    pairA[at[c]] = soft[i].a;
    pairB[at[c]++] = soft[i].b;
    for (const r of [soft[i].a, soft[i].b]) {
      if (involved[r]) continue;
      involved[r] = 1;
      involvedRegions++;
      involvedPixels += area[r];
      componentPixels[c] += area[r];
    }
  }
  const order = new Int32Array(components);
  for (let c = 0; c < components; c++) order[c] = c;
  const pairs = (c: number) => componentStart[c + 1] - componentStart[c];
  order.sort((c, d) => pairs(d) - pairs(c) || componentPixels[d] - componentPixels[c] || c - d);
  const first = new Int32Array(regionCount + 1);
  for (let r = 0; r < regionCount; r++) first[r + 1] = first[r] + (involved[r] ? area[r] : 0);
  return {
    pairA,
    pairB,
    componentStart,
    order,
    involved,
    first,
    involvedRegions,
    involvedPixels,
    componentPixels,
    largestPixels: componentPixels.reduce((most, pixels) => Math.max(most, pixels), 0),
  };
}

/** The pixels of every region on a soft boundary (no other region is ever sampled), in scan order, by counting sort. */
export function listPixels(regions: RegionLabels, plan: JoinPlan, pixels: Int32Array): Int32Array {
  const { labels, regionCount } = regions;
  const { involved, first } = plan;
  const n = labels.length;
  const next = first.slice(0, regionCount);
  // one look-up per run of a label
  for (let p = 0; p < n;) {
    const l = labels[p];
    const end = runEnd(labels, p);
    if (involved[l]) {
      let at = next[l];
      for (let q = p; q < end; q++) pixels[at++] = q;
      next[l] = at;
    }
    p = end;
  }
  return pixels;
}

/**
 * Joins the components `take` hands out (-1 once none is left) and
 * writes, for every region of each, the group it ends in to `joinedInto` (region ids; the others
 * are left alone). The moment tables' blocks of those regions change as groups join.
 */
export function joinComponents(...join: Parameters<typeof joinHeldComponents>): void {
  // the joins' fits take their samples from the image held in the fit kernel (engine/wasm/gradient-fit.ts)
  withImageInKernel(join[0], () => joinHeldComponents(...join));
}

function joinHeldComponents(
  image: RasterImage,
  regions: RegionLabels,
  settings: GradientBandSettings,
  plan: JoinPlan,
  tables: MomentTables,
  pixelList: () => Int32Array,
  joinedInto: Int32Array,
  take: () => number,
): void {
  const { labels, regionCount, area } = regions;
  const { pairA, pairB, componentStart, first } = plan;
  const n = image.width * image.height;
  const moments = momentsOf(tables);
  const edgePixel = tables.edgePixel;

  // This thread's groups. A region of a component another thread joins stays its own group here,
  // which no group of this thread's components is, as it is not in that thread either.
  const parent = identityMap(regionCount);
  const members: number[][] = Array.from({ length: regionCount }, (_, r) => [r]);
  const size = Float64Array.from(area);
  const { width } = image;
  const channels = image.channels ?? 4;
  const paintOf = (group: number[], total: number, a: number, b: number, bound = Infinity): number => {
    // the group's pixels thinned as one region of `total` pixels would be (at most MAX_SAMPLES)
    const step = gradientSampleStep(total);
    const sample = scratchInt32(JOIN.sample, Math.ceil(total / step));
    const taking = groupSampling;
    taking.width = image.width;
    taking.n = n;
    taking.data = image.data;
    taking.channels = channels;
    taking.hard2 = settings.hardStep * settings.hardStep;
    taking.labels = labels;
    taking.parent = parent;
    taking.edgePixel = edgePixel;
    taking.pixels = pixelList();
    taking.first = first;
    taking.sample = sample;
    let k = takeGroupSamples(taking, group, step, a, b, true);
    // the pixels across an edge are left out unless that leaves too few to judge by (a thin region is all outline)
    if (k < MIN_REGION) k = takeGroupSamples(taking, group, step, a, b, false);
    // the trace's arrays are not kept alive by the state
    taking.data = NO_FLAGS;
    taking.labels = taking.parent = taking.pixels = taking.first = taking.sample = NO_INTS;
    taking.edgePixel = NO_FLAGS;
    return paintResidual(image, sample.subarray(0, k), { maxResidual: settings.maxResidual }, bound);
  };
  // Each group's residual twice: from its moments (always known), and from the gradient fill that
  // paints it (fitted only when a join needs it; NaN until then and again once the group grows).
  const smooth = new Float64Array(regionCount).fill(NaN);
  const painted = new Float64Array(regionCount).fill(NaN);
  const smoothResidual = (r: number): number => {
    if (Number.isNaN(smooth[r])) smooth[r] = moments.residual(r);
    return smooth[r];
  };
  const paintedResidual = (r: number): number => {
    if (Number.isNaN(painted[r])) painted[r] = paintOf(members[r], size[r], r, r);
    return painted[r];
  };
  const passes = (before: number, after: number): boolean => after <= before + settings.residualSlack && after <= settings.maxResidual;
  /**
   * passes() against the two groups' own fits (`after` at most maxResidual), fitting them only as
   * far as the answer needs: a residual is never negative and rounding is monotonic, so when
   * `after` is within the slack, or one group's share of the mean already passes it, the full
   * mean passes too and the other fit is never made (half the groups' own fits on gallardo and logo).
   */
  const passesOwnFits = (a: number, b: number, total: number, after: number): boolean => {
    if (after <= settings.residualSlack) return true;
    // the group whose fit is known first, else the larger (a)
    const one = Number.isNaN(painted[a]) && !Number.isNaN(painted[b]) ? b : a;
    if (passes((size[one] * paintedResidual(one)) / total, after)) return true;
    return passes((size[a] * paintedResidual(a) + size[b] * paintedResidual(b)) / total, after);
  };

  const enclosedBy = (speck: number, group: number): boolean => {
    const inGroup = (q: number) => labels[q] === speck || findRoot(parent, labels[q]) === group;
    const pixels = pixelList();
    for (let i = first[speck]; i < first[speck + 1]; i++) {
      const p = pixels[i];
      const x = p % width;
      if (
        (x > 0 && !inGroup(p - 1)) ||
        (x + 1 < width && !inGroup(p + 1)) ||
        (p >= width && !inGroup(p - width)) ||
        (p + width < n && !inGroup(p + width))
      )
        return false;
    }
    return true;
  };

  // Two groups refused once are refused again until one of them grows (several boundary pairs
  // can lead to the same two groups): judged by their total size when refused.
  const refused = new Map<number, number>();
  for (let component = take(); component >= 0; component = take()) {
    const start = componentStart[component],
      end = componentStart[component + 1];
    for (let i = start; i < end; i++) {
      const pairSpeck = area[pairA[i]] < MIN_REGION || area[pairB[i]] < MIN_REGION;
      let a = findRoot(parent, pairA[i]),
        b = findRoot(parent, pairB[i]);
      if (a === b) continue;
      // A speck goes only into the one group all round it (a fleck inside a smooth ramp); one on an
      // edge may be a detail drawn along it (clean.cjs: calculator's 4x PSNR 0.15 dB lower).
      if (pairSpeck && !enclosedBy(area[pairA[i]] < MIN_REGION ? pairA[i] : pairB[i], area[pairA[i]] < MIN_REGION ? b : a)) continue;
      const total = size[a] + size[b];
      const groups = a < b ? a * regionCount + b : b * regionCount + a;
      if (refused.get(groups) === total) continue;
      // the larger keeps its id; equal sizes keep the lower (determinism)
      if (size[b] > size[a] || (size[b] === size[a] && b < a)) [a, b] = [b, a];
      // One smooth surface through both (moments: no pass over the pixels) passes most joins. The
      // rest are judged by the fill that will paint them, which follows what a cubic cannot: the
      // tip of a cone (a radial ramp linear in the distance), a ramp whose profile kinks.
      const smoothAfter = moments.joinedResidual(a, b);
      let paintedAfter = NaN;
      if (!passes((size[a] * smoothResidual(a) + size[b] * smoothResidual(b)) / total, smoothAfter)) {
        // The two together first: two thirds of the joins the fill refuses end above maxResidual,
        // which needs neither group's own fit (a group's fit is the same whenever it is made: it
        // reads only the group's pixels and which of their neighbours lie outside it). Its
        // residual only has to be exact up to the most a join may reach: the bound passes() sets
        // where both groups' own fits are known, else maxResidual.
        const known = !Number.isNaN(painted[a]) && !Number.isNaN(painted[b]);
        const bound = known
          ? Math.min(settings.maxResidual, (size[a] * painted[a] + size[b] * painted[b]) / total + settings.residualSlack)
          : settings.maxResidual;
        paintedAfter = paintOf(members[a].concat(members[b]), total, a, b, bound);
        if (!(paintedAfter <= settings.maxResidual) || !passesOwnFits(a, b, total, paintedAfter)) {
          refused.set(groups, total);
          continue;
        }
      }
      moments.join(a, b);
      parent[b] = a;
      members[a] = members[a].concat(members[b]);
      members[b] = [];
      size[a] = total;
      smooth[a] = smoothAfter;
      painted[a] = paintedAfter;
    }
    for (let i = start; i < end; i++) {
      joinedInto[pairA[i]] = findRoot(parent, pairA[i]);
      joinedInto[pairB[i]] = findRoot(parent, pairB[i]);
    }
  }
}

/** Whether the colours of pixels p and q lie further apart than √hard2. */
function stepsHard(data: Uint8Array, channels: number, hard2: number, p: number, q: number): boolean {
  const dr = data[channels * p] - data[channels * q],
    dg = data[channels * p + 1] - data[channels * q + 1],
    db = data[channels * p + 2] - data[channels * q + 2];
  return dr * dr + dg * dg + db * db > hard2;
}

/**
 * What takeGroupSamples reads, one object for every trace on this thread, and the sampling a
 * module function rather than closures made per fit: the closures' optimised code was lost between
 * traces of clip art with photos traced in between (no deoptimisation, the code simply gone), and
 * the first clip-art trace after them compiled them again while running them unoptimised.
 */
interface GroupSampling {
  width: number;
  n: number;
  data: Uint8Array;
  channels: number;
  hard2: number;
  labels: Int32Array;
  parent: Int32Array;
  edgePixel: Uint8Array;
  pixels: Int32Array;
  first: Int32Array;
  sample: Int32Array;
}
const groupSampling: GroupSampling = {
  width: 0,
  n: 0,
  data: NO_FLAGS,
  channels: 4,
  // a double from the start, as a fractional hard step would make it
  hard2: 0.5,
  labels: NO_INTS,
  parent: NO_INTS,
  edgePixel: NO_FLAGS,
  pixels: NO_INTS,
  first: NO_INTS,
  sample: NO_INTS,
};

/**
 * A pixel of the group beside a pixel outside it (neither group a nor b) that steps hard is a mix
 * of the two colours (anti-aliasing), which no ramp of the group's own colours paints.
 */
function acrossEdge(t: GroupSampling, p: number, q: number, a: number, b: number): boolean {
  const { labels } = t;
  // a pixel of the same region is in the group (most neighbours): no find needed
  if (labels[q] === labels[p]) return false;
  const g = findRoot(t.parent, labels[q]);
  return g !== a && g !== b && stepsHard(t.data, t.channels, t.hard2, p, q);
}

/**
 * One pixel every `step` along the group's members' pixels end to end (each member's list read by
 * stride) into t.sample; with skipEdges, leaving out those across an edge (acrossEdge). Returns how many.
 */
function takeGroupSamples(t: GroupSampling, group: number[], step: number, a: number, b: number, skipEdges: boolean): number {
  const { width, n, edgePixel, pixels, first, sample } = t;
  let k = 0,
    at = 0;
  for (const r of group) {
    let i = first[r] + at;
    for (; i < first[r + 1]; i += step) {
      const p = pixels[i];
      // only a pixel that steps hard to another region can step hard to one outside the group
      if (skipEdges && edgePixel[p] === 1) {
        const x = p % width;
        if (
          (x > 0 && acrossEdge(t, p, p - 1, a, b)) ||
          (x + 1 < width && acrossEdge(t, p, p + 1, a, b)) ||
          (p >= width && acrossEdge(t, p, p - width, a, b)) ||
          (p + width < n && acrossEdge(t, p, p + width, a, b))
        )
          continue;
      }
      sample[k++] = p;
    }
    at = i - first[r + 1];
  }
  return k;
}

/**
 * Numbers the blocks of the regions on a soft boundary (`slot`, one number per region, -1 for the
 * others) and returns how many there are.
 */
export function numberSlots(involved: Uint8Array, slot: Int32Array): number {
  let slots = 0;
  for (let r = 0; r < involved.length; r++) slot[r] = involved[r] ? slots++ : -1;
  return slots;
}

/**
 * One share of the moments pass (engine/parallel/gradient-joins.ts): the regions `shareOf` gives
 * `share`, their pixels listed on the way.
 */
export interface MomentShare {
  shareOf: Int32Array;
  share: number;
  /** The pixel lists (plan.first's layout), this share's regions written. */
  pixels: Int32Array;
  first: Int32Array;
}

/**
 * Fills `tables` with the colour moments (./colour-moments.ts) of every region on a soft boundary
 * (the numbered slots; with a `part`, only those of its share): how well one smooth fill paints a
 * group, and would paint two groups together, in a few hundred operations whatever their size.
 * The tables' arrays are sized by the caller (refX, refY: per slot; sums: MOMENT_BLOCK per slot;
 * edgePixel: a byte per pixel), their contents anything. A region's sums are added in scan order
 * whichever share it is in, so they are the same numbers.
 *
 * A pixel beside a pixel of another region that steps hard is a mix of the two colours
 * (anti-aliasing), which no ramp of the region's own colours paints: its moments are kept apart
 * and count only where a group has fewer than MIN_REGION other pixels (a thin region is all outline).
 */
export function measureMoments(
  image: RasterImage,
  regions: RegionLabels,
  hardStep: number,
  tables: MomentTables,
  part: MomentShare | null = null,
): void {
  const { slot } = tables;
  // a slot of another share is -1 here
  const mine = part === null ? slot : slot.map((s, r) => (part.shareOf[r] === part.share ? s : -1));
  // In WebAssembly (engine/wasm/assembly/moments.ts): the same sums in the same order, in 0.6–0.7
  // of the time V8 made of this pass in TypeScript (docs/performance.md, round 22).
  measureMomentsInKernel({
    width: image.width,
    height: image.height,
    data: image.data,
    channels: image.channels ?? 4,
    labels: regions.labels,
    regionCount: regions.regionCount,
    mine,
    hardStep,
    sums: tables.sums,
    refX: tables.refX,
    refY: tables.refY,
    edgePixel: tables.edgePixel,
    lists: part === null ? null : { pixels: part.pixels, first: part.first },
  });
}

/** Reads and joins the groups' moments in `tables` (filled by measureMoments). */
function momentsOf(tables: MomentTables) {
  const { slot, sums, refX, refY } = tables;
  const pair = new Float64Array(MOMENT_BLOCK),
    all = new Float64Array(MOMENTS);
  const residualOf = (block: Float64Array, at: number): number => {
    if (block[at] >= MIN_REGION) return surfaceResidual(block, at, MIN_REGION);
    for (let k = 0; k < MOMENTS; k++) all[k] = block[at + k] + block[at + MOMENTS + k];
    return surfaceResidual(all, 0, MIN_REGION);
  };
  /** Adds group b's moments, shifted to group a's reference pixel, into `target` at `at`. */
  const addGroup = (target: Float64Array, at: number, a: number, b: number): void => {
    const sa = slot[a],
      sb = slot[b];
    const dx = refX[sb] - refX[sa],
      dy = refY[sb] - refY[sa];
    addShifted(target, at, sums, sb * MOMENT_BLOCK, dx, dy);
    addShifted(target, at + MOMENTS, sums, sb * MOMENT_BLOCK + MOMENTS, dx, dy);
  };
  return {
    residual: (r: number): number => residualOf(sums, slot[r] * MOMENT_BLOCK),
    /** The residual of groups a and b painted as one. */
    joinedResidual(a: number, b: number): number {
      pair.set(sums.subarray(slot[a] * MOMENT_BLOCK, slot[a] * MOMENT_BLOCK + MOMENT_BLOCK));
      addGroup(pair, 0, a, b);
      return residualOf(pair, 0);
    },
    /** Group b joins group a (a keeps its reference pixel). */
    join: (a: number, b: number): void => addGroup(sums, slot[a] * MOMENT_BLOCK, a, b),
  };
}

/**
 * The steps across the boundary of every pair of painted regions of at least MIN_REGION pixels
 * that are 4-neighbours somewhere: per pair (a < b), the summed RGB distance of the pixel pairs
 * facing each other across it, how many there are, and how many step further than `hardStep`.
 * In WebAssembly (engine/wasm/assembly/boundary-steps.ts): each pair's sum added up in scan order,
 * so the same numbers the TypeScript pass made, wherever the pair sits in its table.
 */
function boundarySteps(image: RasterImage, regions: RegionLabels, hardStep: number): BoundarySteps {
  return boundaryStepsInKernel(
    image.width,
    image.height,
    image.data,
    image.channels ?? 4,
    regions.labels,
    regions.area,
    regions.transparent,
    hardStep,
  );
}
