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
import { chooseBandSides } from '../wasm/band-sides.js';
import { scratchInt32, scratchSlots, zeroedUint8 } from '../scratch.js';
import { sortIndices } from '../select.js';
import { movePixel, regionColourSums, renumberInScanOrder, rowRunsOf, type RegionLabels, type RowRuns } from './renumber.js';

interface BandImage {
  width: number;
  height: number;
  rgb: Uint8Array;
}

/** A region at most this wide on average (2·area ÷ perimeter, px) may be an anti-aliasing band. */
const BAND_WIDTH = 1.3;
/** Below this RGB distance two colours are too close to tell a mix of them from either. */
const MIN_CONTRAST = 24;
/** A mix lies within this share of the two colours' distance from the line between them. */
const OFF_LINE_SHARE = 0.3;
/** Two bands side by side for at least this many pixels, and… */
const MIN_STRIP_RUN = 8;
/** …along at least this share of the smaller one, are a strip. */
const STRIP_SHARE = 0.5;
/** A strip grows past the end of its run at most this far (px, in 8-neighbour steps). */
const STRIP_GROWTH = 16;
/** Passes that join a grown strip's diagonal steps (a join can leave a new one beside it). */
const BRIDGE_PASSES = 3;
/** A strip's growth is kept where the edge turns at least this far from its run (radians). */
const MIN_CORNER_TURN = Math.PI / 6;
/** Per-trace work arrays, kept for the next trace (fresh pages cost more than these passes' work). */
const BAND_SCRATCH = {
  ...scratchSlots('antialias', Int32Array, ['bandPixels', 'movedTo', 'blocks']),
  ...scratchSlots('antialias', Uint8Array, ['reached', 'blockListed']),
};
/** `reached` of a pixel a strip grew into (its label changed), beside 1 for one reached as it was. */
const GROWN = 2;

/**
 * Moves band pixels to their sides (labels in place) and returns the regions renumbered in scan
 * order, with their colour sums. The regions' own `colourSums` (the merging's) spare a pass when
 * they have them, and so do the labels' row runs when the caller has them (the merging's).
 */
export function absorbAntialiasBands(image: BandImage, regions: RegionLabels, labelRuns?: RowRuns): RegionLabels {
  const { width, height, rgb } = image;
  const { labels, regionCount, transparent } = regions;

  // `sums` stay those of the regions as merged (every decision reads them); `kept` follows the moves
  const sums = regions.colourSums ?? regionColourSums(rgb, labels, regionCount);
  const runs = labelRuns ?? rowRunsOf(labels, width, height);
  const perimeter = regionPerimeters(labels, width, height, regionCount, runs);
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
  if (!anyBand) return { ...regions, colourSums: sums };
  // Every later pass looks only at band pixels (and the strips, which are made of them), a few
  // per cent of the image: listed once, in scan order, so each pass keeps the order of a full scan.
  const bandPixels = pixelsOfRegions(labels, band, regions.area, runs);
  const strips = joinStrips(image, labels, regionCount, band, regions.area, bandPixels);
  const stripInto = strips?.into ?? null;

  // Decisions read the labels as the merging left them; they are applied afterwards, so no band
  // pixel's choice depends on another's (or on the order of the scan).
  // each band pixel's new region (-1: it stays), by its place in bandPixels
  const movedTo = scratchInt32(BAND_SCRATCH.movedTo, bandPixels.length);
  // a region no band pixel can join: another band, or transparent (one look-up per window pixel)
  const unjoinable = new Uint8Array(regionCount);
  for (let r = 0; r < regionCount; r++) unjoinable[r] = band[r] | transparent[r];
  // Each band pixel: the distinct joinable regions in its 5×5 window (at most eight, in the
  // window's reading order), then the pair whose line passes nearest the pixel's colour, relative
  // to their contrast; it goes to the one it is nearer to. In WebAssembly
  // (engine/wasm/assembly/band-sides.ts): the same tests in the same order, the same choices.
  const moves = chooseBandSides({
    width,
    height,
    labels,
    rgb,
    pixels: bandPixels,
    movedTo,
    unjoinable,
    band,
    mean,
    minContrast2: MIN_CONTRAST * MIN_CONTRAST,
    offLine2: OFF_LINE_SHARE * OFF_LINE_SHARE,
  });
  if (moves === 0 && stripInto === null) return { ...regions, colourSums: sums };
  const kept = sums.slice();
  for (let i = 0; i < bandPixels.length; i++) if (movedTo[i] >= 0) movePixel(labels, rgb, kept, bandPixels[i], movedTo[i]);
  if (strips !== null) growStripEnds(image, labels, strips, band, transparent, sums, kept, regions.area, mean, bandPixels);

  // regions emptied by the move disappear
  return renumberInScanOrder(labels, regionCount, transparent, stripInto, kept);
}

