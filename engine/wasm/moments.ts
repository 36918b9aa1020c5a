/**
 * The moments kernel (./assembly/moments.ts, compiled into ./moments-module.ts) seen from
 * TypeScript: copies the labels and pixels in band by band (a band and the rows beside it, so the
 * kernel's memory stays a band's worth whatever the image), and the edge flags,
 * pixel lists, sums and reference pixels of the measured regions out. Each thread compiles the
 * module once and keeps one instance.
 */
import { MOMENTS_WASM } from './moments-module.js';
import { after, bandRowsFor, COPY_SLACK, copyIn, growTo, kernelLoader, LAYOUT_START } from './kernel.js';
import { MOMENTS } from '../segment/colour-moments.js';

interface MomentsExports {
  memory: WebAssembly.Memory;
  begin(mine: number, regionCount: number, sums: number, refY: number): void;
  measureBand(
    width: number,
    height: number,
    y0: number,
    y1: number,
    data: number,
    channels: number,
    labels: number,
    mine: number,
    sums: number,
    refX: number,
    refY: number,
    edges: number,
    hard2: number,
    listed: number,
    runs: number,
  ): number;
}

/**
 * Numbers per region's block of sums, its clean pixels' then its edge pixels' (engine/segment/
 * gradient-bands.ts MOMENT_BLOCK; the kernel is written for 59 a set).
 */
const BLOCK = 2 * MOMENTS;

const loader = kernelLoader<MomentsExports>(MOMENTS_WASM);

/** What the moments pass reads and where it writes (engine/segment/gradient-bands.ts measureMoments). */
export interface MomentsPass {
  width: number;
  height: number;
  /** The source pixels, `channels` bytes each. */
  data: Uint8Array;
  channels: number;
  labels: Int32Array;
  regionCount: number;
  /** Per region: its block of sums to measure, -1 for one this pass leaves alone. */
  mine: Int32Array;
  hardStep: number;
  /** Written for the measured regions only: their blocks of sums, reference pixels and pixels' edge flags. */
  sums: Float64Array;
  refX: Int32Array;
  refY: Int32Array;
  edgePixel: Uint8Array;
  /** With lists: each measured region's pixels go to pixels[first[r] ..], in scan order. */
  lists: { pixels: Int32Array; first: Int32Array } | null;
  /** Tests only: about this many pixels a band (./kernel.ts bandRowsFor). */
  bandPixels?: number;
}

/** The moments pass in the kernel. */
export function measureMomentsInKernel(pass: MomentsPass): void {
  const { width, height, data, channels, labels, regionCount, mine, sums, refX, refY, edgePixel, lists } = pass;
  const blocks = refX.length;
  const kernel = loader.instance();
  const bandRows = bandRowsFor(width, pass.bandPixels);
  const rowsHeld = bandRows + 2;
  const mineAt = LAYOUT_START;
  const sumsAt = after(mineAt, 4 * regionCount);
  const refXAt = after(sumsAt, 8 * BLOCK * blocks);
  const refYAt = after(refXAt, 4 * blocks);
  const listedAt = after(refYAt, 4 * blocks);
  const labelsAt = after(listedAt, 4 * regionCount);
  const dataAt = after(labelsAt, 4 * width * rowsHeld + COPY_SLACK);
  const edgesAt = after(dataAt, channels * width * rowsHeld + COPY_SLACK);
  const runsAt = after(edgesAt, width * bandRows);
  const end = after(runsAt, 12 * width * bandRows);
  growTo(kernel.memory, end);
  const memory = kernel.memory.buffer;
  new Int32Array(memory, mineAt, regionCount).set(mine.subarray(0, regionCount));
  if (lists) new Int32Array(memory, listedAt, regionCount).set(lists.first.subarray(0, regionCount));
  kernel.begin(mineAt, regionCount, sumsAt, refYAt);
  const kernelEdges = new Uint8Array(memory, edgesAt, width * bandRows),
    kernelRuns = new Int32Array(memory, runsAt, 3 * width * bandRows);
  for (let y0 = 0; y0 < height; y0 += bandRows) {
    const y1 = Math.min(height, y0 + bandRows);
    // the band and the rows above and below it (edge flags compare with them)
    const from = Math.max(0, y0 - 1) * width,
      to = Math.min(height, y1 + 1) * width;
    const labelsHere = copyIn(memory, labelsAt, labels.subarray(from, to));
    const dataHere = copyIn(memory, dataAt, data.subarray(channels * from, channels * to));
    const runs = kernel.measureBand(
      width,
      height,
      y0,
      y1,
      dataHere,
      channels,
      labelsHere,
      mineAt,
      sumsAt,
      refXAt,
      refYAt,
      edgesAt,
      pass.hardStep * pass.hardStep,
      lists ? listedAt : 0,
      runsAt,
    );
    const bandStart = y0 * width;
    for (let k = 0; k < runs; k++) {
      const at = kernelRuns[3 * k],
        first = kernelRuns[3 * k + 1],
        count = kernelRuns[3 * k + 2];
      // copied pixel by pixel: most runs are a few pixels, shorter than a view and a set() take to make
      const from = first - bandStart;
      for (let i = 0; i < count; i++) edgePixel[first + i] = kernelEdges[from + i];
      if (lists) for (let i = 0; i < count; i++) lists.pixels[at + i] = first + i;
    }
  }
  const kernelSums = new Float64Array(memory, sumsAt, BLOCK * blocks),
    kernelRefX = new Int32Array(memory, refXAt, blocks),
    kernelRefY = new Int32Array(memory, refYAt, blocks);
  for (let r = 0; r < regionCount; r++) {
    const block = mine[r];
    if (block < 0) continue;
    sums.set(kernelSums.subarray(BLOCK * block, BLOCK * (block + 1)), BLOCK * block);
    refY[block] = kernelRefY[block];
    // a region without pixels here has no reference pixel (refY -1) and its refX stays as it was
    if (refY[block] >= 0) refX[block] = kernelRefX[block];
  }
}
