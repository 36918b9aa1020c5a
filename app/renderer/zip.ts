/**
 * A small ZIP writer for "Save all" in the browser: one download instead of one per file. Entries
 * are deflated with the platform's CompressionStream (SVG text shrinks to a fifth or less) and
 * written with sizes known up front, so no data descriptors and no ZIP64: the page refuses an
 * archive past the 4 GiB and 65,535-entry limits of plain ZIP instead of writing a broken one.
 * No DOM here, so Node tests read the archive back with `unzip`.
 */

interface ZipEntry {
  /** Path inside the archive, "/"-separated ("logos/acme.svg"). */
  name: string;
  data: Uint8Array;
}

const MAX_ENTRIES = 0xffff;
const MAX_OFFSET = 0xffffffff;
/** Bit 11: names are UTF-8, so "Logo – café.svg" unpacks with its accents on every OS. */
const FLAG_UTF8 = 0x0800;
const METHOD_DEFLATE = 8;
const METHOD_STORE = 0;
const VERSION_NEEDED = 20;
/**
 * "Made by" Unix: unzip then takes the names as they are (for an MS-DOS origin Info-ZIP
 * re-encodes them from code page 437 and garbles accents) and the mode below as permissions.
 */
const VERSION_MADE_BY = (3 << 8) | VERSION_NEEDED;
const UNIX_FILE_MODE = 0o100644;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = CRC_TABLE[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

async function deflateRaw(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** MS-DOS time and date, the only timestamp plain ZIP headers carry (local time, 2-second steps). */
function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.max(1980, date.getFullYear());
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/**
 * Entry names a person can unpack safely: no absolute paths, no "..", no characters Windows
 * refuses, and no two entries with the same name ("logo.svg", "logo (2).svg", as the desktop app
 * names them in a folder).
 */
export function archiveNames(names: string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const segments = name
      .split(/[\\/]+/)
      .map((segment) => segment.replace(/[\u0000-\u001f<>:"|?*]/g, '_').trim())
      .filter((segment) => segment !== '' && segment !== '.' && segment !== '..');
    const clean = segments.join('/') || 'image.svg';
    const dot = clean.lastIndexOf('.');
    // ".svg" alone is a name, not an extension: "a/.svg" becomes "a/.svg (2)".
    const [stem, ext] = dot > clean.lastIndexOf('/') + 1 ? [clean.slice(0, dot), clean.slice(dot)] : [clean, ''];
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? clean : `${stem} (${n})${ext}`;
      if (!taken.has(candidate.toLowerCase())) {
        taken.add(candidate.toLowerCase());
        return candidate;
      }
    }
  });
}

interface CommonFields {
  method: number;
  time: number;
  date: number;
  crc: number;
  compressed: number;
  size: number;
  nameLength: number;
}

/** The run of fields the local header and the central record share, from "version needed" to the name length. */
function writeCommonFields(view: DataView, at: number, fields: CommonFields): void {
  view.setUint16(at, VERSION_NEEDED, true);
  view.setUint16(at + 2, FLAG_UTF8, true);
  view.setUint16(at + 4, fields.method, true);
  view.setUint16(at + 6, fields.time, true);
  view.setUint16(at + 8, fields.date, true);
  view.setUint32(at + 10, fields.crc, true);
  view.setUint32(at + 14, fields.compressed, true);
  view.setUint32(at + 18, fields.size, true);
  view.setUint16(at + 22, fields.nameLength, true);
}

export async function zipFiles(entries: ZipEntry[], modified = new Date()): Promise<Blob> {
  if (entries.length > MAX_ENTRIES) throw new RangeError(`A ZIP holds at most ${MAX_ENTRIES} files; save fewer at once.`);
  const encoder = new TextEncoder();
  const stamp = dosDateTime(modified);
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = encoder.encode(entry.name);
    const deflated = await deflateRaw(entry.data);
    // Tiny or incompressible data is stored as is: deflate would only add bytes.
    const [method, body] = deflated.length < entry.data.length ? [METHOD_DEFLATE, deflated] : [METHOD_STORE, entry.data];
    const crc = crc32(entry.data);
    const fields = {
      method,
      time: stamp.time,
      date: stamp.date,
      crc,
      compressed: body.length,
      size: entry.data.length,
      nameLength: name.length,
    };
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    writeCommonFields(local, 4, fields);
    const record = new DataView(new ArrayBuffer(46));
    record.setUint32(0, 0x02014b50, true);
    record.setUint16(4, VERSION_MADE_BY, true);
    writeCommonFields(record, 6, fields);
    record.setUint32(38, UNIX_FILE_MODE << 16, true);
    record.setUint32(42, offset, true);
    central.push(new Uint8Array(record.buffer), name);
    parts.push(new Uint8Array(local.buffer), name, body);
    offset += 30 + name.length + body.length;
    if (offset > MAX_OFFSET) throw new RangeError('The SVGs come to more than 4 GiB, too large for one ZIP; save fewer at once.');
  }
  const centralSize = central.reduce((sum, part) => sum + part.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, centralSize, true);
  end.setUint32(16, offset, true);
  return new Blob([...parts, ...central, new Uint8Array(end.buffer)] as Uint8Array<ArrayBuffer>[], { type: 'application/zip' });
}
