/**
 * Single writer: whoever writes the database holds <dataDir>/vectorize.lock, created exclusively
 * (O_EXCL) with its pid. A lock whose pid is gone is stale (a kill -9) and is taken over.
 */
import { openSync, writeSync, closeSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export class LockedError extends Error {
  constructor(readonly pid: number, readonly path: string) {
    super(`The data dir is in use by process ${pid} (${path}).`);
    this.name = 'LockedError';
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface DataDirLock {
  path: string;
  release(): void;
}

export function lockPath(dataDir: string): string {
  return join(dataDir, 'vectorize.lock');
}

export function readLockPid(dataDir: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(lockPath(dataDir), 'utf8').trim(), 10);
    return Number.isInteger(pid) ? pid : null;
  } catch {
    return null;
  }
}

export function acquireLock(dataDir: string, pid = process.pid): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = lockPath(dataDir);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${pid}\n`);
      closeSync(fd);
      let released = false;
      return {
        path,
        release() {
          if (released) return;
          released = true;
          if (readLockPid(dataDir) === pid) rmSync(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readLockPid(dataDir);
      // Our own pid counts as held too: a second store in this process would be a second writer.
      if (holder !== null && alive(holder)) throw new LockedError(holder, path);
      // Stale (dead pid or unreadable): remove and try again.
      rmSync(path, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${path}.`);
}
