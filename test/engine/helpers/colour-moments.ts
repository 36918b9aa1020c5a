/**
 * The colour moments of pixel runs, in TypeScript as the engine took them before its moments pass
 * went to WebAssembly (engine/wasm/assembly/moments.ts does the same arithmetic): the reference
 * the kernel is tested against, and the sums the colour-moments tests build their sets from.
 */
import { MOMENTS } from '../../../engine/segment/colour-moments.js';
import { MOMENT_BLOCK } from '../../../engine/segment/gradient-bands.js';
import type { MomentsPass } from '../../../engine/wasm/moments.js';

/** The layout of a set's sums (engine/segment/colour-moments.ts): 28 power sums, then 10 per channel, then Σ v². */
const COLOUR = 28;
const TERMS = 10;
const SQUARES = COLOUR + 3 * TERMS;
if (SQUARES + 1 !== MOMENTS) throw new Error('reference colour moments: the sums are laid out for a cubic');

/**
 * Adds a run of `count` pixels of one row to the sums at `at`: the first at (x, y) about the set's
 * reference point, its colours from `data` (`channels` per pixel) from pixel `first` on. The run's
 * sums along x are taken first and spread over the powers of y once, so a pixel costs a few
 * dozen operations however many power sums there are.
 */
export function addRun(
  sums: Float64Array,
  at: number,
  x: number,
  y: number,
  count: number,
  data: Uint8Array,
  channels: number,
  first: number,
): void {
  // Written out for DEGREE 3, the sums in locals: the same products added in the same order as a
  // loop over the powers would (so the same bits), without a load and store per power and pixel.
  // Every number here is a double from the start (the sums from -0, the positions by way of a
  // half): as small integers, V8 compiled integer arithmetic that overflowed on the fourth and
  // higher powers and fell back to the interpreter, in one process 247 times in three rounds of the
  // corpus with the same optimised code. -0 + v is v, and x + ½ − ½ is x, so the sums are the same.
  let x0 = -0,
    x1 = -0,
    x2 = -0,
    x3 = -0,
    x4 = -0,
    x5 = -0,
    x6 = -0;
  let r0 = -0,
    r1 = -0,
    r2 = -0,
    r3 = -0,
    g0 = -0,
    g1 = -0,
    g2 = -0,
    g3 = -0,
    b0 = -0,
    b1 = -0,
    b2 = -0,
    b3 = -0;
  let squares = -0;
  for (let t = 0, o = channels * first; t < count; t++, o += channels) {
    const r = data[o],
      g = data[o + 1],
      b = data[o + 2];
    squares += r * r + g * g + b * b;
    const at = x + t + 0.5 - 0.5;
    const w2 = at * at,
      w3 = w2 * at,
      w4 = w3 * at,
      w5 = w4 * at;
    x0 += 1;
    x1 += at;
    x2 += w2;
    x3 += w3;
    x4 += w4;
    x5 += w5;
    x6 += w5 * at;
    r0 += r;
    r1 += r * at;
    r2 += r * w2;
    r3 += r * w3;
    g0 += g;
    g1 += g * at;
    g2 += g * w2;
    g3 += g * w3;
    b0 += b;
    b1 += b * at;
    b2 += b * w2;
    b3 += b * w3;
  }
  // The run's sums spread over the powers of y (Σ xⁱyʲ = yʲ·Σ xⁱ along a row), written out for
  // DEGREE 3: each sum gets the same one product as a loop over POWERS would add (the same bits),
  // without the index tables and the scratch array a short run (a noisy image has many) paid for.
  const y1 = y + 0.5 - 0.5,
    y2 = y1 * y,
    y3 = y2 * y,
    y4 = y3 * y,
    y5 = y4 * y,
    y6 = y5 * y;
  spreadTerms(sums, at, x0, x1, x2, x3, y1, y2, y3);
  sums[at + 10] += x4;
  sums[at + 11] += x3 * y1;
  sums[at + 12] += x2 * y2;
  sums[at + 13] += x1 * y3;
  sums[at + 14] += x0 * y4;
  sums[at + 15] += x5;
  sums[at + 16] += x4 * y1;
  sums[at + 17] += x3 * y2;
  sums[at + 18] += x2 * y3;
  sums[at + 19] += x1 * y4;
  sums[at + 20] += x0 * y5;
  sums[at + 21] += x6;
  sums[at + 22] += x5 * y1;
  sums[at + 23] += x4 * y2;
  sums[at + 24] += x3 * y3;
  sums[at + 25] += x2 * y4;
  sums[at + 26] += x1 * y5;
  sums[at + 27] += x0 * y6;
  spreadTerms(sums, at + COLOUR, r0, r1, r2, r3, y1, y2, y3);
  spreadTerms(sums, at + COLOUR + TERMS, g0, g1, g2, g3, y1, y2, y3);
  spreadTerms(sums, at + COLOUR + 2 * TERMS, b0, b1, b2, b3, y1, y2, y3);
  sums[at + SQUARES] += squares;
}