/**
 * Each region's perimeter: the 4-neighbour pixel pairs across which its label changes (each pair
 * counted for both its regions), from the runs: a run's end within its row is one pair, and a
 * row's runs against the next row's, where their labels differ, as many pairs as they overlap.
 * Exported for its test.
 */
export function regionPerimeters(labels: Int32Array, width: number, height: number, regionCount: number, runs: RowRuns): Int32Array {
  const perimeter = new Int32Array(regionCount);
  const { starts, rowRuns } = runs;
  for (let y = 0; y < height; y++) {
    const first = rowRuns[y],
      last = rowRuns[y + 1] - 1;
    for (let k = first; k < last; k++) {
      perimeter[labels[starts[k]]]++;
      perimeter[labels[starts[k + 1]]]++;
    }
    if (y + 1 === height) break;
    // this row's runs (i) against the next row's (j), moved by a row: the stretch both cover ends
    // where the first of the two ends
    let i = first,
      j = rowRuns[y + 1];
    let from = starts[i];
    for (;;) {
      const a = labels[starts[i]],
        c = labels[starts[j]];
      const endA = starts[i + 1],
        endC = starts[j + 1] - width;
      const to = endA < endC ? endA : endC;
      if (a !== c) {
        perimeter[a] += to - from;
        perimeter[c] += to - from;
      }
      if (to === endA) {
        if (i === last) break;
        i++;
      }
      if (to === endC) j++;
      from = to;
    }
  }
  return perimeter;
}

/** The pixels whose region is marked in `marked`, in scan order (one look-up per run). Exported for its test. */
export function pixelsOfRegions(labels: Int32Array, marked: Uint8Array, area: Int32Array, runs: RowRuns): Int32Array {
  let total = 0;
  for (let r = 0; r < marked.length; r++) if (marked[r]) total += area[r];
  const pixels = scratchInt32(BAND_SCRATCH.bandPixels, total);
  const { starts, rowRuns } = runs;
  let count = 0;
  for (let k = 0, runCount = rowRuns[rowRuns.length - 1]; k < runCount; k++) {
    const start = starts[k];
    if (marked[labels[start]]) for (let q = start, end = starts[k + 1]; q < end; q++) pixels[count++] = q;
  }
  return pixels;
}

/** Bands joined into strips. */
interface Strips {
  /** Each region's strip (the lowest id among the bands joined into it), or the region itself. */
  into: Int32Array;
  /** Per pixel pair found side by side across a run: its first pixel, then 1 across a vertical run, 0 a horizontal one. */
  runs: number[];
}

/**
 * Two bands side by side along a horizontal or vertical run are no edge's anti-aliasing: across a
 * straight axis-aligned edge only one pixel is a mix. They are a thin strip of its own colour (an
 * artist's one-pixel highlight or shade line inside an outline, drawn off the pixel grid so it
 * covers parts of two pixel rows or columns), and its pixels are a mix of the strip and each side. Joined
 * into one region (the lower id) and no longer bands; null when there is none.
 */
