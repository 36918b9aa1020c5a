/**
 * PNG files written byte by byte, for inputs no encoder makes: a header that claims any size over
 * a few bytes of data (decompression bombs, the pixel limit, probes that read headers only).
 */
import { crc32, deflateSync } from 'node:zlib';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One chunk: body length, type, body, then the CRC-32 of type and body. */
function pngChunk(type: string, body: Uint8Array): Buffer {
  const chunk = Buffer.alloc(12 + body.length);
  chunk.writeUInt32BE(body.length, 0);
  chunk.write(type, 4, 'latin1');
  chunk.set(body, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + body.length)), 8 + body.length);
  return chunk;
}

/**
 * A PNG whose IHDR claims width×height at 8 bits (colour type 0 grey, 6 RGBA; no interlace) and
 * whose one IDAT holds `raw` deflated, whatever the size claimed.
 */
export function handMadePng(width: number, height: number, colourType: 0 | 6, raw: Uint8Array): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = colourType;
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', new Uint8Array(0))]);
}
