/**
 * The segmentation's flood (engine/segment/index.ts floodSeeds) in AssemblyScript, compiled to
 * WebAssembly by `npm run build:wasm` (engine/wasm/flood-module.ts holds the bytes). A seed's
 * region is the 8-connected component of its kind within tolerance of its colour, whatever order
 * the fill visits it in, and every sum is a whole number far below 2^53, exact in any order: the
 * labels and sums are those of the pixel-by-pixel flood in test/engine/helpers/reference-flood.ts
 * (its test checks them). Compiled from AssemblyScript it ran in 0.5–0.6 of the time V8 made of the
 * same fill in TypeScript (docs/performance.md, round 22).
 *
 * Everything lives in this module's memory at offsets the caller passes (engine/wasm/flood.ts lays
 * it out): the image's RGB, its transparency (one byte a pixel, or none), the labels, the table of
 * squares, each seed's sums and first pixel, and last the segment stack, which grows the memory
 * itself when it is full (it lies at the end, so growing never moves anything).
 */

/** A pixel not yet labelled: painted, or transparent (one read tells the fill both). */
const UNLABELLED_OPAQUE: i32 = -1;
const UNLABELLED_CLEAR: i32 = -2;
/** Numbers per seed: n, Σx, Σy, Σxx, Σxy, Σyy, Σr, Σg, Σb, Σrx, Σgx, Σbx, Σry, Σgy, Σby, Σ(r²+g²+b²). */
const PLANE_STRIDE: i32 = 16;

/**
 * A row segment on the stack: its row, first and last pixel, the row it was found from and that
 * row's run (first, last), and which ends may grow along the row (EXTEND_LEFT | EXTEND_RIGHT).
 */
const SEGMENT: i32 = 7;
/**
 * A run found in a neighbour row's scan can grow along its row only past an end where the scan
 * stopped at its range: elsewhere the pixel beside it was already seen labelled or refused.
 */
const EXTEND_LEFT: i32 = 1;
const EXTEND_RIGHT: i32 = 2;

/** Where the stack lies and how many i32 it holds (grown by floodRegion). */
let stackAt: usize = 0;
let stackCapacity: i32 = 0;
/** Seeds the last floodBatch flooded. */
let batchSeeds: i32 = 0;

/** Labels every pixel unlabelled of its kind, and squares[k + 1] = Σ i² for i ≤ k (a stretch's Σx² is a difference of two entries). */
export function prepare(labels: usize, clear: usize, n: i32, squares: usize, width: i32): void {
  if (clear === 0) {
    for (let p = 0; p < n; p++) store<i32>(labels + (<usize>p << 2), UNLABELLED_OPAQUE);
  } else {
    for (let p = 0; p < n; p++) store<i32>(labels + (<usize>p << 2), load<u8>(clear + <usize>p) !== 0 ? UNLABELLED_CLEAR : UNLABELLED_OPAQUE);
  }
  store<f64>(squares, 0);
  for (let k = 0; k < width; k++) store<f64>(squares + (<usize>(k + 1) << 3), load<f64>(squares + (<usize>k << 3)) + <f64>k * <f64>k);
}

/** Sets where the segment stack starts and how many i32 fit there before the memory must grow. */
export function setStack(at: usize, capacity: i32): void {
  stackAt = at;
  stackCapacity = capacity;
}

/** How many seeds the last floodBatch flooded. */
export function floodedSeeds(): i32 {
  return batchSeeds;
}

/**
 * Floods the seeds found from pixel `start` on, in scan order, numbering them from `firstLabel`,
 * until `maxSeeds` are done or the next seed would start at or past `startLimit`. Seed k of the
 * batch writes its sums to sums[16·k ..] and its first pixel to seedStarts[k]. Returns where the
 * scan for the next seed goes on (n when every pixel is labelled).
 */
export function floodBatch(
  width: i32,
  height: i32,
  rgb: usize,
  clear: usize,
  labels: usize,
  squares: usize,
  sums: usize,
  seedStarts: usize,
  tol2: f64,
  start: i32,
  firstLabel: i32,
  maxSeeds: i32,
  startLimit: i32,
): i32 {
  const n = width * height;
  let seeds = 0;
  let p = start;
  for (; p < n; p++) {
    if (load<i32>(labels + (<usize>p << 2)) >= 0) continue;
    if (seeds === maxSeeds || p >= startLimit) break;
    const isClear = clear !== 0 && load<u8>(clear + <usize>p) !== 0;
    floodRegion(width, height, rgb, labels, squares, tol2, p, firstLabel + seeds, isClear, sums + (<usize>(seeds * PLANE_STRIDE) << 3));
    store<i32>(seedStarts + (<usize>seeds << 2), p);
    seeds++;
  }
  batchSeeds = seeds;
  return p;
}

