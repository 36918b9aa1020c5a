/**
 * Sub-pixel edges: between the boundary graph (pixel cracks) and the fitter.
 *
 * An anti-aliased pixel is a mix of the colours on either side of the edge that crosses it, so its
 * colour tells how much of it each side covers. Along a crack between a pixel of region R (the
 * chain's right) and one of region L, take the pixels on the crack's normal, K on each side, and
 * each one's coverage by R: α = where its colour lies on the line from L's colour to R's (0 at L,
 * 1 at R). If the edge crosses the normal at distance e from the crack (towards L), the pixels'
 * coverages sum to K + e (each pixel covers min(1, max(0, e − its near side))), so
 *
 *     e = Σα − K.
 *
 * The crack's point becomes its midpoint moved e along the normal: the boundary lands where the
 * coverage crosses one half, between pixel centres, with sub-pixel precision (Lecot & Lévy's
 * Ardeco places its edges on the same principle). The segmentation gives each anti-aliased pixel to
 * the side it is closer to, so |e| ≤ ½ when the colours are a clean mix; e is clamped there.
 *
 * A chain along which no pixel is a mix (hard edges: pixel art, 1-bit drawings) keeps its exact
 * crack points, so it is fitted as before. Junctions and the image frame stay where they are (other
 * chains share them). The crack points stay on the chain (`cracks`) for the exact fallbacks.
 */
import type { BoundaryGraph } from './index.js';
import { regionColourSums } from '../segment/renumber.js';
import { crackShiftsInKernel } from '../wasm/crack-shifts.js';

interface SubpixelImage {
  width: number;
  height: number;
  /** RGB, 3 bytes per pixel (the colours the segmentation compared). */
  rgb: Uint8Array;
}

interface SubpixelSegmentation {
  labels: Int32Array;
  regionCount: number;
  transparent: Uint8Array;
  /** Σr, Σg, Σb per region when the segmentation kept them (with `area`, they spare a pass over the image). */
  colourSums?: Float64Array;
  area?: Int32Array;
  /** Line art: each pixel's ink coverage, 0..255 (see Segmentation.coverage). */
  coverage?: Uint8Array;
}

/**
 * Up to this many pixels the cracks' shifts are taken in WebAssembly; a larger image's in
 * TypeScript (the same numbers; tests pass a smaller limit to compare the two): the kernel's copy
 * of a 16 MP photo's colours and labels raised the trace's peak memory by 130 MB, for a few per
 * cent of the trace's time.
 */
const KERNEL_PIXELS = 1 << 23;
/** Pixels read on each side of a crack: two reach past a one-pixel anti-aliasing band into the flat colour. */
const SIDE_PIXELS = 2;
/**
 * Below this RGB distance between the two regions' colours a pixel's mix is mostly noise (soft
 * photo edges, a gradient's own steps): the crack stays where it is.
 */
const MIN_CONTRAST = 24;
/**
 * A pixel farther than this share of the contrast from the line between the two colours is not a
 * mix of these two (a third colour, a gradient): it counts as fully on its own side.
 */
const OFF_LINE_SHARE = 0.35;
/** A chain whose largest shift is below this (px) has no anti-aliasing: its exact cracks are kept. */
const HARD_EDGE_SHIFT = 0.02;
/** The half-pixel clamp: an anti-aliased pixel belongs to the side it is closer to. */
const MAX_SHIFT = 0.5;
/** placeSubpixelEdges's reference colours: R's colour, R's minus L's, the contrast² and its off-line bound. */
const RR = 0,
  RG = 1,
  RB = 2,
  DR = 3,
  DG = 4,
  DB = 5,
  CONTRAST2 = 6,
  OFF_LINE2 = 7,
  REFERENCE_FIELDS = 8;

