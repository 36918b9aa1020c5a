/**
 * Reads the images a user picked in the native open dialog, or that the OS handed the app (a
 * file dropped on its icon, "Open with", a second launch), into OpenedFile records for the page.
 * Folders are walked like a drop in the page: images only, hidden folders skipped, name order.
 */
import { open, readdir, stat } from 'node:fs/promises';
import { basename, extname, join, relative } from 'node:path';
import type { OpenedFile } from './bridge.js';
import { MAX_UPLOAD_BYTES } from '../server/limits.js';

const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.bmp': 'image/bmp',
};

const MAX_OPENED_FILES = 2_000;

function isImagePath(path: string): boolean {
  return extname(path).toLowerCase() in TYPES;
}

async function collect(path: string, base: string, out: string[][]): Promise<void> {
  if (out.length >= MAX_OPENED_FILES) return;
  const info = await stat(path).catch(() => undefined);
  if (!info) return;
  if (info.isDirectory()) {
    const name = basename(path);
    if (path !== base && (name.startsWith('.') || name === '__MACOSX')) return;
    const entries = (await readdir(path)).sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
    for (const entry of entries) await collect(join(path, entry), base, out);
  } else if (info.isFile() && isImagePath(path)) {
    out.push([path, base]);
  }
}

/**
 * A file over the upload limit is read only up to one byte past it: the server then answers
 * file_too_large and the page shows why, without the app holding gigabytes in memory.
 */
async function readCapped(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    const length = Math.min(size, MAX_UPLOAD_BYTES + 1);
    const buffer = new Uint8Array(length);
    let offset = 0;
    while (offset < length) {
      const { bytesRead } = await handle.read(buffer, offset, length - offset, offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
    }
    return buffer.subarray(0, offset);
  } finally {
    await handle.close();
  }
}

export async function readImages(paths: readonly string[]): Promise<OpenedFile[]> {
  const found: string[][] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    // A picked folder names its files relative to the folder's parent ("logos/a.png").
    await collect(path, info?.isDirectory() ? join(path, '..') : path, found);
  }
  const files: OpenedFile[] = [];
  for (const [path, base] of found.slice(0, MAX_OPENED_FILES)) {
    files.push({
      name: basename(path),
      path: base === path ? basename(path) : relative(base, path).split('\\').join('/'),
      type: TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream',
      bytes: await readCapped(path),
    });
  }
  return files;
}

/** Paths among command-line arguments (a second launch, "Open with"): existing images or folders. */
export function pathsFromArgv(argv: readonly string[], cwd: string): string[] {
  return argv
    .slice(1)
    .filter((arg) => !arg.startsWith('-') && arg !== '.')
    .map((arg) => (arg.startsWith('/') || /^[A-Za-z]:[\\/]/.test(arg) ? arg : join(cwd, arg)))
    .filter((path) => isImagePath(path) || !extname(path));
}
