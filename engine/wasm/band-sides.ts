/**
 * The band-sides kernel (./assembly/band-sides.ts, compiled into ./band-sides-module.ts) seen from
 * TypeScript: the band pixels go in row band by row band, with their labels and colours and the
 * two rows above and below (a pixel's window reaches that far), so the kernel's memory stays
 * a band's worth whatever the image. Each thread compiles the module once and
 * keeps one instance.
 */
import { BAND_SIDES_WASM } from './band-sides-module.js';
import { after, bandRowsFor, COPY_SLACK, copyIn, growTo, kernelLoader, LAYOUT_START } from './kernel.js';

interface BandSidesExports {
  memory: WebAssembly.Memory;
  chooseSides(
    count: number,
    pixels: number,
    movedTo: number,
    width: number,
    height: number,
    firstRow: number,
    labels: number,
    rgb: number,
    unjoinable: number,
    band: number,
    mean: number,
    minContrast2: number,
    offLine2: number,
    scratch: number,
  ): number;
}

/** Rows a window reaches above and below its pixel (engine/segment/antialias.ts REACH). */
const REACH = 2;

const loader = kernelLoader<BandSidesExports>(BAND_SIDES_WASM);

/** What the choice reads (engine/segment/antialias.ts absorbAntialiasBands) and where it writes. */
export interface BandSides {
  width: number;
  height: number;
  labels: Int32Array;
  /** 3 bytes a pixel. */
  rgb: Uint8Array;
  /** The band pixels, in scan order. */
  pixels: Int32Array;
  /** Each band pixel's new region, or -1 where it stays. */
  movedTo: Int32Array;
  /** Per region: 1 for another band or a transparent region (no pixel joins it); 1 for a band; its mean colour (three numbers). */
  unjoinable: Uint8Array;
  band: Uint8Array;
  mean: Float64Array;
  minContrast2: number;
  offLine2: number;
  /** Tests only: about this many pixels a band of rows (./kernel.ts bandRowsFor). */
  bandPixels?: number;
}

/** Chooses every band pixel's side (movedTo) and returns how many move. */
export function chooseBandSides(sides: BandSides): number {
  const { width, height, labels, rgb, pixels, movedTo, unjoinable, band, mean } = sides;
  const kernel = loader.instance();
  const regionCount = band.length;
  const bandRows = bandRowsFor(width, sides.bandPixels);
  const rowsHeld = bandRows + 2 * REACH;
  const unjoinableAt = LAYOUT_START;
  const bandAt = after(unjoinableAt, regionCount);
  const meanAt = after(bandAt, regionCount);
  const scratchAt = after(meanAt, 8 * 3 * regionCount);
  const labelsAt = after(scratchAt, 4 * 8);
  const rgbAt = after(labelsAt, 4 * width * rowsHeld + COPY_SLACK);
  const pixelsAt = after(rgbAt, 3 * width * rowsHeld + COPY_SLACK);
  const movedAt = after(pixelsAt, 4 * width * bandRows);
  const end = after(movedAt, 4 * width * bandRows);
  growTo(kernel.memory, end);
  const memory = kernel.memory.buffer;
  new Uint8Array(memory, unjoinableAt, regionCount).set(unjoinable.subarray(0, regionCount));
  new Uint8Array(memory, bandAt, regionCount).set(band);
  new Float64Array(memory, meanAt, 3 * regionCount).set(mean.subarray(0, 3 * regionCount));
  const kernelPixels = new Int32Array(memory, pixelsAt, width * bandRows),
    kernelMoved = new Int32Array(memory, movedAt, width * bandRows);
  let moves = 0;
  for (let start = 0; start < pixels.length;) {
    // the band pixels of the rows from this one's down to bandRows further
    const y0 = Math.floor(pixels[start] / width),
      y1 = Math.min(height, y0 + bandRows);
    let end = start;
    while (end < pixels.length && pixels[end] < y1 * width) end++;
    const firstRow = Math.max(0, y0 - REACH),
      lastRow = Math.min(height, y1 + REACH);
    const labelsHere = copyIn(memory, labelsAt, labels.subarray(firstRow * width, lastRow * width));
    const rgbHere = copyIn(memory, rgbAt, rgb.subarray(3 * firstRow * width, 3 * lastRow * width));
    kernelPixels.set(pixels.subarray(start, end));
    moves += kernel.chooseSides(
      end - start,
      pixelsAt,
      movedAt,
      width,
      height,
      firstRow,
      labelsHere,
      rgbHere,
      unjoinableAt,
      bandAt,
      meanAt,
      sides.minContrast2,
      sides.offLine2,
      scratchAt,
    );
    movedTo.set(kernelMoved.subarray(0, end - start), start);
    start = end;
  }
  return moves;
}
