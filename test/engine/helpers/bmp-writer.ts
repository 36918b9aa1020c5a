/**
 * A small BMP encoder for tests: emits every header version, bit depth and compression the decoder
 * claims to read, from known source pixels, so decoded output can be compared with them exactly.
 * It writes what the format's definition says and nothing clever; tests that need lying or damaged
 * files patch the bytes it returns.
 */

export type BmpVersion = 'core' | 'os2v2-16' | 'os2v2-64' | 'info' | 'v2' | 'v3' | 'v4' | 'v5';
type BmpWriteCompression = 'rgb' | 'bitfields' | 'alphabitfields' | 'rle8' | 'rle4';

const DIB_SIZES: Record<BmpVersion, number> = {
  core: 12,
  'os2v2-16': 16,
  'os2v2-64': 64,
  info: 40,
  v2: 52,
  v3: 56,
  v4: 108,
  v5: 124,
};

interface Masks {
  red: number;
  green: number;
  blue: number;
  alpha?: number;
}

interface BmpWriteOptions {
  version?: BmpVersion;
  width: number;
  height: number;
  bitsPerPixel: 1 | 2 | 4 | 8 | 16 | 24 | 32;
  compression?: BmpWriteCompression;
  topDown?: boolean;
  /** RGB triples, for 1/2/4/8-bit images. */
  palette?: ReadonlyArray<readonly [number, number, number]>;
  /** biClrUsed; defaults to the palette's length. */
  colorsUsed?: number;
  /** Palette indices, top row first (-1 = leave unwritten, RLE only). */
  indices?: ArrayLike<number>;
  /** Packed pixel values for 16/32-bit images (as stored in the file), top row first. */
  values?: ArrayLike<number>;
  /** RGB bytes for 24-bit images, top row first. */
  rgb?: Uint8Array;
  /** Masks for BI_BITFIELDS / BI_ALPHABITFIELDS (and written into V2+ headers in any case). */
  masks?: Masks;
  /** A hand-written RLE stream instead of the encoder's. */
  rleStream?: Uint8Array;
  /** Leave out the padding bytes of the last stored row. */
  dropLastRowPadding?: boolean;
}

const COMPRESSION_CODES: Record<BmpWriteCompression, number> = { rgb: 0, rle8: 1, rle4: 2, bitfields: 3, alphabitfields: 6 };

