/**
 * Format detection from the first bytes of a file (magic numbers); the file name never counts.
 *
 * The answer is one of three kinds:
 * - `ours`: the bytes carry the signature of one of the five formats we decode (PNG, JPEG, WebP,
 *   AVIF, BMP). From here on every failure is `unreadable_file`: the file claims to be an image we
 *   read, so a user should hear "this file is damaged", not "we don't take this format".
 * - `foreign`: the signature of a format we recognise but refuse (GIF, TIFF, SVG, HEIC, PDF, ICO, ...).
 *   `detected` is a short stable token naming it, for `details.detected`.
 * - `unknown`: no signature at all (a text file named .png, random bytes). `detected` is `text`,
 *   `html`, `xml` or `unknown`. Such a file is not an image of ours, so it is `unsupported_format` too.
 *
 * Signatures are checked whole where the format has a long one (PNG 8 bytes, WebP 12), so a file
 * that merely starts with a common letter pair is not mistaken for an image; BMP's two-letter "BM"
 * additionally needs a known DIB header size at offset 14 (or a file too short to hold one, which is
 * then a truncated BMP).
 */
import type { InputFormat } from '../types.js';

type Sniffed =
  | { kind: 'ours'; format: InputFormat }
  | { kind: 'foreign'; detected: string }
  | { kind: 'unknown'; detected: 'text' | 'html' | 'xml' | 'unknown' };

/** DIB header sizes of the BMP variants we read: OS/2 1.x core, OS/2 2.x (short and full), Windows 3.x, V2, V3, V4, V5. */
const BMP_DIB_HEADER_SIZES: ReadonlySet<number> = new Set([12, 16, 40, 52, 56, 64, 108, 124]);

// PNG's 0x89 before "PNG" is distinctive enough that four bytes claim the format (a file cut
// inside the 8-byte signature is then a truncated PNG, not a foreign one).
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47];

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  for (let i = 0; i < signature.length; i++) if (bytes[at + i] !== signature[i]) return false;
  return true;
}

function ascii(bytes: Uint8Array, from: number, length: number): string {
  if (bytes.length < from + length) return '';
  let text = '';
  for (let i = from; i < from + length; i++) text += String.fromCharCode(bytes[i]);
  return text;
}

function readU32BE(bytes: Uint8Array, at: number): number {
  return ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
}

/** Signatures we refuse, longest-first where one is a prefix of another. */
const FOREIGN_SIGNATURES: ReadonlyArray<{ detected: string; test: (b: Uint8Array) => boolean }> = [
  { detected: 'gif', test: (b) => ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a' },
  { detected: 'tiff', test: (b) => startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a]) },
  { detected: 'bigtiff', test: (b) => startsWith(b, [0x49, 0x49, 0x2b, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2b]) },
  { detected: 'pdf', test: (b) => ascii(b, 0, 5) === '%PDF-' },
  { detected: 'postscript', test: (b) => ascii(b, 0, 4) === '%!PS' || startsWith(b, [0xc5, 0xd0, 0xd3, 0xc6]) },
  { detected: 'psd', test: (b) => ascii(b, 0, 4) === '8BPS' },
  { detected: 'jpeg2000', test: (b) => startsWith(b, [0, 0, 0, 0x0c, 0x6a, 0x50, 0x20, 0x20]) || startsWith(b, [0xff, 0x4f, 0xff, 0x51]) },
  { detected: 'jpegxl', test: (b) => startsWith(b, [0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20]) || startsWith(b, [0xff, 0x0a]) },
  { detected: 'qoi', test: (b) => ascii(b, 0, 4) === 'qoif' },
  { detected: 'openexr', test: (b) => startsWith(b, [0x76, 0x2f, 0x31, 0x01]) },
  { detected: 'radiance-hdr', test: (b) => ascii(b, 0, 10) === '#?RADIANCE' || ascii(b, 0, 6) === '#?RGBE' },
  { detected: 'dds', test: (b) => ascii(b, 0, 4) === 'DDS ' },
  { detected: 'icns', test: (b) => ascii(b, 0, 4) === 'icns' },
  // ICO/CUR: reserved 0, type 1 or 2, then a non-zero image count.
  { detected: 'ico', test: (b) => startsWith(b, [0, 0, 1, 0]) && b.length >= 6 && (b[4] | b[5]) !== 0 },
  { detected: 'cur', test: (b) => startsWith(b, [0, 0, 2, 0]) && b.length >= 6 && (b[4] | b[5]) !== 0 },
  // OS/2 bitmap arrays and icons share BMP's first byte but not its layout.
  { detected: 'os2-bitmap-array', test: (b) => ['BA', 'CI', 'CP', 'IC', 'PT'].includes(ascii(b, 0, 2)) && b.length >= 14 },
  {
    detected: 'netpbm',
    test: (b) => b[0] === 0x50 && b[1] >= 0x31 && b[1] <= 0x37 && (b[2] === 0x0a || b[2] === 0x20 || b[2] === 0x0d || b[2] === 0x09),
  },
  { detected: 'zip', test: (b) => startsWith(b, [0x50, 0x4b, 0x03, 0x04]) },
  { detected: 'gzip', test: (b) => startsWith(b, [0x1f, 0x8b]) },
];

