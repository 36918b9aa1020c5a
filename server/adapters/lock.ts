/**
 * Single writer: whoever writes the database holds <dataDir>/vectorize.lock, created exclusively
 * (O_EXCL) with its pid, the process's start time and the boot id. A lock is held only while a
 * process with that pid AND that start time runs: a pid alone lies after a kill -9, since a
 * restarted container is pid 1 again and any pid is reused in time. Where /proc is missing (not
 * Linux) the pid alone decides.
 */
import { openSync, writeSync, closeSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export class LockedError extends Error {
  constructor(
    readonly pid: number,
    readonly path: string,
  ) {
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

/** Field 22 of /proc/<pid>/stat: clock ticks from boot to the process's start. */
function startTimeOf(pid: number): string | null {
  // Our own pid reads /proc/self: in a pid namespace without its own /proc mount, /proc/<pid>
  // would name another process.
  const path = pid === process.pid ? '/proc/self/stat' : `/proc/${pid}/stat`;
  try {
    const stat = readFileSync(path, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function bootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return null;
  }
}

interface Holder {
  pid: number;
  startTime: string | null;
  bootId: string | null;
}

function readHolder(dataDir: string): Holder | null {
  try {
    const [pid, startTime, boot] = readFileSync(lockPath(dataDir), 'utf8')
      .split('\n')
      .map((line) => line.trim());
    const parsed = Number.parseInt(pid ?? '', 10);
    return Number.isInteger(parsed) ? { pid: parsed, startTime: startTime || null, bootId: boot || null } : null;
  } catch {
    return null;
  }
}

function holds(holder: Holder): boolean {
  if (!alive(holder.pid)) return false;
  if (holder.bootId && bootId() && holder.bootId !== bootId()) return false;
  const now = startTimeOf(holder.pid);
  return !holder.startTime || !now || holder.startTime === now;
}

interface DataDirLock {
  path: string;
  release(): void;
}

export function lockPath(dataDir: string): string {
  return join(dataDir, 'vectorize.lock');
}

function readLockPid(dataDir: string): number | null {
  return readHolder(dataDir)?.pid ?? null;
}

export function acquireLock(dataDir: string, pid = process.pid): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = lockPath(dataDir);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${pid}\n${startTimeOf(pid) ?? ''}\n${bootId() ?? ''}\n`);
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
      const holder = readHolder(dataDir);
      // Our own pid and start time count as held too: a second store in this process would be a second writer.
      if (holder !== null && holds(holder)) throw new LockedError(holder.pid, path);
      // Stale (dead pid, a reused pid, or unreadable): remove and try again.
      rmSync(path, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${path}.`);
}