/**
 * Sums Σ v·xⁱ along a run (v0..v3: of 1, or of a channel) spread over the surface's terms xⁱyʲ
 * (i + j ≤ 3), in POWERS' order from `at`.
 */
function spreadTerms(
  sums: Float64Array,
  at: number,
  v0: number,
  v1: number,
  v2: number,
  v3: number,
  y1: number,
  y2: number,
  y3: number,
): void {
  sums[at] += v0;
  sums[at + 1] += v1;
  sums[at + 2] += v0 * y1;
  sums[at + 3] += v2;
  sums[at + 4] += v1 * y1;
  sums[at + 5] += v0 * y2;
  sums[at + 6] += v3;
  sums[at + 7] += v2 * y1;
  sums[at + 8] += v1 * y2;
  sums[at + 9] += v0 * y3;
}

/**
 * The moments pass as the engine ran it in TypeScript (engine/segment/gradient-bands.ts
 * measureMoments before it went to WebAssembly): what the kernel must reproduce, number for number.
 */
export function referenceMoments(pass: MomentsPass): void {
  const { width, height, data, channels, labels, regionCount, mine, sums, refX, refY, edgePixel } = pass;
  const hard2 = pass.hardStep * pass.hardStep;
  for (let r = 0; r < regionCount; r++) {
    const s = mine[r];
    if (s < 0) continue;
    sums.fill(0, s * MOMENT_BLOCK, (s + 1) * MOMENT_BLOCK);
    refY[s] = -1;
  }
  const listed = pass.lists === null ? null : pass.lists.first.slice(0, regionCount);
  const pixels = pass.lists === null ? null : pass.lists.pixels;
  // Runs of one region's pixels along a row, cut where a pixel's edge flag changes. Within a row
  // run of one label only its two ends have a left or right neighbour of another region.
  for (let y = 0; y < height; y++) {
    const row = y * width;
    // the rows above and below as offsets, 0 past the image's edge: a pixel is never across an edge from itself
    const up = y > 0 ? -width : 0,
      down = y + 1 < height ? width : 0;
    for (let x = 0; x < width;) {
      const label = labels[row + x];
      let rowRunEnd = x + 1;
      while (rowRunEnd < width && labels[row + rowRunEnd] === label) rowRunEnd++;
      const s = mine[label];
      if (s < 0) {
        x = rowRunEnd;
        continue;
      }
      if (refY[s] < 0) {
        refX[s] = x;
        refY[s] = y;
      }
      if (listed !== null && pixels !== null) {
        let at = listed[label];
        for (let p = row + x; p < row + rowRunEnd; p++) pixels[at++] = p;
        listed[label] = at;
      }
      let start = x,
        startEdge = false;
      for (let t = x; t < rowRunEnd; t++) {
        const p = row + t;
        const edge =
          (t === x && t > 0 && stepsHard(data, channels, hard2, p, p - 1)) ||
          (t + 1 === rowRunEnd && t + 1 < width && stepsHard(data, channels, hard2, p, p + 1)) ||
          (labels[p + up] !== label && stepsHard(data, channels, hard2, p, p + up)) ||
          (labels[p + down] !== label && stepsHard(data, channels, hard2, p, p + down));
        edgePixel[p] = edge ? 1 : 0;
        if (t === x) startEdge = edge;
        else if (edge !== startEdge) {
          addRun(sums, s * MOMENT_BLOCK + (startEdge ? MOMENTS : 0), start - refX[s], y - refY[s], t - start, data, channels, row + start);
          start = t;
          startEdge = edge;
        }
      }
      addRun(
        sums,
        s * MOMENT_BLOCK + (startEdge ? MOMENTS : 0),
        start - refX[s],
        y - refY[s],
        rowRunEnd - start,
        data,
        channels,
        row + start,
      );
      x = rowRunEnd;
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