function joinStrips(
  image: BandImage,
  labels: Int32Array,
  regionCount: number,
  band: Uint8Array,
  area: Int32Array,
  bandPixels: Int32Array,
): Strips | null {
  const { width, height, rgb } = image;
  const beside = new Map<number, number>();
  // the first pixel of each side-by-side pair, and whether the pair lies across a vertical run
  const runs: number[] = [];
  const note = (a: number, b: number, p: number, vertical: boolean) => {
    const key = a < b ? a * regionCount + b : b * regionCount + a;
    beside.set(key, (beside.get(key) ?? 0) + 1);
    runs.push(p, vertical ? 1 : 0);
  };
  for (let i = 0; i < bandPixels.length; i++) {
    const p = bandPixels[i];
    const x = p % width,
      y = (p - x) / width;
    if (x === 0 || y === 0 || x + 1 === width || y + 1 === height) continue;
    const l = labels[p];
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
      note(l, r, p, true);
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
      note(l, d, p, false);
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
  return { into, runs };
}

/**
 * A strip goes on where its run stops: round an outline's corner the highlight still runs along
 * the edge, but no longer as two pixels side by side, so the merging gave its pixels to the fills
 * beside it, the darker mixes to the dark side and the lighter ones to the light side. Cut off
 * there, the strip ends square in the middle of the curve and the dark side's edge jumps by the
 * strip's width where it ends: a notch and a spike at any zoom. So the strip grows from its run
 * (8-neighbours, step by step) into pixels of the fills that are
 * - nearer the strip's colour than their fill's, on the line from the fill's colour through the
 *   strip's (a mix of the two, or of the strip and the fill across it);
 * - beside another region (on the fill's edge, so a gradient fill passing through the strip's
 *   colour is not eaten into);
 * - a step along the edge from the pixel it grows from, not across it: beside the run lie the
 *   fills, and where a strip ends square against another edge (a plain anti-aliased one, whose
 *   mixes look alike) that edge runs across the strip's, so the strip does not creep along it.
 * The strip follows the corner and ends where it fades (its mixes lie nearer a fill once it is
 * thinner than half a pixel), or after STRIP_GROWTH steps.
 */
function growStripEnds(
  image: BandImage,
  labels: Int32Array,
  strips: Strips,
  band: Uint8Array,
  transparent: Uint8Array,
  sums: Float64Array,
  kept: Float64Array,
  area: Int32Array,
  mean: Float64Array,
  bandPixels: Int32Array,
): void {
  const { width, height, rgb } = image;
  const { into: stripInto, runs } = strips;
  const regionCount = stripInto.length;
  // a strip's colour: the mean of the bands joined into it (a fill's colour is its region's mean)
  const colour = Float64Array.from(mean);
  const stripArea = new Float64Array(regionCount);
  const isStrip = new Uint8Array(regionCount);
  for (let r = 0; r < regionCount; r++) if (stripInto[r] !== r) isStrip[stripInto[r]] = 1;
  for (let s = 0; s < regionCount; s++) if (isStrip[s]) colour.fill(0, 3 * s, 3 * s + 3);
  for (let r = 0; r < regionCount; r++) {
    const s = stripInto[r];
    if (!isStrip[s]) continue;
    colour[3 * s] += sums[3 * r];
    colour[3 * s + 1] += sums[3 * r + 1];
    colour[3 * s + 2] += sums[3 * r + 2];
    stripArea[s] += area[r];
  }
  for (let s = 0; s < regionCount; s++) if (isStrip[s]) for (let c = 0; c < 3; c++) colour[3 * s + c] /= Math.max(1, stripArea[s]);

  // Decisions read the labels as the band move left them. The front holds (pixel, the edge's
  // normal there): from the run's pixels, across the run, through the strip's other pixels (its
  // end, band pixels it took) keeping that normal, then into the fills. Only the pixels it grows
  // into change label: their labels before are kept aside (a copy of every label cost more than
  // the whole growth), and a pixel not reached yet still holds its label before.
  const reached = zeroedUint8(BAND_SCRATCH.reached, labels.length);
  const grownFrom = new Map<number, number>();
  const labelBefore = (q: number): number => (reached[q] === GROWN ? grownFrom.get(q)! : labels[q]);
  const turn = new Map<number, number>();
  let front: number[] = [];
  for (let k = 0; k < runs.length; k += 2) {
    const p = runs[k],
      vertical = runs[k + 1] === 1;
    if (!isStrip[stripInto[labels[p]]]) continue;
    for (const q of vertical ? [p, p + 1] : [p, p + width]) {
      if (reached[q]) continue;
      reached[q] = 1;
      front.push(q, vertical ? 1 : 0, vertical ? 0 : 1, vertical ? 1 : 0, vertical ? 0 : 1);
    }
  }
  for (let step = 0; step < STRIP_GROWTH && front.length > 0; step++) {
    const next: number[] = [];
    for (let k = 0; k < front.length; k += 5) {
      const p = front[k],
        nx = front[k + 1],
        ny = front[k + 2],
        ax = front[k + 3],
        ay = front[k + 4];
      // a pixel of the strip already, or one it took (labelled with the strip's id)
      const strip = stripInto[labels[p]];
      const x = p % width,
        y = (p - x) / width;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= width) continue;
          const q = yy * width + xx;
          if (reached[q]) continue;
          const fill = labels[q];
          if (stripInto[fill] === strip) {
            reached[q] = 1;
            next.push(q, nx, ny, ax, ay);
            continue;
          }
          // along the edge only: across it, beside the run, lie the fills the strip is a mix of
          if (band[fill] || transparent[fill] || isStrip[stripInto[fill]] || Math.abs(dx * nx + dy * ny) >= Math.abs(dx * ny - dy * nx))
            continue;
          if (
            !nearerStripThanFill(rgb, q, colour, fill, strip) ||
            !besideAnotherRegion(labelBefore, width, height, q, fill, stripInto, isStrip)
          )
            continue;
          const [qx, qy] = edgeNormal(rgb, width, height, q);
          if (qx === 0 && qy === 0) continue;
          reached[q] = GROWN;
          grownFrom.set(q, fill);
          movePixel(labels, rgb, kept, q, strip);
          next.push(q, qx, qy, ax, ay);
          // how far the edge has turned from the run's here (|cos| of the angle)
          turn.set(q, Math.abs(ax * qx + ay * qy) / Math.hypot(qx, qy));
        }
      }
    }
    front = next;
  }
  keepOnlyRoundCorners(labels, rgb, kept, grownFrom, width, height, turn);
  // the strips' pixels: their bands' (some band pixels moved into a strip) and what grew
  const stripPixels: number[] = [];
  for (const p of bandPixels) if (isStrip[stripInto[labels[p]]]) stripPixels.push(p);
  for (const p of turn.keys()) if (isStrip[stripInto[labels[p]]]) stripPixels.push(p);
  bridgeDiagonalSteps(rgb, kept, width, height, labels, stripInto, isStrip, band, transparent, colour, stripPixels);
}

