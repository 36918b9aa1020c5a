/**
 * PNGs assembled by hand for the decoder's tests: each row's filter type, the chunks and their
 * order are the test's to choose (sharp's encoder decides those itself).
 */
import { crc32, deflateSync } from 'node:zlib';

export function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, tail]);
}

export interface PngParts {
  width: number;
  height: number;
  colourType?: number;
  depth?: number;
  interlace?: number;
  /** The raw scanlines, each a filter byte and its samples. */
  rows: Uint8Array;
  /** Extra chunks before the image data. */
  extra?: Buffer[];
  /** Split the compressed data over this many IDAT chunks. */
  idats?: number;
}

/** A PNG assembled by hand, so each row's filter type is ours to choose. */
export function png({ width, height, colourType = 6, depth = 8, interlace = 0, rows, extra = [], idats = 1 }: PngParts): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([depth, colourType, 0, 0, interlace], 8);
  const compressed = deflateSync(rows);
  const size = Math.ceil(compressed.length / idats);
  const data = Array.from({ length: idats }, (_, i) => chunk('IDAT', compressed.subarray(i * size, (i + 1) * size)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    ...extra,
    ...data,
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/** Scanlines of random samples, row y filtered with type y % 5 (None, Sub, Up, Average, Paeth). */
export function scanlines(random: () => number, width: number, height: number, channels: number): Uint8Array {
  const stride = width * channels;
  const rows = new Uint8Array(height * (stride + 1));
  for (let y = 0; y < height; y++) {
    rows[y * (stride + 1)] = y % 5;
    for (let i = 0; i < stride; i++) rows[y * (stride + 1) + 1 + i] = Math.floor(random() * 256);
  }
  return rows;
}
