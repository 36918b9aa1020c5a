/**
 * Uploads and results on disk under the data dir. Names are server-made ids, never the client's
 * file name, so nothing a client sends can steer a path.
 */
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, readdir, copyFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface Blobs {
  readonly root: string;
  readonly tmpDir: string;
  init(): Promise<void>;
  /** Moves a finished temp upload into the store; returns its path relative to the root. */
  adoptUpload(tempPath: string, jobId: string): Promise<string>;
  uploadPathFor(jobId: string): string;
  resultPathFor(jobId: string): string;
  /** The trace's geometry (the engine's VectorDocument as JSON), kept beside the result for re-renders. */
  documentPathFor(jobId: string): string;
  /** Copies a kept file to another job's upload path (a re-render's own input); returns that path. */
  copyToUpload(relative: string, jobId: string): Promise<string>;
  absolute(relative: string): string;
  exists(relative: string): Promise<boolean>;
  size(relative: string): Promise<number>;
  open(relative: string): ReadStream;
  remove(relative: string | null): Promise<void>;
  /** Removes temp files older than `olderThanMs` (uploads abandoned by a crash). */
  sweepTemp(olderThanMs: number, now: number): Promise<number>;
  /** Every file under uploads/ and results/, as paths relative to the root, with its mtime. */
  listStored(): Promise<{ path: string; mtimeMs: number }[]>;
}

export function diskBlobs(dataDir: string): Blobs {
  const uploads = join(dataDir, 'uploads');
  const results = join(dataDir, 'results');
  const tmpDir = join(dataDir, 'tmp');
  const absolute = (relative: string) => join(dataDir, relative);
  const uploadPathFor = (jobId: string) => join('uploads', jobId);
  return {
    root: dataDir,
    tmpDir,
    async init() {
      await Promise.all([mkdir(uploads, { recursive: true }), mkdir(results, { recursive: true }), mkdir(tmpDir, { recursive: true })]);
    },
    async adoptUpload(tempPath, jobId) {
      const relative = uploadPathFor(jobId);
      try {
        await rename(tempPath, absolute(relative));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        await copyFile(tempPath, absolute(relative));
        await rm(tempPath, { force: true });
      }
      return relative;
    },
    uploadPathFor,
    resultPathFor(jobId) {
      return join('results', `${jobId}.svg`);
    },
    documentPathFor(jobId) {
      return join('results', `${jobId}.json`);
    },
    async copyToUpload(relative, jobId) {
      const target = uploadPathFor(jobId);
      await copyFile(absolute(relative), absolute(target));
      return target;
    },
    absolute,
    async exists(relative) {
      try {
        await stat(absolute(relative));
        return true;
      } catch {
        return false;
      }
    },
    async size(relative) {
      return (await stat(absolute(relative))).size;
    },
    open(relative) {
      return createReadStream(absolute(relative));
    },
    async remove(relative) {
      if (relative) await rm(absolute(relative), { force: true });
    },
    async sweepTemp(olderThanMs, now) {
      let removed = 0;
      for (const name of await readdir(tmpDir).catch(() => [] as string[])) {
        const path = join(tmpDir, name);
        const info = await stat(path).catch(() => null);
        if (info && now - info.mtimeMs > olderThanMs) {
          await rm(path, { force: true, recursive: true });
          removed++;
        }
      }
      return removed;
    },
    async listStored() {
      const out: { path: string; mtimeMs: number }[] = [];
      for (const dir of ['uploads', 'results']) {
        for (const name of await readdir(absolute(dir)).catch(() => [] as string[])) {
          const path = join(dir, name);
          const info = await stat(absolute(path)).catch(() => null);
          if (info?.isFile()) out.push({ path, mtimeMs: info.mtimeMs });
        }
      }
      return out;
    },
  };
}