export function placeSubpixelEdges(
  graph: BoundaryGraph,
  image: SubpixelImage,
  segmentation: SubpixelSegmentation,
  { kernelPixels = KERNEL_PIXELS }: { kernelPixels?: number } = {},
): void {
  const { width, height, rgb } = image;
  const { labels, regionCount, transparent, coverage: inkCoverage } = segmentation;
  const mean = regionMeans(rgb, segmentation);
  const inkRegion = inkCoverage ? inkRegions(inkCoverage, labels, regionCount) : null;
  // Colour edges: every crack's shift from WebAssembly (engine/wasm/assembly/crack-shifts.ts, the
  // same doubles as crackShift below), where V8's code for the per-crack reads and sums was most of
  // this stage. Ink against paper (line art) reads its coverage here, and so does a colour image
  // over KERNEL_PIXELS: the kernel holds the whole image's colours and labels (7 bytes a pixel).
  const inKernel = inkRegion === null && width * height <= kernelPixels;
  const shifted = inKernel ? graph.chains.filter((chain) => shiftsColours(chain, transparent)) : [];
  const byKernel = inKernel ? crackShiftsInKernel({ width, height, rgb, labels, mean, chains: shifted }) : null;
  let shifts = byKernel?.shifts ?? new Float64Array(256);
  let listed = 0;
  // per junction vertex: the summed shift vectors of the cracks that end there, and how many
  const junctionShift = new Map<number, number[]>();
  const edge = edgeState;
  edge.width = width;
  edge.height = height;
  edge.rgb = rgb;
  edge.labels = labels;
  edge.mean = mean;
  // Every moved chain's points are a view of one buffer, filled chain after chain: an array each
  // cost a tenth of this stage. A chain gets at most one point per crack and its two ends.
  let room = 0;
  for (const chain of graph.chains) room += chain.points.length + 4;
  const moved = new Float64Array(room);
  let used = 0;
  for (const chain of graph.chains) {
    const { right, left } = chain;
    edge.right = right;
    edge.left = left;
    chain.cracks = chain.points;
    if (right < 0 || left < 0) continue;
    const pts = chain.points;
    const count = pts.length >> 1;
    // Ink against paper (line art): the ink coverage says where the edge lies, whatever the paper
    // looks like (transparent, shaded, grey).
    const byCoverage = inkRegion !== null && inkRegion[right] !== inkRegion[left];
    if (!byCoverage && (transparent[right] || transparent[left])) {
      if (!chain.closed) {
        addJunctionShift(junctionShift, width, pts[0], pts[1], 0, 0);
        addJunctionShift(junctionShift, width, pts[2 * count - 2], pts[2 * count - 1], 0, 0);
      }
      continue;
    }
    const cracks = chain.closed ? count : count - 1;
    // this chain's shifts are shifts[s0 ..]
    let s0 = 0;
    if (byKernel) s0 = byKernel.first[listed++];
    else {
      if (shifts.length < cracks) shifts = new Float64Array(2 * cracks);
      for (let i = 0; i < cracks; i++) shifts[i] = crackShift(edge, pts, i, count, byCoverage, inkCoverage, inkRegion);
    }
    let largest = 0;
    for (let i = 0; i < cracks; i++) if (Math.abs(shifts[s0 + i]) > largest) largest = Math.abs(shifts[s0 + i]);
    if (largest < HARD_EDGE_SHIFT) shifts.fill(0, s0, s0 + cracks);
    if (!chain.closed) {
      // the first and last cracks' shift vectors, (dy, −dx)·e
      addJunctionShift(junctionShift, width, pts[0], pts[1], (pts[3] - pts[1]) * shifts[s0], -(pts[2] - pts[0]) * shifts[s0]);
      const a = 2 * count - 4,
        e = shifts[s0 + cracks - 1];
      addJunctionShift(junctionShift, width, pts[a + 2], pts[a + 3], (pts[a + 3] - pts[a + 1]) * e, -(pts[a + 2] - pts[a]) * e);
    }
    if (largest < HARD_EDGE_SHIFT) continue;

    // One point per crack, at its middle moved along the normal; an open chain keeps its junctions.
    const out = moved.subarray(used, used + 2 * cracks + (chain.closed ? 0 : 4));
    used += out.length;
    let m = 0;
    if (!chain.closed) {
      out[m++] = pts[0];
      out[m++] = pts[1];
    }
    for (let i = 0; i < cracks; i++) {
      const j = i + 1 === count ? 0 : i + 1;
      const x0 = pts[2 * i],
        y0 = pts[2 * i + 1];
      const dx = pts[2 * j] - x0,
        dy = pts[2 * j + 1] - y0;
      out[m++] = x0 + dx / 2 + dy * shifts[s0 + i];
      out[m++] = y0 + dy / 2 - dx * shifts[s0 + i];
    }
    if (!chain.closed) {
      out[m] = pts[2 * count - 2];
      out[m + 1] = pts[2 * count - 1];
    }
    chain.points = out;
  }
  moveJunctions(graph, junctionShift, width, height);
  // the trace's arrays are not kept alive by the state
  edge.rgb = NO_COLOURS;
  edge.mean = NO_MEANS;
  edge.labels = NO_LABELS;
}