/**
 * What grew from a strip's end stays only where the edge turns there (round a corner, by at least
 * MIN_CORNER_TURN from the run's direction): where the strip's run just stops along a straight
 * edge, its fills' outlines are left as they were (a junction moved along a straight edge tilts
 * the line the fitter draws through it).
 */
function keepOnlyRoundCorners(
  labels: Int32Array,
  rgb: Uint8Array,
  kept: Float64Array,
  grownFrom: Map<number, number>,
  width: number,
  height: number,
  turn: Map<number, number>,
): void {
  const seen = new Set<number>();
  for (const start of turn.keys()) {
    if (seen.has(start)) continue;
    // the grown pixels 8-connected to this one
    const piece = [start];
    seen.add(start);
    let turned = false;
    for (let i = 0; i < piece.length; i++) {
      const p = piece[i];
      if (turn.get(p)! <= Math.cos(MIN_CORNER_TURN)) turned = true;
      const x = p % width,
        y = (p - x) / width;
      for (let yy = Math.max(0, y - 1); yy <= Math.min(height - 1, y + 1); yy++)
        for (let xx = Math.max(0, x - 1); xx <= Math.min(width - 1, x + 1); xx++) {
          const q = yy * width + xx;
          if (turn.has(q) && !seen.has(q)) {
            seen.add(q);
            piece.push(q);
          }
        }
    }
    if (!turned) for (const p of piece) movePixel(labels, rgb, kept, p, grownFrom.get(p)!);
  }
}

/**
 * The direction in which pixel p's colour changes fastest (Sobel, on the sum of the channels):
 * across the edge it lies on. [0, 0] on the image's border.
 */
function edgeNormal(rgb: Uint8Array, width: number, height: number, p: number): [number, number] {
  const x = p % width,
    y = (p - x) / width;
  if (x === 0 || y === 0 || x + 1 === width || y + 1 === height) return [0, 0];
  const v = (q: number) => rgb[3 * q] + rgb[3 * q + 1] + rgb[3 * q + 2];
  const gx = v(p - width + 1) + 2 * v(p + 1) + v(p + width + 1) - v(p - width - 1) - 2 * v(p - 1) - v(p + width - 1);
  const gy = v(p + width - 1) + 2 * v(p + width) + v(p + width + 1) - v(p - width - 1) - 2 * v(p - width) - v(p - width + 1);
  return [gx, gy];
}

/**
 * Round a corner the grown strip steps diagonally, and where two of its pixels touch only at a
 * corner the fills on either side touch there too: a junction of four regions at every step, which
 * cuts the outlines into pieces too short to fit (each keeps its pixel steps). Of the two fill
 * pixels at such a step the one nearer the strip in colour joins it, so the strip is 4-connected.
 */
