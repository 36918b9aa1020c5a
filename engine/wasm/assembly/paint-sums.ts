/**
 * The region paints' two passes over the pixels (engine/svg/compose.ts planRegionPaints) in
 * AssemblyScript: each region's colour sums and sum of squares, of all its pixels and of its inner
 * ones (all four neighbours in the region), and then every step-th pixel of each gradient candidate
 * in scan order (its inner pixels only where its colour is measured on them). Both go run by run
 * along the rows, as the TypeScript did; the sums are of whole numbers, exact in doubles, so they
 * are the numbers the TypeScript made, and the samples are the same pixels in the same order. The
 * caller (engine/wasm/paint-sums.ts) hands the labels (and the pixels) over in bands of rows, each
 * with the row above and below it, so this module's memory stays a band's size and the regions'
 * whatever the image's.
 */

import { addTo, i32At, setI32 } from './lib/memory';

/** The sums of `regionCount` regions zeroed: colour sums (3 a region) and squares, all pixels' and inner pixels', and inner counts. */
export function beginSums(
  regionCount: i32,
  sums: usize,
  squares: usize,
  innerSums: usize,
  innerSquares: usize,
  innerArea: usize,
): void {
  const n = <usize>regionCount;
  memory.fill(sums, 0, n * 24);
  memory.fill(squares, 0, n << 3);
  memory.fill(innerSums, 0, n * 24);
  memory.fill(innerSquares, 0, n << 3);
  memory.fill(innerArea, 0, n << 2);
}

/**
 * Rows y0 to y1 - 1 added to the sums. `labels` holds the rows from max(0, y0 - 1) to
 * min(height, y1 + 1), `data` rows y0 to y1 - 1 (channels bytes a pixel, RGB first). A run's sums
 * gather in integers (a run's sum of squares can pass 2³¹, so 64 bits) and go to the region's
 * doubles once a run.
 */
export function sumBand(
  width: i32,
  height: i32,
  y0: i32,
  y1: i32,
  data: usize,
  channels: i32,
  labels: usize,
  sums: usize,
  squares: usize,
  innerSums: usize,
  innerSquares: usize,
  innerArea: usize,
): void {
  const firstRow = y0 > 0 ? y0 - 1 : 0;
  const step = <usize>channels;
  for (let y = y0; y < y1; y++) {
    const row = (y - firstRow) * width;
    // the rows above and below as offsets, 0 past the image's edge: a pixel is in its own region
    const up = y > 0 ? -width : 0,
      down = y + 1 < height ? width : 0;
    let o = data + <usize>((y - y0) * width) * step;
    for (let start = 0; start < width; ) {
      const l = i32At(labels, row + start);
      let end = start + 1;
      while (end < width && i32At(labels, row + end) === l) end++;
      // left and right are in the region except at the run's ends, unless that end is the image's edge
      const innerFrom = start > 0 ? start + 1 : start,
        innerTo = end < width ? end - 1 : end;
      let red = 0,
        green = 0,
        blue = 0,
        innerRed = 0,
        innerGreen = 0,
        innerBlue = 0,
        innerCount = 0;
      let square: i64 = 0,
        innerSquare: i64 = 0;
      // span by span of pixels all inner or all not: the labels looked at apart from the colours
      for (let x = start; x < end; ) {
        const inner = x >= innerFrom && x < innerTo && innerAt(labels, row + x, up, down, l);
        let spanEnd = x + 1;
        if (inner) while (spanEnd < innerTo && innerAt(labels, row + spanEnd, up, down, l)) spanEnd++;
        else while (spanEnd < end && !(spanEnd >= innerFrom && spanEnd < innerTo && innerAt(labels, row + spanEnd, up, down, l))) spanEnd++;
        let spanRed = 0,
          spanGreen = 0,
          spanBlue = 0;
        let spanSquare: i64 = 0;
        const count = spanEnd - x;
        for (; x < spanEnd; x++, o += step) {
          const r = <i32>load<u8>(o),
            g = <i32>load<u8>(o, 1),
            b = <i32>load<u8>(o, 2);
          spanRed += r;
          spanGreen += g;
          spanBlue += b;
          spanSquare += r * r + g * g + b * b;
        }
        red += spanRed;
        green += spanGreen;
        blue += spanBlue;
        square += spanSquare;
        if (inner) {
          innerRed += spanRed;
          innerGreen += spanGreen;
          innerBlue += spanBlue;
          innerSquare += spanSquare;
          innerCount += count;
        }
      }
      addTo(sums, 3 * l, <f64>red);
      addTo(sums, 3 * l + 1, <f64>green);
      addTo(sums, 3 * l + 2, <f64>blue);
      addTo(squares, l, <f64>square);
      addTo(innerSums, 3 * l, <f64>innerRed);
      addTo(innerSums, 3 * l + 1, <f64>innerGreen);
      addTo(innerSums, 3 * l + 2, <f64>innerBlue);
      addTo(innerSquares, l, <f64>innerSquare);
      setI32(innerArea, l, i32At(innerArea, l) + innerCount);
      start = end;
    }
  }
}