/** A chain between two painted regions of a colour image: its cracks are shifted by their colours. */
function shiftsColours(chain: { right: number; left: number }, transparent: Uint8Array): boolean {
  return chain.right >= 0 && chain.left >= 0 && !transparent[chain.right] && !transparent[chain.left];
}

/**
 * The shift of crack i (from point i to the next) of a chain of `count` points along its left
 * normal: by the ink coverage for an ink-against-paper chain, else by the colours on the normal,
 * clamped to half a pixel.
 */
function crackShift(
  edge: EdgeState,
  pts: Float64Array,
  i: number,
  count: number,
  byCoverage: boolean,
  inkCoverage: Uint8Array | undefined,
  inkRegion: Uint8Array | null,
): number {
  const j = i + 1 === count ? 0 : i + 1;
  const x0 = pts[2 * i],
    y0 = pts[2 * i + 1];
  const dx = pts[2 * j] - x0,
    dy = pts[2 * j + 1] - y0;
  // the left normal (towards L) is (dy, −dx) on screen; R's pixel lies against it
  const nx = dy,
    ny = -dx;
  const mx = x0 + dx / 2,
    my = y0 + dy / 2;
  const rx = Math.floor(mx - nx / 2),
    ry = Math.floor(my - ny / 2);
  if (byCoverage) return coverageShift(inkCoverage!, edge.width, edge.height, rx, ry, nx, ny, inkRegion![edge.right] === 1);
  if (!referenceColours(edge, rx, ry, nx, ny)) return 0;
  let sum = 0;
  for (let k = 0; k < SIDE_PIXELS; k++) {
    sum += coverageByRight(edge, rx - k * nx, ry - k * ny, 1);
    sum += coverageByRight(edge, rx + (k + 1) * nx, ry + (k + 1) * ny, 0);
  }
  const e = sum - SIDE_PIXELS;
  return e < -MAX_SHIFT ? -MAX_SHIFT : e > MAX_SHIFT ? MAX_SHIFT : e;
}

function addJunctionShift(junctionShift: Map<number, number[]>, width: number, x: number, y: number, sx: number, sy: number): void {
  const id = y * (width + 1) + x;
  const sum = junctionShift.get(id);
  if (sum) {
    sum[0] += sx;
    sum[1] += sy;
    sum[2]++;
  } else junctionShift.set(id, [sx, sy, 1]);
}

const NO_COLOURS = new Uint8Array(0);
const NO_LABELS = new Int32Array(0);
const NO_MEANS = new Float64Array(0);
/**
 * The chain being placed (its two regions) and what the helpers below read, one object for every
 * trace on this thread; the helpers are module functions, not closures made per trace, whose
 * optimised code was lost between traces (docs/performance.md, round 15).
 */
interface EdgeState {
  width: number;
  height: number;
  rgb: Uint8Array;
  labels: Int32Array;
  /** The regions' mean colours (RGB, 3 a region). */
  mean: Float64Array;
  right: number;
  left: number;
  /**
   * The two colours the crack at hand mixes (REFERENCE_FIELDS: R's colour, R's minus L's, the
   * contrast² and its off-line bound), in a typed array: no heap number per write.
   */
  reference: Float64Array;
}
const edgeState: EdgeState = {
  width: 0,
  height: 0,
  rgb: NO_COLOURS,
  labels: NO_LABELS,
  mean: NO_MEANS,
  right: 0,
  left: 0,
  reference: new Float64Array(REFERENCE_FIELDS),
};

/**
 * Each side's own colour just past the window when that pixel is still of its region (a gradient
 * fill's colour changes across the shape, its mean is no match for the edge), else the region's
 * mean, into s.reference; false when the two are too alike for a mix to say anything.
 */