@inline
function labelAt(labels: usize, q: i32): i32 {
  return load<i32>(labels + (<usize>q << 2));
}

/** Whether colour (r, g, b) lies within the tolerance of the seed's colour (r0, g0, b0). */
@inline
function nearSeedColour(r: i32, g: i32, b: i32, r0: i32, g0: i32, b0: i32, tol2: f64): bool {
  const dr = r - r0,
    dg = g - g0,
    db = b - b0;
  return <f64>(dr * dr + dg * dg + db * db) <= tol2;
}

/**
 * Adds one row's stretches (on row y) to a seed's record of sums; their moments in y follow from
 * the row. Whole numbers throughout, so the sums are those of adding pixel by pixel.
 */
@inline
function addStretch(at: usize, y: i32, area: f64, sumX: f64, sumXX: f64, sr: f64, sg: f64, sb: f64, srx: f64, sgx: f64, sbx: f64, sq: f64): void {
  const fy = <f64>y;
  store<f64>(at, load<f64>(at) + area);
  store<f64>(at, load<f64>(at, 8) + sumX, 8);
  store<f64>(at, load<f64>(at, 16) + fy * area, 16);
  store<f64>(at, load<f64>(at, 24) + sumXX, 24);
  store<f64>(at, load<f64>(at, 32) + fy * sumX, 32);
  store<f64>(at, load<f64>(at, 40) + fy * (fy * area), 40);
  store<f64>(at, load<f64>(at, 48) + sr, 48);
  store<f64>(at, load<f64>(at, 56) + sg, 56);
  store<f64>(at, load<f64>(at, 64) + sb, 64);
  store<f64>(at, load<f64>(at, 72) + srx, 72);
  store<f64>(at, load<f64>(at, 80) + sgx, 80);
  store<f64>(at, load<f64>(at, 88) + sbx, 88);
  store<f64>(at, load<f64>(at, 96) + fy * sr, 96);
  store<f64>(at, load<f64>(at, 104) + fy * sg, 104);
  store<f64>(at, load<f64>(at, 112) + fy * sb, 112);
  store<f64>(at, load<f64>(at, 120) + sq, 120);
}

/** Σ x for lo ≤ x ≤ hi in closed form (0 when hi < lo): a whole number, as adding them one by one makes. */
@inline
function stretchSum(lo: i32, hi: i32): f64 {
  return (<f64>(lo + hi) * <f64>(hi - lo + 1)) / 2;
}

@inline
function squareSum(squares: usize, k: i32): f64 {
  return load<f64>(squares + (<usize>k << 3));
}

/** Room for one more segment (SEGMENT i32) on the stack, growing the memory by whole pages when it is full. */
function ensureStack(top: i32): void {
  if (top + SEGMENT <= stackCapacity) return;
  const pages = (<i32>(((<usize>stackCapacity) << 2) >> 16)) + 1;
  if (memory.grow(pages) < 0) unreachable();
  stackCapacity += pages << 14;
}

/**
 * One seed's fill: the stack holds row segments already labelled; a popped one grows along its
 * row where it may (EXTEND_LEFT, EXTEND_RIGHT), then the rows above and below are scanned one pixel
 * past its ends, skipping the run it was found from and the pixel each side. A pixel of the colour of
 * the one before it along the row passes as that one did, and a run of one colour adds its sums
 * once, from its ends; a row's stretches are added to the seed's record once (addStretch).
 */
