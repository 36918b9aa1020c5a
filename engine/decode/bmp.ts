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
import { unreadable as unreadableFile } from './unreadable.js';

const BI_RGB = 0;
const BI_RLE8 = 1;
const BI_RLE4 = 2;
const BI_BITFIELDS = 3;
const BI_JPEG = 4;
const BI_PNG = 5;
const BI_ALPHABITFIELDS = 6;

/** Beyond this a side is a lying header, not an image (and past what the rest of the engine handles). */
export const MAX_SIDE = 65535;

type BmpHeaderVersion = 'core' | 'os2v2' | 'info' | 'v2' | 'v3' | 'v4' | 'v5';
type BmpCompression = 'rgb' | 'rle8' | 'rle4' | 'bitfields';

interface BmpMasks {
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
  return unreadableFile('bmp', reason);
}

/** A well-formed BMP using a feature we do not decode: still unreadable_file, but said plainly. */
function unsupportedVariant(feature: string): VectorizeError {
  return new VectorizeError('unreadable_file', `This BMP uses ${feature}, which Vectorize cannot read; save it as PNG or a 24-bit BMP.`, {
    format: 'bmp',
    reason: feature,
  });
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
    case 12:
      return 'core';
    case 16:
    case 64:
      return 'os2v2';
    case 40:
      return 'info';
    case 52:
      return 'v2';
    case 56:
      return 'v3';
    case 108:
      return 'v4';
    case 124:
      return 'v5';
    default:
      throw unreadable(`unknown DIB header size ${dibSize}`);
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

  if (version === 'os2v2' && rawCompression > BI_RLE4)
    throw unsupportedVariant(rawCompression === 3 ? 'OS/2 Huffman compression' : 'OS/2 24-bit RLE compression');
  let compression: BmpCompression;
  switch (rawCompression) {
    case BI_RGB:
      compression = 'rgb';
      break;
    case BI_RLE8:
      compression = 'rle8';
      break;
    case BI_RLE4:
      compression = 'rle4';
      break;
    case BI_BITFIELDS:
    case BI_ALPHABITFIELDS:
      compression = 'bitfields';
      break;
    // Embedded JPEG/PNG exists for printer drivers; no image editor writes it.
    case BI_JPEG:
    case BI_PNG:
      throw unsupportedVariant(`embedded ${rawCompression === BI_JPEG ? 'JPEG' : 'PNG'} compression`);
    default:
      throw unreadable(`compression ${rawCompression} is not supported`);
  }

  const validDepth =
    compression === 'rgb'
      ? [1, 2, 4, 8, 16, 24, 32].includes(bitsPerPixel)
      : compression === 'rle8'
        ? bitsPerPixel === 8
        : compression === 'rle4'
          ? bitsPerPixel === 4
          : bitsPerPixel === 16 || bitsPerPixel === 32;
  if (!validDepth && bitsPerPixel === 64) throw unsupportedVariant('64-bit pixels');
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
      masks = {
        red: u32(bytes, dibEnd),
        green: u32(bytes, dibEnd + 4),
        blue: u32(bytes, dibEnd + 8),
        alpha: maskCount === 4 ? u32(bytes, dibEnd + 12) : 0,
      };
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

/** Bytes of uncompressed pixel data the header promises (the last row needs no padding). */
export function bmpPixelBytesNeeded(header: Pick<BmpHeader, 'width' | 'height' | 'bitsPerPixel'>): number {
  const stride = Math.ceil((header.bitsPerPixel * header.width) / 32) * 4;
  const lastRowBytes = Math.ceil((header.bitsPerPixel * header.width) / 8);
  return stride * (header.height - 1) + lastRowBytes;
}

/** Decodes the pixels of a BMP whose header `readBmpHeader` accepted. Straight RGBA out. */
export function decodeBmp(bytes: Uint8Array, header: BmpHeader = readBmpHeader(bytes)): RgbaImage {
  const { width, height, bitsPerPixel, compression } = header;
  if (compression === 'rle8' || compression === 'rle4') return decodeRle(bytes, header);

  const stride = Math.ceil((bitsPerPixel * width) / 32) * 4;
  const needed = bmpPixelBytesNeeded(header);
  // Checked before the output buffer exists, so a lying header costs no memory.
  if (bytes.length - header.dataOffset < needed)
    throw unreadable(`pixel data is truncated (${bytes.length - header.dataOffset} of ${needed} bytes)`);

  const data = new Uint8Array(width * height * 4);
  if (bitsPerPixel <= 8) decodeIndexedRows(bytes, header, stride, data);
  else if (bitsPerPixel === 24) decode24Rows(bytes, header, stride, data);
  else decodeMaskedRows(bytes, header, stride, data);
  return { width, height, data };
}

function outputRow(header: BmpHeader, fileRow: number): number {
  return header.topDown ? fileRow : header.height - 1 - fileRow;
}

/** Whole-pixel writes through a Uint32Array need to know the host byte order (RGBA in memory). */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** Palette as 256 32-bit pixels in host order; entries past the real palette are never used. */
function palette32Of(header: BmpHeader): Uint32Array {
  const bytes = new Uint8Array(256 * 4);
  bytes.set(header.palette);
  return new Uint32Array(bytes.buffer);
}

function paletteIndexError(index: number, paletteSize: number): VectorizeError {
  return unreadable(`palette index ${index} is beyond the ${paletteSize}-colour palette`);
}

function decodeIndexedRows(bytes: Uint8Array, header: BmpHeader, stride: number, data: Uint8Array): void {
  const { width, height, bitsPerPixel, paletteSize, dataOffset } = header;
  const palette32 = palette32Of(header);
  const out32 = new Uint32Array(data.buffer, data.byteOffset, width * height);
  const indexMask = (1 << bitsPerPixel) - 1;
  // The palette bound is checked once per row on the largest index seen, keeping the hot loop branch-free.
  let largest = 0;
  for (let row = 0; row < height; row++) {
    const src = dataOffset + row * stride;
    const dst = outputRow(header, row) * width;
    if (bitsPerPixel === 8) {
      for (let x = 0; x < width; x++) {
        const index = bytes[src + x];
        if (index > largest) largest = index;
        out32[dst + x] = palette32[index];
      }
    } else {
      // Pixels are packed from the most significant bits of each byte.
      for (let x = 0; x < width;) {
        const byte = bytes[src + ((x * bitsPerPixel) >> 3)];
        for (let shift = 8 - bitsPerPixel; shift >= 0 && x < width; shift -= bitsPerPixel, x++) {
          const index = (byte >> shift) & indexMask;
          if (index > largest) largest = index;
          out32[dst + x] = palette32[index];
        }
      }
    }
    if (largest >= paletteSize) throw paletteIndexError(largest, paletteSize);
  }
}

function decode24Rows(bytes: Uint8Array, header: BmpHeader, stride: number, data: Uint8Array): void {
  const { width, height, dataOffset } = header;
  const out32 = new Uint32Array(data.buffer, data.byteOffset, width * height);
  for (let row = 0; row < height; row++) {
    let src = dataOffset + row * stride;
    const dst = outputRow(header, row) * width;
    if (LITTLE_ENDIAN) {
      for (let x = 0; x < width; x++, src += 3) {
        out32[dst + x] = (bytes[src + 2] | (bytes[src + 1] << 8) | (bytes[src] << 16) | 0xff000000) >>> 0;
      }
    } else {
      for (let x = 0, d = dst * 4; x < width; x++, src += 3, d += 4) {
        data[d] = bytes[src + 2];
        data[d + 1] = bytes[src + 1];
        data[d + 2] = bytes[src];
        data[d + 3] = 255;
      }
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

/** Byte position of a mask that covers exactly one byte of a little-endian 32-bit pixel, else -1. */
function byteOffsetOf(mask: number): number {
  const offset = [0xff, 0xff00, 0xff0000, 0xff000000].indexOf(mask >>> 0);
  return offset;
}

function decodeMaskedRows(bytes: Uint8Array, header: BmpHeader, stride: number, data: Uint8Array): void {
  const masks = header.masks!;
  const offsets = [masks.red, masks.green, masks.blue].map(byteOffsetOf);
  const alphaOffset = masks.alpha === 0 ? -2 : byteOffsetOf(masks.alpha);
  const alphaSeen =
    header.bitsPerPixel === 32 && !offsets.includes(-1) && alphaOffset !== -1
      ? decodeByteAlignedRows(bytes, header, stride, data, offsets[0], offsets[1], offsets[2], alphaOffset)
      : decodeScaledRows(bytes, header, stride, data);
  // No alpha channel, or one that is zero everywhere (the writer's "unused"): opaque.
  if (!alphaSeen) for (let i = 3; i < data.length; i += 4) data[i] = 255;
}

/** 32-bit pixels whose channels are whole bytes (BGRA, RGBA, ...): copied byte by byte. Returns whether any alpha is non-zero. */
function decodeByteAlignedRows(
  bytes: Uint8Array,
  header: BmpHeader,
  stride: number,
  data: Uint8Array,
  red: number,
  green: number,
  blue: number,
  alpha: number,
): boolean {
  const { width, height, dataOffset } = header;
  const hasAlpha = alpha >= 0;
  let alphaSeen = 0;
  for (let row = 0; row < height; row++) {
    let src = dataOffset + row * stride;
    let dst = outputRow(header, row) * width * 4;
    for (let x = 0; x < width; x++, src += 4, dst += 4) {
      data[dst] = bytes[src + red];
      data[dst + 1] = bytes[src + green];
      data[dst + 2] = bytes[src + blue];
      const a = hasAlpha ? bytes[src + alpha] : 0;
      data[dst + 3] = a;
      alphaSeen |= a;
    }
  }
  return alphaSeen !== 0;
}

/** Any masks (16-bit pixels, 10-bit channels, ...): each channel scaled to 8 bits. Returns whether any alpha is non-zero. */
function decodeScaledRows(bytes: Uint8Array, header: BmpHeader, stride: number, data: Uint8Array): boolean {
  const { width, height, bitsPerPixel, dataOffset } = header;
  const masks = header.masks!;
  const channels = [masks.red, masks.green, masks.blue, masks.alpha].map(channelScale);
  let alphaSeen = 0;
  if (bitsPerPixel === 16) {
    // Every 16-bit pixel value maps to its channels through one table each (4 x 64 KiB).
    const tables = channels.map((channel) => Uint8Array.from({ length: 0x10000 }, (_, pixel) => scaled(pixel, channel)));
    const [red, green, blue, alpha] = tables;
    for (let row = 0; row < height; row++) {
      let src = dataOffset + row * stride;
      let dst = outputRow(header, row) * width * 4;
      for (let x = 0; x < width; x++, src += 2, dst += 4) {
        const pixel = bytes[src] | (bytes[src + 1] << 8);
        data[dst] = red[pixel];
        data[dst + 1] = green[pixel];
        data[dst + 2] = blue[pixel];
        const a = alpha[pixel];
        data[dst + 3] = a;
        alphaSeen |= a;
      }
    }
    return alphaSeen !== 0;
  }
  const [red, green, blue, alpha] = channels;
  for (let row = 0; row < height; row++) {
    let src = dataOffset + row * stride;
    let dst = outputRow(header, row) * width * 4;
    for (let x = 0; x < width; x++, src += 4, dst += 4) {
      const pixel = u32(bytes, src);
      data[dst] = scaled(pixel, red);
      data[dst + 1] = scaled(pixel, green);
      data[dst + 2] = scaled(pixel, blue);
      const a = scaled(pixel, alpha);
      data[dst + 3] = a;
      alphaSeen |= a;
    }
  }
  return alphaSeen !== 0;
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
  const palette32 = palette32Of(header);
  const out32 = new Uint32Array(data.buffer, data.byteOffset, width * height);
  const end = bytes.length;
  const truncated = (): VectorizeError => unreadable('RLE data ends before the end of the bitmap');
  let p = header.dataOffset;
  let x = 0;
  let y = 0; // in file order: row 0 is the bottom row of a bottom-up bitmap

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
      if (y < height && x < width) {
        const visible = Math.min(count, width - x);
        const at = outputRow(header, y) * width + x;
        const first = isRle4 ? value >> 4 : value;
        const second = isRle4 ? value & 0x0f : value;
        if (first >= paletteSize) throw paletteIndexError(first, paletteSize);
        if (visible > 1 && second >= paletteSize) throw paletteIndexError(second, paletteSize);
        if (first === second) {
          out32.fill(palette32[first], at, at + visible);
        } else {
          for (let k = 0; k < visible; k++) out32[at + k] = palette32[k & 1 ? second : first];
        }
      }
      x += count;
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
      if (p + runBytes > end) throw truncated();
      if (y < height && x < width) {
        const visible = Math.min(value, width - x);
        const at = outputRow(header, y) * width + x;
        for (let k = 0; k < visible; k++) {
          const index = isRle4 ? (k & 1 ? bytes[p + (k >> 1)] & 0x0f : bytes[p + (k >> 1)] >> 4) : bytes[p + k];
          if (index >= paletteSize) throw paletteIndexError(index, paletteSize);
          out32[at + k] = palette32[index];
        }
      }
      x += value;
      // Absolute runs are padded to 16 bits; the last pad byte may be missing at the very end of the file.
      p = Math.min(p + runBytes + (runBytes & 1), end);
    }
  }
  return { width, height, data };
}