function referenceColours(s: EdgeState, x: number, y: number, nx: number, ny: number): boolean {
  const { rgb, mean, right, left, reference } = s;
  const farR = pixelOf(s, x - SIDE_PIXELS * nx, y - SIDE_PIXELS * ny, right);
  const farL = pixelOf(s, x + (SIDE_PIXELS + 1) * nx, y + (SIDE_PIXELS + 1) * ny, left);
  const sr = farR >= 0 ? rgb : mean,
    so = farR >= 0 ? 3 * farR : 3 * right;
  const lr = farL >= 0 ? rgb : mean,
    lo = farL >= 0 ? 3 * farL : 3 * left;
  const rr = sr[so],
    rg = sr[so + 1],
    rb = sr[so + 2];
  const dr = rr - lr[lo],
    dg = rg - lr[lo + 1],
    db = rb - lr[lo + 2];
  const contrast2 = dr * dr + dg * dg + db * db;
  reference[RR] = rr;
  reference[RG] = rg;
  reference[RB] = rb;
  reference[DR] = dr;
  reference[DG] = dg;
  reference[DB] = db;
  reference[CONTRAST2] = contrast2;
  reference[OFF_LINE2] = OFF_LINE_SHARE * OFF_LINE_SHARE * contrast2;
  return contrast2 >= MIN_CONTRAST * MIN_CONTRAST;
}

/** Pixel (x, y) when it lies in the image and belongs to `region`, else -1. */
function pixelOf(s: EdgeState, x: number, y: number, region: number): number {
  if (x < 0 || y < 0 || x >= s.width || y >= s.height) return -1;
  const p = y * s.width + x;
  return s.labels[p] === region ? p : -1;
}

/** Coverage by R of pixel (x, y): `own` (1 on R's side, 0 on L's) unless it is a mix of the two colours. */
function coverageByRight(s: EdgeState, x: number, y: number, own: number): number {
  const { width, rgb, labels, reference } = s;
  if (x < 0 || y < 0 || x >= width || y >= s.height) return own;
  const p = y * width + x;
  const l = labels[p];
  if (l !== s.right && l !== s.left) return own;
  // α = (c − c_L)·(c_R − c_L) / |c_R − c_L|², written from R's side: 1 − (c_R − c)·d/|d|²
  const dr = reference[DR],
    dg = reference[DG],
    db = reference[DB];
  const cr = reference[RR] - rgb[3 * p],
    cg = reference[RG] - rgb[3 * p + 1],
    cb = reference[RB] - rgb[3 * p + 2];
  const along = (cr * dr + cg * dg + cb * db) / reference[CONTRAST2];
  const er = cr - along * dr,
    eg = cg - along * dg,
    eb = cb - along * db;
  if (er * er + eg * eg + eb * eb > reference[OFF_LINE2]) return own;
  const alpha = 1 - along;
  return alpha < 0 ? 0 : alpha > 1 ? 1 : alpha;
}

/**
 * The shift of one crack between ink and paper from the ink coverage of the two pixels against it
 * (R's at (rx, ry), L's one step along the normal): e = α_R + α_L − 1, the window of one pixel a
 * side. A wider window would read across a thin stroke into the paper beyond it.
 */
function coverageShift(
  coverage: Uint8Array,
  width: number,
  height: number,
  rx: number,
  ry: number,
  nx: number,
  ny: number,
  rightIsInk: boolean,
): number {
  const lx = rx + nx,
    ly = ry + ny;
  const a = rx >= 0 && ry >= 0 && rx < width && ry < height ? coverage[ry * width + rx] / 255 : rightIsInk ? 1 : 0;
  const b = lx >= 0 && ly >= 0 && lx < width && ly < height ? coverage[ly * width + lx] / 255 : rightIsInk ? 0 : 1;
  // coverage by R: the ink's own when R is the ink, the paper's (1 − ink) when R is the paper
  const e = rightIsInk ? a + b - 1 : 1 - a - b;
  return e < -MAX_SHIFT ? -MAX_SHIFT : e > MAX_SHIFT ? MAX_SHIFT : e;
}

/** 1 for the regions that are ink (most of their pixels past the ink threshold, coverage 128). */
function inkRegions(coverage: Uint8Array, labels: Int32Array, regionCount: number): Uint8Array {
  const inkPixels = new Int32Array(regionCount),
    all = new Int32Array(regionCount);
  for (let p = 0; p < labels.length; p++) {
    all[labels[p]]++;
    if (coverage[p] > 128) inkPixels[labels[p]]++;
  }
  const ink = new Uint8Array(regionCount);
  for (let r = 0; r < regionCount; r++) ink[r] = 2 * inkPixels[r] > all[r] ? 1 : 0;
  return ink;
}