function bridgeDiagonalSteps(
  rgb: Uint8Array,
  kept: Float64Array,
  width: number,
  height: number,
  labels: Int32Array,
  stripInto: Int32Array,
  isStrip: Uint8Array,
  band: Uint8Array,
  transparent: Uint8Array,
  colour: Float64Array,
  stripPixels: number[],
): void {
  const stripOf = (p: number): number => {
    const s = stripInto[labels[p]];
    return isStrip[s] ? s : -1;
  };
  const distance2 = (p: number, s: number): number => {
    let d = 0;
    for (let c = 0; c < 3; c++) d += (rgb[3 * p + c] - colour[3 * s + c]) ** 2;
    return d;
  };
  const usable = (o: number): boolean => stripOf(o) < 0 && !band[labels[o]] && !transparent[labels[o]];
  // each block listed once a pass: marked while listed, unmarked once sorted
  const listed = zeroedUint8(BAND_SCRATCH.blockListed, width * height);
  for (let pass = 0; pass < BRIDGE_PASSES; pass++) {
    const bridges: number[] = [];
    // only a 2×2 block holding a strip pixel can bridge: those blocks (by their top-left pixel),
    // in scan order, as a scan of every block meets them
    const blocks = scratchInt32(BAND_SCRATCH.blocks, 4 * stripPixels.length);
    let count = 0;
    for (let i = 0; i < stripPixels.length; i++) {
      const p = stripPixels[i];
      const x = p % width,
        y = (p - x) / width;
      for (let by = Math.max(0, y - 1); by <= Math.min(height - 2, y); by++)
        for (let bx = Math.max(0, x - 1); bx <= Math.min(width - 2, x); bx++) {
          const block = by * width + bx;
          if (listed[block]) continue;
          listed[block] = 1;
          blocks[count++] = block;
        }
    }
    const ordered = sortIndices(blocks.subarray(0, count));
    for (let i = 0; i < count; i++) {
      const p = ordered[i];
      listed[p] = 0;
      // the 2×2 block p, p+1 / p+width, p+width+1: a strip on one diagonal only
      const a = stripOf(p),
        b = stripOf(p + 1),
        c = stripOf(p + width),
        d = stripOf(p + width + 1);
      let s: number, o1: number, o2: number;
      if (a >= 0 && a === d && b !== a && c !== a) {
        s = a;
        o1 = p + 1;
        o2 = p + width;
      } else if (b >= 0 && b === c && a !== b && d !== b) {
        s = b;
        o1 = p;
        o2 = p + width + 1;
      } else continue;
      const pick = !usable(o2) || (usable(o1) && distance2(o1, s) <= distance2(o2, s)) ? o1 : o2;
      if (usable(pick)) bridges.push(pick, s);
    }
    if (bridges.length === 0) return;
    for (let k = 0; k < bridges.length; k += 2) {
      movePixel(labels, rgb, kept, bridges[k], bridges[k + 1]);
      stripPixels.push(bridges[k]);
    }
  }
}

/**
 * Whether pixel q's colour lies nearer the strip's colour than its fill's, on the line from the
 * fill's through the strip's and at most half as far again beyond it.
 */
function nearerStripThanFill(rgb: Uint8Array, q: number, colour: Float64Array, fill: number, strip: number): boolean {
  const F = 3 * fill,
    S = 3 * strip;
  const dr = colour[S] - colour[F],
    dg = colour[S + 1] - colour[F + 1],
    db = colour[S + 2] - colour[F + 2];
  const contrast2 = dr * dr + dg * dg + db * db;
  if (contrast2 < MIN_CONTRAST * MIN_CONTRAST) return false;
  const pr = rgb[3 * q] - colour[F],
    pg = rgb[3 * q + 1] - colour[F + 1],
    pb = rgb[3 * q + 2] - colour[F + 2];
  const t = (pr * dr + pg * dg + pb * db) / contrast2;
  if (t <= 0.5 || t > 1.5) return false;
  const er = pr - t * dr,
    eg = pg - t * dg,
    eb = pb - t * db;
  return (er * er + eg * eg + eb * eb) / contrast2 <= OFF_LINE_SHARE * OFF_LINE_SHARE;
}

/** Whether one of q's 8 neighbours lay, before the strips grew, in a region other than q's fill and any strip. */
function besideAnotherRegion(
  labelBefore: (p: number) => number,
  width: number,
  height: number,
  q: number,
  fill: number,
  stripInto: Int32Array,
  isStrip: Uint8Array,
): boolean {
  const x = q % width,
    y = (q - x) / width;
  for (let yy = Math.max(0, y - 1); yy <= Math.min(height - 1, y + 1); yy++) {
    for (let xx = Math.max(0, x - 1); xx <= Math.min(width - 1, x + 1); xx++) {
      const l = labelBefore(yy * width + xx);
      if (l !== fill && !isStrip[stripInto[l]]) return true;
    }
  }
  return false;
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
