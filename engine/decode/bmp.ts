/**
 * BMP decoder (sharp/libvips cannot read BMP). Pure TypeScript over typed arrays.
 *
 * Reads: OS/2 1.x BITMAPCOREHEADER (12 bytes), OS/2 2.x headers (16 and 64 bytes, uncompressed and
 * RLE only), BITMAPINFOHEADER (40) and its V2 (52), V3 (56), V4 (108), V5 (124) extensions;
 * 1/2/4/8-bit palettes (a palette may be shorter than 2^bpp), 16-bit (X1R5G5B5 by default, any
 * masks with BI_BITFIELDS), 24-bit, 32-bit (BI_RGB, BI_BITFIELDS, BI_ALPHABITFIELDS); BI_RLE8 and
 * BI_RLE4 with every escape; bottom-up and top-down (negative height) rows.
 *
 * Decisions:
 * - Alpha: a 32-bit BI_RGB file's 4th byte, and any alpha mask, counts as alpha only if at least one
 *   pixel has a non-zero alpha. Many writers leave that byte at zero meaning "opaque"; an image whose
 *   every pixel is fully transparent has nothing to trace anyway.
 * - Palette entries are always opaque (their 4th byte is reserved). A pixel whose palette index lies
 *   beyond the palette is refused as `unreadable_file` rather than painted a guessed colour.
 * - RLE: output that runs past the right edge or the top is clipped; pixels the stream never
 *   writes (delta jumps, early end-of-line or end-of-bitmap) stay transparent. A stream that ends
 *   mid-picture without an end-of-bitmap escape is truncated and refused; one that omits the final
 *   end-of-bitmap after its last row is accepted.
 * - The last row of an uncompressed bitmap may lack its padding bytes (some writers drop them).
 * - Every read is checked against the bytes present before it happens; header lies give
 *   `unreadable_file`, never a read past the end. The header is parsed by `readBmpHeader` with no
 *   pixel memory spent, so the caller can check the pixel limit before `decodeBmp` allocates.
 */
import { VectorizeError } from '../errors.js';
import type { RgbaImage } from '../types.js';

const BI_RGB = 0;
const BI_RLE8 = 1;
const BI_RLE4 = 2;
const BI_BITFIELDS = 3;
const BI_JPEG = 4;
const BI_PNG = 5;
const BI_ALPHABITFIELDS = 6;

/** Beyond this a side is a lying header, not an image (and past what the rest of the engine handles). */
export const MAX_SIDE = 65535;

export type BmpHeaderVersion = 'core' | 'os2v2' | 'info' | 'v2' | 'v3' | 'v4' | 'v5';
export type BmpCompression = 'rgb' | 'rle8' | 'rle4' | 'bitfields';

export interface BmpMasks {
  red: number;
  green: number;
  blue: number;
  /** 0 when the format has no alpha channel. */
  alpha: number;
}

export interface BmpHeader {
  version: BmpHeaderVersion;
  width: number;
  height: number;
  topDown: boolean;
  bitsPerPixel: number;
  compression: BmpCompression;
  /** For 16- and 32-bit pixels (BI_RGB gets the implied masks). */
  masks: BmpMasks | null;
  /** Palette as RGBA bytes (alpha 255), for 1/2/4/8-bit pixels; empty otherwise. */
  palette: Uint8Array;
  paletteSize: number;
  /** Where the pixel data starts in the file. */
  dataOffset: number;
}

function unreadable(reason: string): VectorizeError {
  return new VectorizeError('unreadable_file', 'The BMP file is damaged or truncated and cannot be read.', { format: 'bmp', reason });
}

function u16(b: Uint8Array, at: number): number {
  return b[at] | (b[at + 1] << 8);
}

function u32(b: Uint8Array, at: number): number {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
}

function i32(b: Uint8Array, at: number): number {
  return b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24);
}

const FILE_HEADER_SIZE = 14;

function headerVersion(dibSize: number): BmpHeaderVersion {
  switch (dibSize) {
    case 12: return 'core';
    case 16: case 64: return 'os2v2';
    case 40: return 'info';
    case 52: return 'v2';
    case 56: return 'v3';
    case 108: return 'v4';
    case 124: return 'v5';
    default: throw unreadable(`unknown DIB header size ${dibSize}`);
  }
}

