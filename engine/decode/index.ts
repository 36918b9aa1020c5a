/**
 * Decode stage: bytes in, straight RGBA out. The format comes from the bytes, never the file name.
 * (First cut: sharp for PNG/JPEG/WebP/AVIF; the decode work of issue 2 adds BMP, probing and the
 * typed errors for every bad input.)
 */
import sharp from 'sharp';
import { VectorizeError } from '../errors.js';
import { ENGINE_MAX_PIXELS, type ImageProbe, type InputFormat, type RgbaImage } from '../types.js';

export interface DecodedImage extends RgbaImage {
  format: InputFormat;
}

export function detectFormat(bytes: Uint8Array): InputFormat {
  if (bytes.length === 0) throw new VectorizeError('empty_file', 'The file is empty.');
  const b = bytes;
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b[0] === 0x42 && b[1] === 0x4d) return 'bmp';
  const ascii = (from: number, to: number) => String.fromCharCode(...b.subarray(from, to));
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  if (ascii(4, 8) === 'ftyp' && /avi[fs]/.test(ascii(8, 12))) return 'avif';
  throw new VectorizeError('unsupported_format', 'The file is not PNG, JPEG, WebP, AVIF or BMP.');
}

export async function probeImage(bytes: Uint8Array): Promise<ImageProbe> {
  const format = detectFormat(bytes);
  const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  return { format, width, height, megapixels: (width * height) / 1e6 };
}

export async function decodeImage(bytes: Uint8Array, options: { maxPixels?: number } = {}): Promise<DecodedImage> {
  const format = detectFormat(bytes);
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: options.maxPixels ?? ENGINE_MAX_PIXELS })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { format, width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
  } catch (error) {
    throw new VectorizeError('unreadable_file', 'The image could not be decoded.', {}, { cause: error });
  }
}
