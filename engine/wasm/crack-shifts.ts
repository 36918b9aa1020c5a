/**
 * The crack-shift kernel (./assembly/crack-shifts.ts, compiled into ./crack-shifts-module.ts) seen
 * from TypeScript: the image's colours and labels, the regions' mean colours and the listed chains'
 * crack points copied in, every listed crack's shift copied out. Each thread compiles the module
 * once and keeps one instance; its memory is kept for the next trace up to ./kernel.ts KEPT_MEMORY,
 * and let go after a larger image.
 */
import { CRACK_SHIFTS_WASM } from './crack-shifts-module.js';
import { after, growTo, kernelLoader, LAYOUT_START } from './kernel.js';

interface CrackShiftExports {
  memory: WebAssembly.Memory;
  crackShifts(
    width: number,
    height: number,
    rgb: number,
    labels: number,
    mean: number,
    points: number,
    chains: number,
    count: number,
    shifts: number,
  ): void;
}

/** i32 per listed chain in the kernel's table (./assembly/crack-shifts.ts CHAIN_FIELDS). */
const CHAIN_FIELDS = 5;

const loader = kernelLoader<CrackShiftExports>(CRACK_SHIFTS_WASM);

/** A chain whose cracks are shifted: its crack points (x, y), closed or not, and its two regions. */
interface ShiftedChain {
  points: Float64Array;
  closed: boolean;
  right: number;
  left: number;
}

export interface CrackShiftInput {
  width: number;
  height: number;
  /** RGB, 3 bytes a pixel. */
  rgb: Uint8Array;
  labels: Int32Array;
  /** Each region's mean colour, three numbers a region. */
  mean: Float64Array;
  chains: ShiftedChain[];
}

/**
 * Every crack's shift along its left normal (engine/boundary/subpixel.ts says how), chain after
 * chain: chain k's are shifts[first[k] ..] (as many as its cracks: its points when closed, one
 * fewer when open). The arrays are the caller's (copied out of the kernel).
 */
export function crackShiftsInKernel(input: CrackShiftInput): { shifts: Float64Array; first: Int32Array } {
  const { width, height, rgb, labels, mean, chains } = input;
  const kernel = loader.instance();
  const n = width * height;
  const first = new Int32Array(chains.length + 1);
  let pointNumbers = 0;
  for (let k = 0; k < chains.length; k++) {
    const { points, closed } = chains[k];
    pointNumbers += points.length;
    first[k + 1] = first[k] + (closed ? points.length >> 1 : (points.length >> 1) - 1);
  }
  const rgbAt = LAYOUT_START;
  const labelsAt = after(rgbAt, 3 * n);
  const meanAt = after(labelsAt, 4 * n);
  const pointsAt = after(meanAt, 8 * mean.length);
  const chainsAt = after(pointsAt, 8 * pointNumbers);
  const shiftsAt = after(chainsAt, 4 * CHAIN_FIELDS * chains.length);
  growTo(kernel.memory, after(shiftsAt, 8 * first[chains.length]));
  const memory = kernel.memory.buffer;
  new Uint8Array(memory, rgbAt, 3 * n).set(rgb.subarray(0, 3 * n));
  new Int32Array(memory, labelsAt, n).set(labels.subarray(0, n));
  new Float64Array(memory, meanAt, mean.length).set(mean);
  const points = new Float64Array(memory, pointsAt, pointNumbers);
  const table = new Int32Array(memory, chainsAt, CHAIN_FIELDS * chains.length);
  for (let k = 0, at = 0; k < chains.length; k++) {
    const chain = chains[k];
    points.set(chain.points, at);
    table[CHAIN_FIELDS * k] = at;
    table[CHAIN_FIELDS * k + 1] = chain.points.length >> 1;
    table[CHAIN_FIELDS * k + 2] = chain.closed ? 1 : 0;
    table[CHAIN_FIELDS * k + 3] = chain.right;
    table[CHAIN_FIELDS * k + 4] = chain.left;
    at += chain.points.length;
  }
  kernel.crackShifts(width, height, rgbAt, labelsAt, meanAt, pointsAt, chainsAt, chains.length, shiftsAt);
  const shifts = new Float64Array(memory, shiftsAt, first[chains.length]).slice();
  loader.release();
  return { shifts, first };
}
