/**
 * The merge kernel (./assembly/merge.ts, compiled into ./merge-module.ts) seen from TypeScript:
 * the segmentation's region merging (engine/segment/index.ts mergeRegions) with the seed labels
 * and the flood's chunks of sums copied in and the compacted labels copied back out. The heap is
 * popped in slices so the abort signal is looked at between them, as the TypeScript looked at it
 * every 65 536 pops. Each thread compiles the module once and keeps one instance; its memory is
 * kept for the next trace up to ./kernel.ts KEPT_MEMORY, as the flood's is.
 */
import { MERGE_WASM } from './merge-module.js';
import { after, growTo, kernelLoader, LAYOUT_START } from './kernel.js';
import { checkAbort, type StageContext } from '../stage.js';
import { rowRunsTables, type RegionLabels, type RowRuns } from '../segment/renumber.js';

interface MergeExports {
  memory: WebAssembly.Memory;
  begin(
    width: number,
    height: number,
    seeds: number,
    plane: boolean,
    labels: number,
    seedClear: number,
    denseOf: number,
    liveClear: number,
    stats: number,
    zeros: number,
    staging: number,
    tail: number,
  ): void;
  addSeeds(firstSeed: number, seeds: number): void;
  liveSeeds(): number;
  notePairs(): number;
  buildHeap(): void;
  mergeSteps(maxCost: number, minArea: number, steps: number): number;
  compact(): number;
  areaAt(): number;
  clearAt(): number;
  colourSumsAt(): number;
  runStartsAt(): number;
  rowRunsAt(): number;
}

/** Numbers per seed in the flood's chunks (engine/segment/index.ts PLANE_STRIDE). */
const SEED_NUMBERS = 16;
/** Pops (or re-queues) between two looks at the abort signal. */
const STEPS_PER_SLICE = 1 << 16;

const loader = kernelLoader<MergeExports>(MERGE_WASM);

/** The seeds as the flood and the folding leave them, and the merging's settings. */
export interface MergeInput {
  width: number;
  height: number;
  /** Each pixel's seed; overwritten with the final labels. */
  labels: Int32Array;
  seedCount: number;
  /** 1 for a transparent seed. */
  seedTransparent: Uint8Array;
  /** The seeds' sums, SEED_NUMBERS each, `chunkSeeds` seeds a chunk (the last one partly used). */
  chunks: Float64Array[];
  chunkSeeds: number;
  plane: boolean;
  maxCost: number;
  minArea: number;
}

/**
 * mergeRegions in the kernel: the regions' labels (written into `labels`), areas, transparency and
 * colour sums, and the labels' runs along the rows (rowRunsOf's, in its tables), which the kernel
 * has from compacting them run by run.
 */
export function mergeInKernel(input: MergeInput, context: StageContext): { regions: Required<RegionLabels>; runs: RowRuns } {
  const { width, height, labels, seedCount: count, chunks, chunkSeeds } = input;
  const kernel = loader.instance();
  const n = width * height;
  const stride = input.plane ? SEED_NUMBERS : 4;
  const labelsAt = LAYOUT_START;
  const seedClearAt = after(labelsAt, 4 * n);
  const denseOfAt = after(seedClearAt, count);
  const liveClearAt = after(denseOfAt, 4 * count);
  const statsAt = after(liveClearAt, count);
  const zerosAt = after(statsAt, 8 * stride * count);
  const stagingAt = after(zerosAt, 8 * SEED_NUMBERS);
  growTo(kernel.memory, after(stagingAt, 8 * SEED_NUMBERS * Math.min(count, chunkSeeds)));
  let memory = kernel.memory.buffer;
  new Int32Array(memory, labelsAt, n).set(labels.subarray(0, n));
  new Uint8Array(memory, seedClearAt, count).set(input.seedTransparent.subarray(0, count));
  kernel.begin(width, height, count, input.plane, labelsAt, seedClearAt, denseOfAt, liveClearAt, statsAt, zerosAt, stagingAt, stagingAt);
  const staging = new Float64Array(memory, stagingAt, SEED_NUMBERS * Math.min(count, chunkSeeds));
  for (let c = 0, first = 0; first < count; c++, first += chunkSeeds) {
    const seeds = Math.min(chunkSeeds, count - first);
    staging.set(chunks[c].subarray(0, SEED_NUMBERS * seeds));
    kernel.addSeeds(first, seeds);
  }
  const pairCount = kernel.notePairs();
  checkAbort(context);
  kernel.buildHeap();
  for (;;) {
    const left = kernel.mergeSteps(input.maxCost, input.minArea, STEPS_PER_SLICE);
    if (left === 0) break;
    checkAbort(context);
    context.progress(0.25 + 0.7 * (1 - left / Math.max(1, pairCount)));
  }
  const regionCount = kernel.compact();
  // views made after the kernel's work: a grown memory has a new buffer
  memory = kernel.memory.buffer;
  labels.set(new Int32Array(memory, labelsAt, n));
  const regions = {
    labels,
    regionCount,
    area: new Int32Array(memory, kernel.areaAt(), regionCount).slice(),
    transparent: new Uint8Array(memory, kernel.clearAt(), regionCount).slice(),
    colourSums: new Float64Array(memory, kernel.colourSumsAt(), 3 * regionCount).slice(),
  };
  const rowRuns = new Int32Array(memory, kernel.rowRunsAt(), height + 1);
  const runCount = rowRuns[height];
  const runs = rowRunsTables(runCount, height);
  runs.starts.set(new Int32Array(memory, kernel.runStartsAt(), runCount + 1));
  runs.rowRuns.set(rowRuns);
  loader.release();
  return { regions, runs };
}

/** This thread's kernel memory in bytes (0 before the first merge or after a dropped one); exported for its test. */
export function mergeMemoryBytes(): number {
  return loader.current()?.memory.buffer.byteLength ?? 0;
}