/** Interior points a frame junction's chain is extrapolated from (a straight edge's slope shows over a few pixels). */
const FRAME_REACH = 6;

/**
 * Junctions move by the mean shift of the cracks that end there (a hard edge counts as no shift),
 * so a chain's sub-pixel points do not kink back to a pixel corner at its ends. On the image frame
 * a junction slides along the frame only, to where its chains' first few sub-pixel points, carried
 * on in a line, meet the frame (a crack's shift is measured at its middle, half a pixel in); a frame
 * corner stays put. Every chain ending at a moved junction gets the same new end point, so rings
 * still close.
 */
function moveJunctions(graph: BoundaryGraph, junctionShift: Map<number, number[]>, width: number, height: number): void {
  const V = width + 1;
  const onFrame = (x: number, y: number) => x === 0 || y === 0 || x === width || y === height;
  const frameEstimate = new Map<number, number[]>();
  for (const chain of graph.chains) {
    if (chain.closed || chain.points === chain.cracks) continue;
    const p = chain.points,
      n = p.length >> 1;
    if (n < 4) continue;
    for (const atStart of [true, false]) {
      const vx = atStart ? p[0] : p[2 * n - 2],
        vy = atStart ? p[1] : p[2 * n - 1];
      if (!onFrame(vx, vy) || ((vx === 0 || vx === width) && (vy === 0 || vy === height))) continue;
      const near = atStart ? 1 : n - 2,
        far = atStart ? Math.min(FRAME_REACH, n - 2) : Math.max(n - 1 - FRAME_REACH, 1);
      const ax = p[2 * near],
        ay = p[2 * near + 1],
        dx = p[2 * far] - ax,
        dy = p[2 * far + 1] - ay;
      const vertical = vx === 0 || vx === width; // the frame side runs along y
      const denominator = vertical ? dx : dy;
      if (Math.abs(denominator) < 1e-9) continue;
      const t = ((vertical ? vx : vy) - (vertical ? ax : ay)) / denominator;
      const along = (vertical ? ay + t * dy : ax + t * dx) - (vertical ? vy : vx);
      if (Math.abs(along) > MAX_SHIFT * 2) continue;
      const id = vy * V + vx;
      const sum = frameEstimate.get(id);
      if (sum) {
        sum[0] += along;
        sum[1]++;
      } else frameEstimate.set(id, [along, 1]);
    }
  }
  const moved = (x: number, y: number): [number, number] | null => {
    const id = y * V + x;
    if (onFrame(x, y)) {
      const estimate = frameEstimate.get(id);
      if (!estimate) return null;
      const along = estimate[0] / estimate[1];
      return x === 0 || x === width ? [x, y + along] : [x + along, y];
    }
    const sum = junctionShift.get(id);
    if (!sum || (sum[0] === 0 && sum[1] === 0)) return null;
    return [x + sum[0] / sum[2], y + sum[1] / sum[2]];
  };
  for (const chain of graph.chains) {
    if (chain.closed) continue;
    const c = chain.cracks;
    const last = c.length - 2;
    const start = moved(c[0], c[1]),
      end = moved(c[last], c[last + 1]);
    if (!start && !end) continue;
    // an exact chain still shares its array with the cracks: it gets its own before changing
    if (chain.points === chain.cracks) chain.points = chain.cracks.slice();
    const p = chain.points;
    if (start) {
      p[0] = start[0];
      p[1] = start[1];
    }
    if (end) {
      p[p.length - 2] = end[0];
      p[p.length - 1] = end[1];
    }
  }
}

/** Mean RGB of every region. */
function regionMeans(rgb: Uint8Array, segmentation: SubpixelSegmentation): Float64Array {
  const { labels, regionCount, area, colourSums } = segmentation;
  let mean: Float64Array, counts: ArrayLike<number>;
  if (colourSums && area) {
    mean = colourSums.slice(0, 3 * regionCount);
    counts = area;
  } else {
    const counted = new Float64Array(regionCount);
    mean = regionColourSums(rgb, labels, regionCount, counted);
    counts = counted;
  }
  for (let r = 0; r < regionCount; r++) {
    const n = Math.max(1, counts[r]);
    mean[3 * r] /= n;
    mean[3 * r + 1] /= n;
    mean[3 * r + 2] /= n;
  }
  return mean;
}