/** Parses and validates the headers, masks and palette. Spends no pixel memory. */
export function readBmpHeader(bytes: Uint8Array): BmpHeader {
  if (bytes.length < FILE_HEADER_SIZE + 4) throw unreadable('file ends inside the file header');
  const dataOffset = u32(bytes, 10);
  const dibSize = u32(bytes, 14);
  const version = headerVersion(dibSize);
  const dibEnd = FILE_HEADER_SIZE + dibSize;
  if (bytes.length < dibEnd) throw unreadable('file ends inside the DIB header');

  let width: number;
  let signedHeight: number;
  let bitsPerPixel: number;
  let rawCompression = BI_RGB;
  let colorsUsed = 0;
  if (version === 'core') {
    width = u16(bytes, 18);
    signedHeight = u16(bytes, 20);
    bitsPerPixel = u16(bytes, 24);
  } else {
    width = i32(bytes, 18);
    signedHeight = i32(bytes, 22);
    bitsPerPixel = u16(bytes, 28);
    // OS/2 2.x headers may stop after 16 bytes; absent fields are zero.
    if (dibSize >= 20) rawCompression = u32(bytes, 30);
    if (dibSize >= 36) colorsUsed = u32(bytes, 46);
  }

  if (width <= 0 || signedHeight === 0) throw unreadable(`image size ${width}x${signedHeight} is empty or negative`);
  const height = Math.abs(signedHeight);
  if (width > MAX_SIDE || height > MAX_SIDE) throw unreadable(`image size ${width}x${height} exceeds ${MAX_SIDE} pixels a side`);
  const topDown = signedHeight < 0;

  if (version === 'os2v2' && rawCompression > BI_RLE4) throw unreadable(`OS/2 compression ${rawCompression} is not supported`);
  let compression: BmpCompression;
  switch (rawCompression) {
    case BI_RGB: compression = 'rgb'; break;
    case BI_RLE8: compression = 'rle8'; break;
    case BI_RLE4: compression = 'rle4'; break;
    case BI_BITFIELDS: case BI_ALPHABITFIELDS: compression = 'bitfields'; break;
    case BI_JPEG: case BI_PNG: throw unreadable('embedded JPEG/PNG compression is meant for printers and is not supported');
    default: throw unreadable(`compression ${rawCompression} is not supported`);
  }

  const validDepth =
    compression === 'rgb' ? [1, 2, 4, 8, 16, 24, 32].includes(bitsPerPixel)
    : compression === 'rle8' ? bitsPerPixel === 8
    : compression === 'rle4' ? bitsPerPixel === 4
    : bitsPerPixel === 16 || bitsPerPixel === 32;
  if (!validDepth) throw unreadable(`${bitsPerPixel}-bit pixels cannot use ${compression} compression`);
  // Top-down RLE is forbidden by the format's definition but harmless to honour: rows run downwards.

  let afterHeaders = dibEnd;
  let masks: BmpMasks | null = null;
  if (compression === 'bitfields') {
    if (dibSize >= 52) {
      masks = { red: u32(bytes, 54), green: u32(bytes, 58), blue: u32(bytes, 62), alpha: dibSize >= 56 ? u32(bytes, 66) : 0 };
    } else {
      // A 40-byte header keeps its masks right after it (three, or four with BI_ALPHABITFIELDS).
      const maskCount = rawCompression === BI_ALPHABITFIELDS ? 4 : 3;
      if (bytes.length < dibEnd + maskCount * 4) throw unreadable('file ends inside the colour masks');
      masks = { red: u32(bytes, dibEnd), green: u32(bytes, dibEnd + 4), blue: u32(bytes, dibEnd + 8), alpha: maskCount === 4 ? u32(bytes, dibEnd + 12) : 0 };
      afterHeaders += maskCount * 4;
    }
    if (bitsPerPixel === 16) {
      for (const key of ['red', 'green', 'blue', 'alpha'] as const) masks[key] = (masks[key] & 0xffff) >>> 0;
    }
  } else if (bitsPerPixel === 16) {
    masks = { red: 0x7c00, green: 0x03e0, blue: 0x001f, alpha: 0 };
  } else if (bitsPerPixel === 32) {
    masks = { red: 0x00ff0000, green: 0x0000ff00, blue: 0x000000ff, alpha: 0xff000000 };
  }

  if (dataOffset < afterHeaders) throw unreadable('pixel data offset points inside the headers');
  if (dataOffset >= bytes.length) throw unreadable('file ends before the pixel data');

  let palette = new Uint8Array(0);
  let paletteSize = 0;
  if (bitsPerPixel <= 8) {
    const entrySize = version === 'core' ? 3 : 4;
    const full = 1 << bitsPerPixel;
    const declared = colorsUsed === 0 || colorsUsed > full ? full : colorsUsed;
    // The palette ends where the pixel data starts; a shorter gap means a shorter palette.
    paletteSize = Math.min(declared, Math.floor((dataOffset - afterHeaders) / entrySize));
    if (paletteSize === 0) throw unreadable('palette is missing');
    palette = new Uint8Array(paletteSize * 4);
    for (let i = 0; i < paletteSize; i++) {
      const at = afterHeaders + i * entrySize;
      palette[i * 4] = bytes[at + 2];
      palette[i * 4 + 1] = bytes[at + 1];
      palette[i * 4 + 2] = bytes[at];
      palette[i * 4 + 3] = 255;
    }
  }

  return { version, width, height, topDown, bitsPerPixel, compression, masks, palette, paletteSize, dataOffset };
}