class ByteWriter {
  private bytes: number[] = [];
  get length(): number {
    return this.bytes.length;
  }
  u8(value: number): this {
    this.bytes.push(value & 0xff);
    return this;
  }
  u16(value: number): this {
    return this.u8(value).u8(value >>> 8);
  }
  u32(value: number): this {
    return this.u16(value & 0xffff).u16(value >>> 16);
  }
  raw(values: ArrayLike<number>): this {
    for (let i = 0; i < values.length; i++) this.u8(values[i]);
    return this;
  }
  zeros(count: number): this {
    for (let i = 0; i < count; i++) this.u8(0);
    return this;
  }
  toUint8Array(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

/** Rows in the order the file stores them: bottom-up unless top-down. */
function fileRows(height: number, topDown: boolean): number[] {
  return Array.from({ length: height }, (_, i) => (topDown ? i : height - 1 - i));
}

function packedRows(options: BmpWriteOptions): Uint8Array {
  const { width, height, bitsPerPixel } = options;
  const stride = Math.ceil((bitsPerPixel * width) / 32) * 4;
  const out = new ByteWriter();
  const rows = fileRows(height, options.topDown ?? false);
  rows.forEach((y, storedIndex) => {
    const row = new Uint8Array(stride);
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (bitsPerPixel <= 8) {
        const bit = x * bitsPerPixel;
        row[bit >> 3] |= options.indices![i] << (8 - bitsPerPixel - (bit & 7));
      } else if (bitsPerPixel === 24) {
        row[x * 3] = options.rgb![i * 3 + 2];
        row[x * 3 + 1] = options.rgb![i * 3 + 1];
        row[x * 3 + 2] = options.rgb![i * 3];
      } else {
        const value = options.values![i];
        for (let b = 0; b < bitsPerPixel / 8; b++) row[x * (bitsPerPixel / 8) + b] = (value >>> (8 * b)) & 0xff;
      }
    }
    const isLastStored = storedIndex === rows.length - 1;
    out.raw(isLastStored && options.dropLastRowPadding ? row.subarray(0, Math.ceil((bitsPerPixel * width) / 8)) : row);
  });
  return out.toUint8Array();
}

/**
 * RLE encoder: encoded runs for three or more equal pixels, absolute runs (padded to 16 bits) for
 * mixed stretches, delta escapes over unwritten (-1) pixels inside a row, end-of-line when the rest
 * of a row is unwritten, end-of-bitmap at the end.
 */
export function encodeRle(width: number, height: number, indices: ArrayLike<number>, mode: 'rle8' | 'rle4', topDown = false): Uint8Array {
  const out = new ByteWriter();
  const rows = fileRows(height, topDown);
  for (const y of rows) {
    const at = (x: number) => indices[y * width + x];
    let x = 0;
    while (x < width) {
      if (at(x) === -1) {
        let skip = x;
        while (skip < width && at(skip) === -1) skip++;
        if (skip === width) break; // end-of-line below covers the rest
        const dx = Math.min(skip - x, 255);
        out.u8(0).u8(2).u8(dx).u8(0);
        x += dx;
        continue;
      }
      let run = 1;
      while (x + run < width && run < 255 && at(x + run) === at(x)) run++;
      if (run >= 3) {
        out.u8(run).u8(mode === 'rle8' ? at(x) : (at(x) << 4) | at(x));
        x += run;
        continue;
      }
      // Gather a literal stretch up to the next long run or unwritten pixel.
      let end = x;
      while (end < width && end - x < 255 && at(end) !== -1) {
        if (end + 2 < width && at(end) === at(end + 1) && at(end) === at(end + 2)) break;
        end++;
      }
      const length = end - x;
      if (length >= 3) {
        out.u8(0).u8(length);
        const literal: number[] = [];
        if (mode === 'rle8') {
          for (let k = 0; k < length; k++) literal.push(at(x + k));
        } else {
          for (let k = 0; k < length; k += 2) literal.push((at(x + k) << 4) | (k + 1 < length ? at(x + k + 1) : 0));
        }
        out.raw(literal);
        if (literal.length % 2 === 1) out.u8(0);
        x += length;
      } else {
        out.u8(1).u8(mode === 'rle8' ? at(x) : at(x) << 4);
        x += 1;
      }
    }
    out.u8(0).u8(0);
  }
  out.u8(0).u8(1);
  return out.toUint8Array();
}

export function writeBmp(options: BmpWriteOptions): Uint8Array {
  const version = options.version ?? 'info';
  const compression = options.compression ?? 'rgb';
  const dibSize = DIB_SIZES[version];
  const { width, height, bitsPerPixel } = options;
  const palette = options.palette ?? [];
  const entrySize = version === 'core' ? 3 : 4;
  const masksAfterHeader = version === 'info' && (compression === 'bitfields' || compression === 'alphabitfields');
  const maskBytes = masksAfterHeader ? (compression === 'alphabitfields' ? 16 : 12) : 0;

  let pixels: Uint8Array;
  if (compression === 'rle8' || compression === 'rle4') {
    pixels = options.rleStream ?? encodeRle(width, height, options.indices!, compression, options.topDown ?? false);
  } else {
    pixels = packedRows(options);
  }
  const dataOffset = 14 + dibSize + maskBytes + palette.length * entrySize;

  const out = new ByteWriter();
  out
    .u8(0x42)
    .u8(0x4d)
    .u32(dataOffset + pixels.length)
    .u32(0)
    .u32(dataOffset);
  out.u32(dibSize);
  if (version === 'core') {
    out.u16(width).u16(height).u16(1).u16(bitsPerPixel);
  } else {
    out
      .u32(width)
      .u32(options.topDown ? -height : height)
      .u16(1)
      .u16(bitsPerPixel);
    if (version !== 'os2v2-16') {
      out.u32(COMPRESSION_CODES[compression]).u32(pixels.length).u32(2835).u32(2835);
      out.u32(options.colorsUsed ?? palette.length).u32(0);
      if (version === 'os2v2-64') out.zeros(24);
    }
    const masks = options.masks ?? { red: 0, green: 0, blue: 0, alpha: 0 };
    const windowsV2Plus = version === 'v2' || version === 'v3' || version === 'v4' || version === 'v5';
    if (windowsV2Plus) out.u32(masks.red).u32(masks.green).u32(masks.blue);
    if (windowsV2Plus && dibSize >= 56) out.u32(masks.alpha ?? 0);
    if (windowsV2Plus && dibSize >= 108) {
      out.u32(0x73524742); // LCS_sRGB
      out.zeros(36 + 12); // endpoints + gammas
    }
    if (version === 'v5') out.u32(4).u32(0).u32(0).u32(0); // intent, profile data, profile size, reserved
  }
  if (masksAfterHeader) {
    const masks = options.masks!;
    out.u32(masks.red).u32(masks.green).u32(masks.blue);
    if (compression === 'alphabitfields') out.u32(masks.alpha ?? 0);
  }
  for (const [r, g, b] of palette) {
    out.u8(b).u8(g).u8(r);
    if (entrySize === 4) out.u8(0);
  }
  if (out.length !== dataOffset) throw new Error(`bmp-writer: header is ${out.length} bytes, expected ${dataOffset}`);
  out.raw(pixels);
  return out.toUint8Array();
}

/** Expected RGBA for palette indices (-1 = transparent black, as unwritten RLE pixels decode). */
export function expectedFromIndices(indices: ArrayLike<number>, palette: ReadonlyArray<readonly [number, number, number]>): Uint8Array {
  const out = new Uint8Array(indices.length * 4);
  for (let i = 0; i < indices.length; i++) {
    if (indices[i] === -1) continue;
    const [r, g, b] = palette[indices[i]];
    out.set([r, g, b, 255], i * 4);
  }
  return out;
}

/** A small deterministic PRNG (mulberry32) so fixtures are the same on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomPalette(count: number, random: () => number): Array<[number, number, number]> {
  return Array.from(
    { length: count },
    () => [Math.floor(random() * 256), Math.floor(random() * 256), Math.floor(random() * 256)] as [number, number, number],
  );
}
