/**
 * Decode stage: bytes in, 8-bit straight (not premultiplied) RGBA out, sRGB, EXIF orientation
 * applied (decodeRaster, which the tracer uses, leaves a file without alpha as RGB). The format
 * comes from the bytes, never the file name (./sniff.ts).
 *
 * Which error a bad input gets, decided here once:
 * - zero bytes: `empty_file`.
 * - the signature of a format we refuse (GIF, TIFF, SVG, HEIC, PDF, ICO, ...): `unsupported_format`,
 *   `details.detected` naming it.
 * - no image signature at all (text named .png, random bytes): `unsupported_format` with
 *   `details.detected` `text`, `html`, `xml` or `unknown`; it is clearly not an image of ours.
 * - the signature of PNG, JPEG, WebP, AVIF or BMP but bytes that do not decode (truncated, corrupt,
 *   a BMP variant we do not read, a side of 0 or over 65535 pixels): `unreadable_file`.
 * - width x height over the pixel limit (`maxPixels`, default ENGINE_MAX_PIXELS): `megapixels_exceeded`
 *   with `details.megapixels` and `details.max_megapixels`. Checked from the header, before any pixel
 *   memory is spent, so a small file that claims a huge picture costs nothing; sharp's own
 *   `limitInputPixels` is set to the same limit as a second guard.
 *
 * sharp is told `failOn: 'error'`: a truncated or corrupt stream is refused instead of coming back
 * with a grey or black tail, while the harmless warnings many camera JPEGs carry (stray bytes
 * between markers) still decode. (sharp's default, 'warning', would refuse those too.)
 */
import { readFile } from 'node:fs/promises';
import type { Metadata, OutputInfo } from 'sharp';
import { sharp } from '../sharp.js';
import { VectorizeError } from '../errors.js';
import { ENGINE_MAX_PIXELS, type ImageProbe, type InputFormat, type RasterImage, type RgbaImage } from '../types.js';
import { decodeBmp, MAX_SIDE, readBmpHeader } from './bmp.js';
import { checkStreamComplete, fourcc, u32le } from './completeness.js';
import { decodePlainPng, readPlainPng } from './png.js';
import { sniff } from './sniff.js';
import { unreadable } from './unreadable.js';

interface DecodedImage extends RgbaImage {
  format: InputFormat;
}

export interface DecodedRaster extends RasterImage {
  format: InputFormat;
  channels: 3 | 4;
  /** Lossy compression (JPEG, AVIF, lossy WebP): the pixels carry its noise and ringing. */
  lossy: boolean;
}

/**
 * Whether the file's pixels went through lossy compression: JPEG and AVIF always (AVIF's lossless
 * mode is rare enough to be treated as lossy: a light denoise costs it nothing visible), WebP when
 * its bitstream is VP8 rather than VP8L (the first chunk, or the one after VP8X/ALPH and friends).
 */
export function isLossy(format: InputFormat, bytes: Uint8Array): boolean {
  if (format === 'jpeg' || format === 'avif') return true;
  if (format !== 'webp') return false;
  for (let at = 12; at + 8 <= bytes.length;) {
    const chunk = fourcc(bytes, at);
    if (chunk === 'VP8 ') return true;
    if (chunk === 'VP8L') return false;
    const size = u32le(bytes, at + 4);
    at += 8 + size + (size & 1);
  }
  return false;
}

interface DecodeOptions {
  /** Pixel limit (width x height); defaults to ENGINE_MAX_PIXELS. */
  maxPixels?: number;
}

/** The format of a file from its first bytes; throws `empty_file` or `unsupported_format`. */
export function detectFormat(bytes: Uint8Array): InputFormat {
  if (bytes.length === 0) throw new VectorizeError('empty_file', 'The file is empty.');
  const found = sniff(bytes);
  if (found.kind === 'ours') return found.format;
  const what =
    found.kind === 'foreign'
      ? `${found.detected.toUpperCase()} files are not supported`
      : found.detected === 'unknown'
        ? 'The file is not an image'
        : `The file is ${found.detected === 'text' ? 'plain text' : found.detected.toUpperCase()}, not an image`;
  throw new VectorizeError('unsupported_format', `${what}; Vectorize reads PNG, JPEG, WebP, AVIF and BMP.`, { detected: found.detected });
}

/** Throws `megapixels_exceeded` when width x height is over the limit. */
function checkPixelLimit(width: number, height: number, maxPixels: number = ENGINE_MAX_PIXELS): void {
  if (width * height <= maxPixels) return;
  const megapixels = roundMegapixels(width * height);
  const maxMegapixels = roundMegapixels(maxPixels);
  throw new VectorizeError('megapixels_exceeded', `The image is ${megapixels} megapixels, over the limit of ${maxMegapixels} megapixels.`, {
    megapixels,
    max_megapixels: maxMegapixels,
    width,
    height,
  });
}

function roundMegapixels(pixels: number): number {
  return Math.round(pixels / 1e4) / 100;
}

function checkSides(format: InputFormat, width: number, height: number): void {
  if (!(width >= 1 && height >= 1 && width <= MAX_SIDE && height <= MAX_SIDE)) {
    throw unreadable(format, `image size ${width}x${height} is empty or exceeds ${MAX_SIDE} pixels a side`);
  }
}

/** What sharp's metadata must say for each format we hand it. */
const SHARP_FORMATS: Record<Exclude<InputFormat, 'bmp'>, string> = { png: 'png', jpeg: 'jpeg', webp: 'webp', avif: 'heif' };