/** Decodes the pixels of a BMP whose header `readBmpHeader` accepted. Straight RGBA out. */
export function decodeBmp(bytes: Uint8Array, header: BmpHeader = readBmpHeader(bytes)): RgbaImage {
  const { width, height, bitsPerPixel, compression } = header;
  if (compression === 'rle8' || compression === 'rle4') return decodeRle(bytes, header);

  const stride = Math.ceil((bitsPerPixel * width) / 32) * 4;
  const lastRowBytes = Math.ceil((bitsPerPixel * width) / 8);
  const needed = stride * (height - 1) + lastRowBytes;
  // Checked before the output buffer exists, so a lying header costs no memory.
  if (bytes.length - header.dataOffset < needed) throw unreadable(`pixel data is truncated (${bytes.length - header.dataOffset} of ${needed} bytes)`);

  const data = new Uint8Array(width * height * 4);
  if (bitsPerPixel <= 8) decodeIndexedRows(bytes, header, stride, data);
  else if (bitsPerPixel === 24) decode24Rows(bytes, header, stride, data);
  else decodeMaskedRows(bytes, header, stride, data);
  return { width, height, data };
}

function outputRow(header: BmpHeader, fileRow: number): number {
  return header.topDown ? fileRow : header.height - 1 - fileRow;
}

function decodeIndexedRows(bytes: Uint8Array, header: BmpHeader, stride: number, data: Uint8Array): void {
  const { width, height, bitsPerPixel, paletteSize } = header;
  // Writing whole pixels through 32-bit views is endian-neutral: both views share the host order.
  const palette32 = new Uint32Array(header.palette.buffer, header.palette.byteOffset, paletteSize);
  const out32 = new Uint32Array(data.buffer, data.byteOffset, width * height);
  const indexMask = (1 << bitsPerPixel) - 1;
  for (let row = 0; row < height; row++) {
    const src = header.dataOffset + row * stride;
    const dst = outputRow(header, row) * width;
    for (let x = 0; x < width; x++) {
      // Pixels are packed from the most significant bits of each byte.
      const bit = x * bitsPerPixel;
      const index = bitsPerPixel === 8 ? bytes[src + x] : (bytes[src + (bit >> 3)] >> (8 - bitsPerPixel - (bit & 7))) & indexMask;
      if (index >= paletteSize) throw unreadable(`palette index ${index} is beyond the ${paletteSize}-colour palette`);
      out32[dst + x] = palette32[index];
    }
  }
}

function decode24Rows(bytes: Uint8Array, header: BmpHeader, stride: number, data: Uint8Array): void {
  const { width, height } = header;
  for (let row = 0; row < height; row++) {
    let src = header.dataOffset + row * stride;
    let dst = outputRow(header, row) * width * 4;
    for (let x = 0; x < width; x++, src += 3, dst += 4) {
      data[dst] = bytes[src + 2];
      data[dst + 1] = bytes[src + 1];
      data[dst + 2] = bytes[src];
      data[dst + 3] = 255;
    }
  }
}

/** Maps a masked channel value to 8 bits: round(v * 255 / max), by table where the table is small. */
interface ChannelScale {
  mask: number;
  shift: number;
  max: number;
  table: Uint8Array | null;
}

function channelScale(mask: number): ChannelScale {
  if (mask === 0) return { mask: 0, shift: 0, max: 0, table: null };
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  const max = mask >>> shift;
  let table: Uint8Array | null = null;
  if (max <= 0xffff) {
    table = new Uint8Array(max + 1);
    for (let v = 0; v <= max; v++) table[v] = Math.round((v * 255) / max);
  }
  return { mask, shift, max, table };
}

