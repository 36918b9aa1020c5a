/**
 * The data dir holds images, results, the admin token and webhook secrets: only the server's user
 * may read it. Files are created under a 077 umask (every writer: hapi's uploads, lowdb, the
 * engine workers), and what an earlier run or another tool left readable is tightened at start.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

/** Sets the process umask to 077 and tightens dataDir; returns how many entries were changed. */
export function secureDataDir(dataDir: string): number {
  process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: DIR_MODE });
  let changed = 0;
  const visit = (path: string) => {
    const info = lstatSync(path);
    if (info.isSymbolicLink()) return;
    const wanted = info.isDirectory() ? DIR_MODE : FILE_MODE;
    if ((info.mode & 0o777) !== wanted) {
      chmodSync(path, wanted);
      changed++;
    }
    if (info.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dataDir);
  return changed;
}