/** Header-only read through sharp: size after EXIF orientation, no pixels decoded. */
async function probeWithSharp(bytes: Uint8Array, format: Exclude<InputFormat, 'bmp'>): Promise<{ width: number; height: number }> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw unreadable(format, 'the header cannot be parsed', error);
  }
  if (meta.format !== SHARP_FORMATS[format]) throw unreadable(format, `the decoder read it as ${meta.format}`);
  // No check of meta.compression for AVIF: libvips derives it from the brands and says 'hevc' for
  // a mif1-branded file whose item is AV1 (sniff.ts has already looked at the item types).
  const width = meta.autoOrient?.width ?? meta.width ?? 0;
  const height = meta.autoOrient?.height ?? meta.height ?? 0;
  checkSides(format, width, height);
  return { width, height };
}

/**
 * Format and size from the header alone (no pixels decoded), for answering `megapixels_exceeded`
 * before a job is queued. Throws the same typed errors as decodeImage for bad headers and for a
 * file whose container shows it was cut short (./completeness.ts); with `maxPixels` it also throws
 * `megapixels_exceeded`.
 */
export async function probeImage(bytes: Uint8Array, options: DecodeOptions = {}): Promise<ImageProbe> {
  const format = detectFormat(bytes);
  let size: { width: number; height: number };
  const bmpHeader = format === 'bmp' ? readBmpHeader(bytes) : undefined;
  const plainPng = format === 'png' ? readPlainPng(bytes) : null;
  if (bmpHeader) size = { width: bmpHeader.width, height: bmpHeader.height };
  else if (plainPng) size = { width: plainPng.width, height: plainPng.height };
  else size = await probeWithSharp(bytes, format as Exclude<InputFormat, 'bmp'>);
  // The plan's limit first: over it, "too many megapixels" is the answer whatever else is wrong.
  if (options.maxPixels !== undefined) checkPixelLimit(size.width, size.height, options.maxPixels);
  checkStreamComplete(format, bytes, bmpHeader);
  return { format, width: size.width, height: size.height, megapixels: (size.width * size.height) / 1e6 };
}

/** Decodes PNG, JPEG, WebP, AVIF or BMP bytes into straight sRGB RGBA. */
export async function decodeImage(bytes: Uint8Array, options: DecodeOptions = {}): Promise<DecodedImage> {
  const raster = await decodeRaster(bytes, options);
  return { format: raster.format, ...toRgba(raster) };
}

/**
 * decodeImage for the tracer: a file without an alpha channel comes back as RGB (channels 3).
 * Widening it to RGBA inside libvips cost a fifth to a half of the whole decode on the corpus's
 * clip art (none of which has alpha), and the fill pipeline reads RGB anyway.
 */
export async function decodeRaster(bytes: Uint8Array, options: DecodeOptions = {}): Promise<DecodedRaster> {
  const maxPixels = options.maxPixels ?? ENGINE_MAX_PIXELS;
  const format = detectFormat(bytes);
  if (format === 'bmp') {
    const header = readBmpHeader(bytes);
    checkPixelLimit(header.width, header.height, maxPixels);
    return { format, channels: 4, lossy: false, ...decodeBmp(bytes, header) };
  }
  const plainPng = format === 'png' ? readPlainPng(bytes) : null;
  if (plainPng) {
    const { width, height, channels } = plainPng;
    checkPixelLimit(width, height, maxPixels);
    const data = decodePlainPng(plainPng);
    if (data) return { format, channels, lossy: false, width, height, data };
  }

  // One call to libvips: it checks the pixel limit from the header before it spends any pixel
  // memory, and its output has three bands or four (with alpha). Only when it refuses does the
  // header probe run, to say why in the contract's words (megapixels_exceeded with the size, or a
  // header that cannot be read); probing first cost a second trip to libvips on every trace.
  let result: { data: Buffer; info: OutputInfo };
  try {
    result = await sharp(bytes, { failOn: 'error', limitInputPixels: Math.max(1, Math.floor(maxPixels)), pages: 1 })
      .autoOrient()
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    const { width, height } = await probeWithSharp(bytes, format);
    checkPixelLimit(width, height, maxPixels);
    throw unreadable(format, error instanceof Error ? error.message : 'the decoder failed', error);
  }
  const { data, info } = result;
  const channels = info.channels;
  if ((channels !== 3 && channels !== 4) || data.length !== info.width * info.height * channels) {
    throw unreadable(format, `the decoder returned ${info.channels} channels of ${info.width}x${info.height}`);
  }
  checkSides(format, info.width, info.height);
  return {
    format,
    channels,
    lossy: isLossy(format, bytes),
    width: info.width,
    height: info.height,
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
  };
}

/** The image as straight RGBA: itself when it already is, else a copy with every alpha 255. */
export function toRgba(image: RasterImage): RgbaImage {
  const { width, height, data } = image;
  if ((image.channels ?? 4) === 4) return { width, height, data };
  const n = width * height;
  const rgba = new Uint8Array(n * 4);
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    rgba[4 * i] = data[j];
    rgba[4 * i + 1] = data[j + 1];
    rgba[4 * i + 2] = data[j + 2];
    rgba[4 * i + 3] = 255;
  }
  return { width, height, data: rgba };
}

/** Reads and decodes a file (CLI convenience). A missing path is `missing_file`. */
export async function decodeFile(path: string, options: DecodeOptions = {}): Promise<DecodedImage> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') {
      throw new VectorizeError('missing_file', `There is no image file at ${path}.`, { path }, { cause: error });
    }
    throw error;
  }
  return decodeImage(bytes, options);
}