/**
 * ISO-BMFF (`ftyp` at offset 4): AVIF when a brand says so (avif, avis) or when a MIAF/HEIF
 * container (mif1, msf1) holds an `av01` item; HEIC/HEIF and video otherwise.
 */
function sniffIsoBmff(bytes: Uint8Array): Sniffed | null {
  if (ascii(bytes, 4, 4) !== 'ftyp') return null;
  const ftypSize = readU32BE(bytes, 0);
  const brands: string[] = [ascii(bytes, 8, 4)];
  const brandsEnd = Math.min(bytes.length, ftypSize >= 16 ? ftypSize : 16);
  for (let at = 16; at + 4 <= brandsEnd; at += 4) brands.push(ascii(bytes, at, 4));
  if (brands.includes('avif') || brands.includes('avis')) return { kind: 'ours', format: 'avif' };
  const itemTypes = ftypSize >= 8 ? heifItemTypes(bytes, ftypSize) : new Set<string>();
  if (itemTypes.has('av01')) return { kind: 'ours', format: 'avif' };
  const heicBrands = ['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs'];
  if (brands.some((brand) => heicBrands.includes(brand)) || itemTypes.has('hvc1') || itemTypes.has('hev1')) {
    return { kind: 'foreign', detected: 'heic' };
  }
  if (brands.includes('mif1') || brands.includes('msf1')) return { kind: 'foreign', detected: 'heif' };
  if (brands.some((brand) => brand === 'qt  ')) return { kind: 'foreign', detected: 'quicktime' };
  return { kind: 'foreign', detected: 'mp4' };
}

/**
 * Item types listed in the top-level `meta` box's `iinf` (each `infe` of version 2 or 3 names its
 * item type). Every read is bounded by the enclosing box and by the bytes present; a damaged
 * container simply yields fewer types.
 */
function heifItemTypes(bytes: Uint8Array, firstBoxAt: number): Set<string> {
  const types = new Set<string>();
  const meta = findChildBox(bytes, firstBoxAt, bytes.length, 'meta');
  if (!meta) return types;
  const iinf = findChildBox(bytes, meta.bodyStart + 4, meta.end, 'iinf'); // meta is a full box: skip version+flags
  if (!iinf) return types;
  const iinfVersion = bytes[iinf.bodyStart];
  let at = iinf.bodyStart + 4 + (iinfVersion === 0 ? 2 : 4);
  for (let guard = 0; guard < 4096 && at + 8 <= iinf.end; guard++) {
    const size = readU32BE(bytes, at);
    if (size < 8 || at + size > iinf.end) break;
    if (ascii(bytes, at + 4, 4) === 'infe') {
      const version = bytes[at + 8];
      const typeAt = at + 12 + (version === 3 ? 4 : 2) + 2;
      if (version >= 2 && typeAt + 4 <= at + size) types.add(ascii(bytes, typeAt, 4));
    }
    at += size;
  }
  return types;
}

