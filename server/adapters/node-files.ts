/**
 * The files an API node leaves in the data dir for the admin CLI and the TUI on its machine: its
 * address and the admin token. In lowdb mode one process holds the data dir (adapters/lock.ts):
 * `server.json` and a fresh `admin.token` per start, both removed at stop. With PostgreSQL every
 * node mounts the same data dir, so a single `server.json` would name whichever node wrote last
 * and vanish when any node stopped; instead:
 *
 * - each API node writes `nodes/<host>.<pid>.<port>.json` and removes only its own;
 * - `admin.token` is created once, by whichever node starts first, and every node adopts it: the
 *   file is written under a temp name and hard-linked into place, which fails with EEXIST when
 *   another node got there first (atomic on NFS too, unlike O_EXCL on old clients), so no node
 *   ever reads half a token or replaces one another node already compares against.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export interface ServerInfoFile {
  pid: number;
  /** The machine the node runs on: the admin API answers on loopback only, so only its own machine reaches it. */
  hostname: string;
  host: string;
  port: number;
  url: string;
  started_at: string;
}

export function serverInfoPath(dataDir: string): string {
  return join(dataDir, 'server.json');
}
export function adminTokenPath(dataDir: string): string {
  return join(dataDir, 'admin.token');
}
function nodesDir(dataDir: string): string {
  return join(dataDir, 'nodes');
}

/** Shorter than this is no token this code wrote (32 random bytes, base64url). */
const MIN_TOKEN_LENGTH = 32;

function writeAtomically(path: string, content: string): void {
  const temp = `${path}.${randomUUID()}.tmp`;
  writeFileSync(temp, content, { mode: 0o600, flag: 'wx' });
  renameSync(temp, path);
}

/** The admin token every node of this data dir accepts: a fresh one per start, or with `shared` the one already there. */
export function publishAdminToken(dataDir: string, shared: boolean): string {
  const path = adminTokenPath(dataDir);
  const fresh = randomBytes(32).toString('base64url');
  if (!shared) {
    writeAtomically(path, `${fresh}\n`);
    return fresh;
  }
  const temp = `${path}.${randomUUID()}.tmp`;
  writeFileSync(temp, `${fresh}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temp, path);
    return fresh;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(temp, { force: true });
  }
  const existing = readFileSync(path, 'utf8').trim();
  if (existing.length < MIN_TOKEN_LENGTH) {
    throw new Error(`${path} holds no usable admin token; stop every API node of this data dir, delete the file and start them again.`);
  }
  return existing;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Writes this node's address for the CLI and the TUI; returns the function that removes it again. */
export function publishServerInfo(dataDir: string, info: Omit<ServerInfoFile, 'hostname'>, shared: boolean): () => void {
  const content = `${JSON.stringify({ ...info, hostname: hostname() } satisfies ServerInfoFile, null, 2)}\n`;
  if (!shared) {
    writeAtomically(serverInfoPath(dataDir), content);
    return () => rmSync(serverInfoPath(dataDir), { force: true });
  }
  const dir = nodesDir(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // What a node of this machine killed without its stop left behind: its pid is gone. Other
  // machines' files are theirs to prune (a pid means nothing here).
  for (const name of readdirSync(dir)) {
    const match = /^(.+)\.(\d+)\.\d+\.json$/.exec(name);
    if (match && match[1] === hostname() && !alive(Number(match[2]))) rmSync(join(dir, name), { force: true });
  }
  const path = join(dir, `${hostname()}.${info.pid}.${info.port}.json`);
  writeAtomically(path, content);
  return () => rmSync(path, { force: true });
}