function scaled(pixel: number, channel: ChannelScale): number {
  if (channel.max === 0) return 0;
  const value = ((pixel & channel.mask) >>> channel.shift) & channel.max;
  return channel.table ? channel.table[value] : Math.round((value * 255) / channel.max);
}

function decodeMaskedRows(bytes: Uint8Array, header: BmpHeader, stride: number, data: Uint8Array): void {
  const { width, height, bitsPerPixel } = header;
  const masks = header.masks!;
  const red = channelScale(masks.red);
  const green = channelScale(masks.green);
  const blue = channelScale(masks.blue);
  const alpha = channelScale(masks.alpha);
  const hasAlpha = alpha.max !== 0;
  const bytesPerPixel = bitsPerPixel / 8;
  let anyAlpha = false;
  for (let row = 0; row < height; row++) {
    let src = header.dataOffset + row * stride;
    let dst = outputRow(header, row) * width * 4;
    for (let x = 0; x < width; x++, src += bytesPerPixel, dst += 4) {
      const pixel = bytesPerPixel === 2 ? u16(bytes, src) : u32(bytes, src);
      data[dst] = scaled(pixel, red);
      data[dst + 1] = scaled(pixel, green);
      data[dst + 2] = scaled(pixel, blue);
      if (hasAlpha) {
        const a = scaled(pixel, alpha);
        data[dst + 3] = a;
        if (a !== 0) anyAlpha = true;
      }
    }
  }
  // No alpha channel, or one that is zero everywhere (the writer's "unused"): opaque.
  if (!anyAlpha) for (let i = 3; i < data.length; i += 4) data[i] = 255;
}

/**
 * BI_RLE8 / BI_RLE4. Pairs (count, value): a run of `count` pixels of `value` (RLE4 alternates the
 * two nibbles); count 0 escapes: 0 end of line, 1 end of bitmap, 2 delta (dx, dy), n >= 3 an
 * absolute run of n pixels padded to a 16-bit boundary.
 */
function decodeRle(bytes: Uint8Array, header: BmpHeader): RgbaImage {
  const { width, height, paletteSize } = header;
  const isRle4 = header.compression === 'rle4';
  const data = new Uint8Array(width * height * 4); // zero: never-written pixels stay transparent
  const palette32 = new Uint32Array(header.palette.buffer, header.palette.byteOffset, paletteSize);
  const out32 = new Uint32Array(data.buffer, data.byteOffset, width * height);
  const end = bytes.length;
  let p = header.dataOffset;
  let x = 0;
  let y = 0; // in file order: row 0 is the bottom row of a bottom-up bitmap

  const put = (index: number): void => {
    if (x < width && y < height) {
      if (index >= paletteSize) throw unreadable(`palette index ${index} is beyond the ${paletteSize}-colour palette`);
      out32[outputRow(header, y) * width + x] = palette32[index];
    }
    x++;
  };
  const truncated = (): VectorizeError => unreadable('RLE data ends before the end of the bitmap');

  for (;;) {
    if (p + 2 > end) {
      if (y >= height) break; // the last row ended with end-of-line; only end-of-bitmap is missing
      throw truncated();
    }
    const count = bytes[p];
    const value = bytes[p + 1];
    p += 2;
    if (count > 0) {
      // Pixels past the right edge or above the top are dropped, not wrapped.
      const visible = y < height ? Math.max(0, Math.min(count, width - x)) : 0;
      if (isRle4) {
        for (let k = 0; k < visible; k++) put(k & 1 ? value & 0x0f : value >> 4);
      } else {
        for (let k = 0; k < visible; k++) put(value);
      }
      x += count - visible;
      continue;
    }
    if (value === 0) {
      x = 0;
      y++;
    } else if (value === 1) {
      break;
    } else if (value === 2) {
      if (p + 2 > end) throw truncated();
      x += bytes[p];
      y += bytes[p + 1];
      p += 2;
    } else {
      const runBytes = isRle4 ? (value + 1) >> 1 : value;
      const padded = runBytes + (runBytes & 1);
      if (p + runBytes > end) throw truncated();
      for (let k = 0; k < value; k++) {
        if (isRle4) {
          const byte = bytes[p + (k >> 1)];
          put(k & 1 ? byte & 0x0f : byte >> 4);
        } else {
          put(bytes[p + k]);
        }
      }
      // The padding byte of the last absolute run may be missing at the very end of the file.
      p = Math.min(p + padded, end);
    }
  }
  return { width, height, data };
}
