/**
 * Turns what the user drops or picks into a flat list of image files, walking dropped folders
 * (DataTransferItem.webkitGetAsEntry) so a designer can drop a whole folder of logos. Written
 * against the small slice of the entry API it uses, so tests feed it plain objects.
 */
export interface PickedFile {
  file: Blob;
  name: string;
  /** Where it came from inside a dropped folder ("logos/acme.png"); the name alone otherwise. */
  path: string;
}

/** Larger files are refused here, never uploaded. */
export { MAX_UPLOAD_BYTES } from '../../server/limits.js';

/** The formats the contract accepts; anything else in a dropped folder is skipped, not failed. */
const ACCEPTED_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.webp', '.avif', '.bmp'] as const;
export const ACCEPT_ATTRIBUTE = 'image/png,image/jpeg,image/webp,image/avif,image/bmp,' + ACCEPTED_EXTENSIONS.join(',');

export function isAcceptedImage(name: string, type = ''): boolean {
  if (/^image\/(png|jpeg|webp|avif|bmp|x-ms-bmp)$/.test(type)) return true;
  const lower = name.toLowerCase();
  return ACCEPTED_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

interface FileEntryLike {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  fullPath?: string;
  file?(success: (file: File) => void, failure?: (error: unknown) => void): void;
  createReader?(): { readEntries(success: (entries: FileEntryLike[]) => void, failure?: (error: unknown) => void): void };
}

interface DataTransferItemLike {
  kind: string;
  webkitGetAsEntry?(): FileEntryLike | null;
  getAsFile(): File | null;
}

/** Dropped folders can be deep; a cap keeps a dropped home directory from freezing the page. */
export const MAX_FILES_PER_DROP = 2_000;

function entryFile(entry: FileEntryLike): Promise<File> {
  return new Promise((resolve, reject) => entry.file!(resolve, reject));
}

async function readAllEntries(entry: FileEntryLike): Promise<FileEntryLike[]> {
  const reader = entry.createReader!();
  const all: FileEntryLike[] = [];
  // readEntries hands out directory contents in chunks (100 in Chromium) until an empty one.
  for (;;) {
    const chunk = await new Promise<FileEntryLike[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (chunk.length === 0) return all;
    all.push(...chunk);
  }
}

async function walk(entry: FileEntryLike, prefix: string, out: PickedFile[], skipped: string[]): Promise<void> {
  if (out.length >= MAX_FILES_PER_DROP) return;
  const path = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile && entry.file) {
    if (!isAcceptedImage(entry.name)) {
      skipped.push(path);
      return;
    }
    const file = await entryFile(entry);
    out.push({ file, name: entry.name, path });
  } else if (entry.isDirectory && entry.createReader) {
    // Hidden folders (.git, __MACOSX) hold no artwork a designer meant to drop.
    if (entry.name.startsWith('.') || entry.name === '__MACOSX') return;
    const children = await readAllEntries(entry);
    children.sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }));
    for (const child of children) await walk(child, path, out, skipped);
  }
}

/**
 * Files from a drop: folders are walked, non-images are skipped. Entries must be taken from the
 * items synchronously inside the drop handler (the DataTransfer is emptied afterwards), which is
 * why this takes the items list and reads every entry before the first await.
 */
export async function filesFromDataTransfer(
  items: ArrayLike<DataTransferItemLike>,
  fallback: ArrayLike<File> = [],
  skipped: string[] = [],
): Promise<PickedFile[]> {
  const entries: FileEntryLike[] = [];
  const loose: File[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry?.() ?? null;
    if (entry) entries.push(entry);
    else {
      const file = item.getAsFile();
      if (file) loose.push(file);
    }
  }
  if (entries.length === 0 && loose.length === 0) loose.push(...Array.from(fallback));
  const out: PickedFile[] = [];
  for (const entry of entries) await walk(entry, '', out, skipped);
  out.push(...filesFromList(loose, skipped));
  return out.slice(0, MAX_FILES_PER_DROP);
}

/** Files from an <input type=file> (with or without webkitdirectory); what is no image goes to `skipped`. */
export function filesFromList(list: ArrayLike<File>, skipped: string[] = []): PickedFile[] {
  const out: PickedFile[] = [];
  for (const file of Array.from(list)) {
    const relative = (file as File & { webkitRelativePath?: string }).webkitRelativePath;
    if (!isAcceptedImage(file.name, file.type)) {
      skipped.push(relative || file.name);
      continue;
    }
    out.push({ file, name: file.name, path: relative || file.name });
  }
  return out.slice(0, MAX_FILES_PER_DROP);
}

/** "logos/acme.png" → "acme.svg"; keeps the name a designer recognises. */
export function svgNameFor(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  const stem = base.replace(/\.[^.]+$/, '') || 'image';
  return `${stem}.svg`;
}