function floodRegion(
  width: i32,
  height: i32,
  rgb: usize,
  labels: usize,
  squares: usize,
  tol2: f64,
  start: i32,
  label: i32,
  isClear: bool,
  at: usize,
): void {
  const free = isClear ? UNLABELLED_CLEAR : UNLABELLED_OPAQUE;
  const so = rgb + <usize>(start * 3);
  const r0 = <i32>load<u8>(so),
    g0 = <i32>load<u8>(so, 1),
    b0 = <i32>load<u8>(so, 2);
  store<i32>(labels + (<usize>start << 2), label);
  const y0 = start / width,
    x0 = start - y0 * width;
  const fx0 = <f64>x0,
    fy0 = <f64>y0,
    fr0 = <f64>r0,
    fg0 = <f64>g0,
    fb0 = <f64>b0;
  // The seed pixel's sums go straight to the seed's record; each row stretch after it sums into
  // locals and is added there once (addStretch). Sixteen running sums held in locals across the
  // whole fill do not fit the machine's registers: the fill's own loops then lost theirs.
  store<f64>(at, 1);
  store<f64>(at, fx0, 8);
  store<f64>(at, fy0, 16);
  store<f64>(at, fx0 * fx0, 24);
  store<f64>(at, fx0 * fy0, 32);
  store<f64>(at, fy0 * fy0, 40);
  store<f64>(at, fr0, 48);
  store<f64>(at, fg0, 56);
  store<f64>(at, fb0, 64);
  store<f64>(at, fr0 * fx0, 72);
  store<f64>(at, fg0 * fx0, 80);
  store<f64>(at, fb0 * fx0, 88);
  store<f64>(at, fr0 * fy0, 96);
  store<f64>(at, fg0 * fy0, 104);
  store<f64>(at, fb0 * fy0, 112);
  store<f64>(at, <f64>(r0 * r0 + g0 * g0 + b0 * b0), 120);
  const stack = stackAt;
  let top = 0;
  ensureStack(top);
  // every pixel before the seed is labelled, so its whole row above counts as the parent's run
  store<i32>(stack, y0);
  store<i32>(stack, x0, 4);
  store<i32>(stack, x0, 8);
  store<i32>(stack, y0 - 1, 12);
  store<i32>(stack, 0, 16);
  store<i32>(stack, width - 1, 20);
  store<i32>(stack, EXTEND_LEFT | EXTEND_RIGHT, 24);
  top = SEGMENT;
  while (top > 0) {
    top -= SEGMENT;
    const popped = stack + (<usize>top << 2);
    const y = load<i32>(popped),
      parentRow = load<i32>(popped, 12),
      parentFirst = load<i32>(popped, 16),
      parentLast = load<i32>(popped, 20),
      extend = load<i32>(popped, 24);
    let xl = load<i32>(popped, 4),
      xr = load<i32>(popped, 8);
    const row = y * width;
    // the stretches of one row: pixels, Σx, Σx², Σr, Σg, Σb, Σrx, Σgx, Σbx, Σ(r²+g²+b²)
    let area: f64 = 0,
      sumX: f64 = 0,
      sumXX: f64 = 0,
      sr: f64 = 0,
      sg: f64 = 0,
      sb: f64 = 0,
      srx: f64 = 0,
      sgx: f64 = 0,
      sbx: f64 = 0,
      sq: f64 = 0;
    for (let step = -1; step <= 1; step += 2) {
      if ((extend & (step < 0 ? EXTEND_LEFT : EXTEND_RIGHT)) === 0) continue;
      const end = step < 0 ? 0 : width - 1;
      const from = step < 0 ? xl : xr;
      let x = from;
      // the colour of the pixels run so far and where along the row it began (a colour never read: -1)
      let pr: i32 = -1,
        pg: i32 = -1,
        pb: i32 = -1,
        colourFrom = x;
      // ...and packed (r | g << 8 | b << 16) to compare a pixel's colour in one step: read as four
      // bytes, the last one the next pixel's (past the last pixel lies the next array: see flood.ts)
      let pc: u32 = 0xffffffff;
      while (x !== end) {
        const q = row + x + step;
        if (labelAt(labels, q) !== free) break;
        const c = load<u32>(rgb + <usize>(q * 3)) & 0xffffff;
        if (c !== pc) {
          const r = <i32>(c & 0xff),
            g = <i32>((c >> 8) & 0xff),
            b = <i32>(c >> 16);
          if (!isClear && !nearSeedColour(r, g, b, r0, g0, b0, tol2)) break;
          pc = c;
          // the run of the colour before: the pixels after colourFrom up to x
          const lo = step < 0 ? x : colourFrom + 1,
            hi = step < 0 ? colourFrom - 1 : x;
          const count = <f64>(hi - lo + 1),
            runX = stretchSum(lo, hi);
          sr += <f64>pr * count;
          sg += <f64>pg * count;
          sb += <f64>pb * count;
          srx += <f64>pr * runX;
          sgx += <f64>pg * runX;
          sbx += <f64>pb * runX;
          sq += <f64>(pr * pr + pg * pg + pb * pb) * count;
          pr = r;
          pg = g;
          pb = b;
          colourFrom = x;
        }
        store<i32>(labels + (<usize>q << 2), label);
        x += step;
      }
      const lo = step < 0 ? x : colourFrom + 1,
        hi = step < 0 ? colourFrom - 1 : x;
      const count = <f64>(hi - lo + 1),
        runX = stretchSum(lo, hi);
      sr += <f64>pr * count;
      sg += <f64>pg * count;
      sb += <f64>pb * count;
      srx += <f64>pr * runX;
      sgx += <f64>pg * runX;
      sbx += <f64>pb * runX;
      sq += <f64>(pr * pr + pg * pg + pb * pb) * count;
      // the pixels it grew by, between `from` (not one of them) and x
      const first = step < 0 ? x : from + 1,
        last = step < 0 ? from - 1 : x;
      area += <f64>(last - first + 1);
      sumX += stretchSum(first, last);
      sumXX += squareSum(squares, last + 1) - squareSum(squares, first);
      if (step < 0) xl = x;
      else xr = x;
    }
    if (area !== 0) addStretch(at, y, area, sumX, sumXX, sr, sg, sb, srx, sgx, sbx, sq);
    const sx = xl > 0 ? xl - 1 : 0,
      ex = xr < width - 1 ? xr + 1 : xr;
    for (let ny = y - 1; ny <= y + 1; ny += 2) {
      if (ny < 0 || ny >= height) continue;
      const nrow = ny * width;
      area = sumX = sumXX = 0;
      sr = sg = sb = srx = sgx = sbx = sq = 0;
      // Up to two stretches: the scan minus the parent's run and the pixel each side of it when this
      // is the parent's row (the parent stopped growing along its row at those two: each is
      // labelled, or refused by this seed's colour for good, or past the row's end).
      const parentHere = ny === parentRow;
      for (let part = 0; part < 2; part++) {
        let from = sx,
          to = ex;
        if (parentHere) {
          if (part === 0) to = to < parentFirst - 2 ? to : parentFirst - 2;
          else from = from > parentLast + 2 ? from : parentLast + 2;
        } else if (part === 1) break;
        let x = from;
        while (x <= to) {
          let q = nrow + x;
          if (labelAt(labels, q) !== free) {
            x++;
            continue;
          }
          const o = rgb + <usize>(q * 3);
          let r = <i32>load<u8>(o),
            g = <i32>load<u8>(o, 1),
            b = <i32>load<u8>(o, 2);
          if (!isClear && !nearSeedColour(r, g, b, r0, g0, b0, tol2)) {
            x++;
            continue;
          }
          const runStart = x;
          let pr = r,
            pg = g,
            pb = b,
            colourFrom = x;
          let pc: u32 = <u32>r | (<u32>g << 8) | (<u32>b << 16);
          while (true) {
            store<i32>(labels + (<usize>q << 2), label);
            x++;
            if (x > to) break;
            q++;
            if (labelAt(labels, q) !== free) break;
            const c = load<u32>(rgb + <usize>(q * 3)) & 0xffffff;
            if (c !== pc) {
              r = <i32>(c & 0xff);
              g = <i32>((c >> 8) & 0xff);
              b = <i32>(c >> 16);
              if (!isClear && !nearSeedColour(r, g, b, r0, g0, b0, tol2)) break;
              pc = c;
              const count = <f64>(x - colourFrom),
                runX = stretchSum(colourFrom, x - 1);
              sr += <f64>pr * count;
              sg += <f64>pg * count;
              sb += <f64>pb * count;
              srx += <f64>pr * runX;
              sgx += <f64>pg * runX;
              sbx += <f64>pb * runX;
              sq += <f64>(pr * pr + pg * pg + pb * pb) * count;
              pr = r;
              pg = g;
              pb = b;
              colourFrom = x;
            }
          }
          const count = <f64>(x - colourFrom),
            runX = stretchSum(colourFrom, x - 1);
          sr += <f64>pr * count;
          sg += <f64>pg * count;
          sb += <f64>pb * count;
          srx += <f64>pr * runX;
          sgx += <f64>pg * runX;
          sbx += <f64>pb * runX;
          sq += <f64>(pr * pr + pg * pg + pb * pb) * count;
          // the stretch's count, Σx and Σx² in closed form: whole numbers, so the same doubles as adding pixel by pixel
          const last = x - 1,
            len = x - runStart;
          area += <f64>len;
          sumX += stretchSum(runStart, last);
          sumXX += squareSum(squares, x) - squareSum(squares, runStart);
          ensureStack(top);
          const pushed = stack + (<usize>top << 2);
          store<i32>(pushed, ny);
          store<i32>(pushed, runStart, 4);
          store<i32>(pushed, last, 8);
          store<i32>(pushed, y, 12);
          store<i32>(pushed, xl, 16);
          store<i32>(pushed, xr, 20);
          store<i32>(pushed, (runStart === from ? EXTEND_LEFT : 0) | (last === to ? EXTEND_RIGHT : 0), 24);
          top += SEGMENT;
          x++; // x was refused (or lies past the end)
        }
      }
      if (area !== 0) addStretch(at, ny, area, sumX, sumXX, sr, sg, sb, srx, sgx, sbx, sq);
    }
  }
}
