/**
 * The plainest PNGs decoded here, without sharp: 8-bit RGB or RGBA, not interlaced, and no chunk
 * that could make the pixels differ from the stored samples (no colour profile, gamma,
 * chromaticities, transparency key, palette, orientation or animation). For those, decoding is
 * exact by the format's definition (inflate, then undo each row's filter), so the bytes are the
 * ones libvips returns. Loading sharp's native library costs a cold process about a tenth of a
 * second, more than the whole decode of a small image; `vectorize convert` of one such file
 * never loads it.
 *
 * Anything else, and anything irregular (a bad checksum, a short or long stream, an unknown filter,
 * data after IEND), gets null: sharp decodes the file then, and refuses it with its own errors.
 */
import { crc32, inflateSync } from 'node:zlib';
import { fourcc, u32be } from './completeness.js';

export interface PlainPng {
  width: number;
  height: number;
  channels: 3 | 4;
  /** The IDAT chunks' data, in order. */
  compressed: Uint8Array[];
}

/** Chunks that do not change a pixel as libvips decodes: physical size, text, time, sRGB intent. */
const HARMLESS_CHUNKS = new Set(['pHYs', 'tEXt', 'zTXt', 'iTXt', 'tIME', 'sRGB']);
const SIGNATURE_BYTES = 8;
/** Sample bytes per pixel by IHDR colour type: 2 = RGB, 6 = RGBA. */
const CHANNELS_OF_TYPE: Record<number, 3 | 4> = { 2: 3, 6: 4 };

interface Chunk {
  type: string;
  start: number;
  length: number;
}

/** The file's chunks, each with a matching CRC, ending at IEND with nothing after; else null. */
function chunksOf(bytes: Uint8Array): Chunk[] | null {
  const chunks: Chunk[] = [];
  for (let at = SIGNATURE_BYTES; at + 12 <= bytes.length;) {
    const length = u32be(bytes, at);
    const end = at + 12 + length;
    if (end > bytes.length) return null;
    const stored = u32be(bytes, at + 8 + length);
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== stored) return null;
    const type = fourcc(bytes, at + 4);
    chunks.push({ type, start: at + 8, length });
    if (type === 'IEND') return end === bytes.length ? chunks : null;
    at = end;
  }
  return null;
}

function plainOf(bytes: Uint8Array, chunks: Chunk[]): PlainPng | null {
  const ihdr = chunks[0];
  if (ihdr?.type !== 'IHDR' || ihdr.length !== 13) return null;
  const at = ihdr.start;
  const width = u32be(bytes, at),
    height = u32be(bytes, at + 4);
  const [depth, colourType, compression, filter, interlace] = bytes.subarray(at + 8, at + 13);
  const channels = CHANNELS_OF_TYPE[colourType];
  if (!channels || depth !== 8 || compression !== 0 || filter !== 0 || interlace !== 0) return null;
  if (width < 1 || height < 1 || width > 65535 || height > 65535) return null;
  const compressed: Uint8Array[] = [];
  for (let i = 1; i < chunks.length - 1; i++) {
    const { type, start, length } = chunks[i];
    if (type === 'IDAT') {
      // the image data must be one run of IDAT chunks
      if (compressed.length > 0 && chunks[i - 1].type !== 'IDAT') return null;
      compressed.push(bytes.subarray(start, start + length));
    } else if (!HARMLESS_CHUNKS.has(type)) return null;
  }
  return compressed.length > 0 ? { width, height, channels, compressed } : null;
}

/** A plain PNG's size, channels and image data (see above), from its chunks alone; null for any other file. */
export function readPlainPng(bytes: Uint8Array): PlainPng | null {
  const chunks = chunksOf(bytes);
  return chunks && plainOf(bytes, chunks);
}

/**
 * The pixels of a plain PNG (readPlainPng), straight RGB or RGBA; null when its compressed data
 * does not inflate to exactly the rows its header promises.
 */
export function decodePlainPng(png: PlainPng): Uint8Array | null {
  const compressed = Buffer.concat(png.compressed);
  const { width, height, channels } = png;
  const stride = width * channels;
  const expected = height * (stride + 1);
  let filtered: Buffer;
  try {
    // A stream longer than the rows would be refused anyway: stop inflating there. One output
    // chunk of the whole size: the default 16 KiB ones are gathered and copied again at the end.
    const inflated = inflateSync(compressed, {
      chunkSize: Math.max(64, expected + 1),
      maxOutputLength: expected + 1,
      info: true,
    }) as unknown as {
      buffer: Buffer;
      engine: { bytesWritten: number };
    };
    if (inflated.engine.bytesWritten !== compressed.length) return null;
    filtered = inflated.buffer;
  } catch {
    return null;
  }
  if (filtered.length !== expected) return null;
  const pixels = new Uint8Array(height * stride);
  return unfilterRows(filtered, pixels, width, height, channels) ? pixels : null;
}

/** Undoes each row's filter (None, Sub, Up, Average, Paeth) into `out`; false on an unknown filter. */
function unfilterRows(src: Uint8Array, out: Uint8Array, width: number, height: number, bpp: number): boolean {
  const stride = width * bpp;
  for (let y = 0; y < height; y++) {
    const filter = src[y * (stride + 1)];
    const from = y * (stride + 1) + 1;
    const row = y * stride;
    const up = row - stride; // the row above in `out`; y = 0 reads zeros instead
    if (filter === 0) {
      out.set(src.subarray(from, from + stride), row);
    } else if (filter === 1) {
      for (let i = 0; i < stride; i++) out[row + i] = (src[from + i] + (i >= bpp ? out[row + i - bpp] : 0)) & 255;
    } else if (filter === 2) {
      if (y === 0) out.set(src.subarray(from, from + stride), row);
      else for (let i = 0; i < stride; i++) out[row + i] = (src[from + i] + out[up + i]) & 255;
    } else if (filter === 3) {
      for (let i = 0; i < stride; i++) {
        const left = i >= bpp ? out[row + i - bpp] : 0;
        const above = y > 0 ? out[up + i] : 0;
        out[row + i] = (src[from + i] + ((left + above) >> 1)) & 255;
      }
    } else if (filter === 4) {
      for (let i = 0; i < stride; i++) {
        const a = i >= bpp ? out[row + i - bpp] : 0;
        const b = y > 0 ? out[up + i] : 0;
        const c = i >= bpp && y > 0 ? out[up + i - bpp] : 0;
        const p = a + b - c;
        const pa = Math.abs(p - a),
          pb = Math.abs(p - b),
          pc = Math.abs(p - c);
        out[row + i] = (src[from + i] + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 255;
      }
    } else return false;
  }
  return true;
}
