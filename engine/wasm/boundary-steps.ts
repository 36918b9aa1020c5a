/**
 * The boundary-steps kernel (./assembly/boundary-steps.ts, compiled into ./boundary-steps-module.ts)
 * seen from TypeScript: the labels and pixels go in band by band (a band with a row above and two
 * below it, so the kernel's memory stays a band's worth plus the table), the
 * table grows when a row might fill it, and its entries come out in the order the pairs were first
 * met. Each thread compiles the module once and keeps one instance.
 */
import { BOUNDARY_STEPS_WASM } from './boundary-steps-module.js';
import { after, bandRowsFor, COPY_SLACK, copyIn, growTo, kernelLoader, LAYOUT_START } from './kernel.js';

interface BoundaryStepsExports {
  memory: WebAssembly.Memory;
  setTable(a: number, b: number, sum: number, pairs: number, hard: number, slots: number, room: number, entries: number): void;
  entries(): number;
  scanRows(
    width: number,
    rows: number,
    y0: number,
    y1: number,
    labels: number,
    data: number,
    pixelBytes: number,
    area: number,
    transparent: number,
    hard2: number,
  ): number;
}

const loader = kernelLoader<BoundaryStepsExports>(BOUNDARY_STEPS_WASM);

/** Per pair of regions (a < b), in the order first met: summed RGB distance, pixel pairs, hard steps. */
export interface BoundarySteps {
  count: number;
  a: Int32Array;
  b: Int32Array;
  sum: Float64Array;
  pixelPairs: Int32Array;
  hard: Int32Array;
}

export function boundaryStepsInKernel(
  width: number,
  height: number,
  data: Uint8Array,
  channels: number,
  labels: Int32Array,
  area: Int32Array,
  transparent: Uint8Array,
  hardStep: number,
  bandPixels?: number,
): BoundarySteps {
  const kernel = loader.instance();
  const regionCount = area.length;
  const bandRows = bandRowsFor(width, bandPixels);
  const rowsHeld = bandRows + 3;
  const areaAt = LAYOUT_START;
  const clearAt = after(areaAt, 4 * regionCount);
  const labelsAt = after(clearAt, regionCount);
  const dataAt = after(labelsAt, 4 * width * rowsHeld + COPY_SLACK);
  const tableAt = after(dataAt, channels * width * rowsHeld + COPY_SLACK);
  // a row may add two pairs a pixel: room for that at least (a power of two, the slots' mask)
  let room = 1024;
  while (room < 4 * width) room *= 2;
  let table = layTable(kernel, tableAt, room);
  kernel.setTable(table.a, table.b, table.sum, table.pairs, table.hard, table.slots, room, 0);
  new Int32Array(kernel.memory.buffer, areaAt, regionCount).set(area);
  new Uint8Array(kernel.memory.buffer, clearAt, regionCount).set(transparent.subarray(0, regionCount));
  for (let y0 = 0; y0 < height;) {
    const y1 = Math.min(height, y0 + bandRows);
    const from = Math.max(0, y0 - 1) * width,
      to = Math.min(height, y1 + 2) * width;
    const labelsHere = copyIn(kernel.memory.buffer, labelsAt, labels.subarray(from, to));
    const dataHere = copyIn(kernel.memory.buffer, dataAt, data.subarray(channels * from, channels * to));
    const reached = kernel.scanRows(width, height, y0, y1, labelsHere, dataHere, channels, areaAt, clearAt, hardStep * hardStep);
    if (reached < y1) {
      // the table is nearly full: twice the room, the entries copied over, the band's rows from `reached` again
      const entries = readTable(kernel, table, kernel.entries());
      room *= 2;
      table = layTable(kernel, tableAt, room);
      writeTable(kernel, table, entries);
      kernel.setTable(table.a, table.b, table.sum, table.pairs, table.hard, table.slots, room, entries.count);
    }
    y0 = reached;
  }
  return readTable(kernel, table, kernel.entries());
}

interface TableLayout {
  a: number;
  b: number;
  sum: number;
  pairs: number;
  hard: number;
  slots: number;
}

/** The table's arrays from `at` on, for `room` entries and twice as many slots, the memory grown to hold them. */
function layTable(kernel: BoundaryStepsExports, at: number, room: number): TableLayout {
  const a = at,
    b = after(a, 4 * room),
    sum = after(b, 4 * room),
    pairs = after(sum, 8 * room),
    hard = after(pairs, 4 * room),
    slots = after(hard, 4 * room),
    end = after(slots, 8 * room);
  growTo(kernel.memory, end);
  return { a, b, sum, pairs, hard, slots };
}

function readTable(kernel: BoundaryStepsExports, table: TableLayout, count: number): BoundarySteps {
  const memory = kernel.memory.buffer;
  return {
    count,
    a: new Int32Array(memory, table.a, count).slice(),
    b: new Int32Array(memory, table.b, count).slice(),
    sum: new Float64Array(memory, table.sum, count).slice(),
    pixelPairs: new Int32Array(memory, table.pairs, count).slice(),
    hard: new Int32Array(memory, table.hard, count).slice(),
  };
}

function writeTable(kernel: BoundaryStepsExports, table: TableLayout, entries: BoundarySteps): void {
  const memory = kernel.memory.buffer;
  new Int32Array(memory, table.a, entries.count).set(entries.a);
  new Int32Array(memory, table.b, entries.count).set(entries.b);
  new Float64Array(memory, table.sum, entries.count).set(entries.sum);
  new Int32Array(memory, table.pairs, entries.count).set(entries.pixelPairs);
  new Int32Array(memory, table.hard, entries.count).set(entries.hard);
}