/** Every region's first pixel (inner pixel where `byInner`) is its first sample. */
export function beginSamples(regionCount: i32, untilNext: usize): void {
  for (let r = 0; r < regionCount; r++) setI32(untilNext, r, 1);
}

/** The region being sampled: pixels still to pass before its next sample, where that goes, and the pairs written so far. */
let until: i32 = 0,
  next: i32 = 0,
  written: i32 = 0;

/**
 * Rows y0 to y1 - 1 sampled: of each region with a sampling step (`step`, 0: none), every step-th
 * pixel in scan order (every step-th inner pixel where `byInner`), counted on from the rows before
 * (`untilNext`: pixels still to pass, the next being sampled when it reaches 0). `labels` holds the
 * rows from max(0, y0 - 1) to min(height, y1 + 1). Each sample goes to `out` as a pair: its place
 * in the samples (from `nextSample`, then advanced) and its pixel. Returns how many pairs.
 */
export function sampleBand(
  width: i32,
  height: i32,
  y0: i32,
  y1: i32,
  labels: usize,
  step: usize,
  byInner: usize,
  untilNext: usize,
  nextSample: usize,
  out: usize,
): i32 {
  const firstRow = y0 > 0 ? y0 - 1 : 0;
  written = 0;
  for (let y = y0; y < y1; y++) {
    const row = (y - firstRow) * width,
      image = y * width;
    const up = y > 0 ? -width : 0,
      down = y + 1 < height ? width : 0;
    for (let start = 0; start < width; ) {
      const l = i32At(labels, row + start);
      let end = start + 1;
      while (end < width && i32At(labels, row + end) === l) end++;
      const every = i32At(step, l);
      if (every === 0) {
        start = end;
        continue;
      }
      until = i32At(untilNext, l);
      next = i32At(nextSample, l);
      if (load<u8>(byInner + <usize>l) !== 0) {
        const innerFrom = start > 0 ? start + 1 : start,
          innerTo = end < width ? end - 1 : end;
        // span by span of inner pixels: the pixels counted are the same, and the sums pass's
        for (let x = innerFrom; x < innerTo; ) {
          while (x < innerTo && !innerAt(labels, row + x, up, down, l)) x++;
          let spanEnd = x;
          while (spanEnd < innerTo && innerAt(labels, row + spanEnd, up, down, l)) spanEnd++;
          sampleSpan(out, image, x, spanEnd, every);
          x = spanEnd;
        }
      } else sampleSpan(out, image, start, end, every);
      setI32(untilNext, l, until);
      setI32(nextSample, l, next);
      start = end;
    }
  }
  return written;
}

/**
 * Counts pixels x0 to x1 - 1 of a row (pixel `image` its first) on from `until`, each that brings it to 0 a
 * sample: those are `every` apart from the one `until` pixels in.
 */
@inline
function sampleSpan(out: usize, image: i32, x0: i32, x1: i32, every: i32): void {
  if (until > x1 - x0) {
    until -= x1 - x0;
    return;
  }
  let x = x0 + until - 1;
  for (; x < x1; x += every) {
    setI32(out, 2 * written, next++);
    setI32(out, 2 * written + 1, image + x);
    written++;
  }
  // x - every was the last sample: the pixels after it brought `until` down from `every`
  until = every - (x1 - 1 - (x - every));
}

/** Whether pixel p, inside its row's run of label l, has l above and below it (`up`, `down`: 0 at the image's edge). */
@inline
function innerAt(labels: usize, p: i32, up: i32, down: i32, l: i32): bool {
  return i32At(labels, p + up) === l && i32At(labels, p + down) === l;
}