function findChildBox(bytes: Uint8Array, from: number, end: number, type: string): { bodyStart: number; end: number } | null {
  let at = from;
  const limit = Math.min(end, bytes.length);
  for (let guard = 0; guard < 4096 && at + 8 <= limit; guard++) {
    let size = readU32BE(bytes, at);
    let header = 8;
    if (size === 1) {
      // 64-bit size; anything past 2^32 cannot be inside the bytes we hold anyway.
      if (at + 16 > limit) return null;
      if (readU32BE(bytes, at + 8) !== 0) return null;
      size = readU32BE(bytes, at + 12);
      header = 16;
    } else if (size === 0) {
      size = limit - at; // box runs to the end of the file
    }
    if (size < header) return null;
    if (ascii(bytes, at + 4, 4) === type) return { bodyStart: at + header, end: Math.min(at + size, limit) };
    at += size;
  }
  return null;
}

/** Whether the start of the file reads as text (UTF-8 or Latin-1 without control bytes other than whitespace). */
function looksLikeText(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 512);
  let printable = 0;
  for (const byte of sample) {
    if (byte === 0x09 || byte === 0x0a || byte === 0x0d || byte === 0x0c || byte >= 0x20) printable++;
    else return false;
  }
  return printable > 0;
}

function textKind(bytes: Uint8Array): Sniffed {
  // Skip a UTF-8 byte order mark and leading whitespace before looking at markup.
  let start = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  while (
    start < bytes.length &&
    start < 1024 &&
    (bytes[start] === 0x20 || bytes[start] === 0x09 || bytes[start] === 0x0a || bytes[start] === 0x0d)
  )
    start++;
  const head = ascii(bytes, start, Math.min(bytes.length - start, 4096)).toLowerCase();
  if (head.startsWith('<')) {
    if (head.includes('<svg')) return { kind: 'foreign', detected: 'svg' };
    if (head.startsWith('<!doctype html') || head.startsWith('<html')) return { kind: 'unknown', detected: 'html' };
    if (head.startsWith('<?xml')) return { kind: 'unknown', detected: 'xml' };
  }
  return { kind: 'unknown', detected: looksLikeText(bytes) ? 'text' : 'unknown' };
}

/** Reads the signature of a non-empty byte string. */
export function sniff(bytes: Uint8Array): Sniffed {
  if (startsWith(bytes, PNG_MAGIC)) return { kind: 'ours', format: 'png' };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { kind: 'ours', format: 'jpeg' };
  if (ascii(bytes, 0, 4) === 'RIFF') {
    const type = ascii(bytes, 8, 4);
    if (type === 'WEBP') return { kind: 'ours', format: 'webp' };
    return { kind: 'foreign', detected: type ? `riff-${type.trim().toLowerCase()}` : 'riff' };
  }
  if (ascii(bytes, 0, 2) === 'BM') {
    // A file cut before the DIB header size still claims to be a BMP (and is then unreadable).
    if (bytes.length < 18) return { kind: 'ours', format: 'bmp' };
    const dibSize = (bytes[14] | (bytes[15] << 8) | (bytes[16] << 16) | (bytes[17] << 24)) >>> 0;
    if (BMP_DIB_HEADER_SIZES.has(dibSize)) return { kind: 'ours', format: 'bmp' };
  }
  const isoBmff = sniffIsoBmff(bytes);
  if (isoBmff) return isoBmff;
  for (const signature of FOREIGN_SIGNATURES) {
    if (signature.test(bytes)) return { kind: 'foreign', detected: signature.detected };
  }
  return textKind(bytes);
}
