/**
 * Finds the running server for `vectorize tui`: its address from `<dataDir>/server.json` (written
 * by the server at boot) unless `--url` names one, and the admin token from `<dataDir>/admin.token`.
 * The TUI never opens the database itself: with no server running it says how to start one
 * (docs/operations.md, "Single writer": only one process ever writes the database file).
 */
import { readdir, readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';

interface AdminConnection {
  baseUrl: string;
  adminToken: string;
  dataDir: string;
}

export class NoServerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoServerError';
  }
}

interface ServerInfo {
  url?: unknown;
  host?: unknown;
  port?: unknown;
}

/** The server binds loopback for admin calls; a wildcard bind is reached through loopback too. */
function loopbackHost(host: string): string {
  if (host === '0.0.0.0' || host === '' || host === '::') return '127.0.0.1';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

export function serverUrlFromInfo(info: ServerInfo): string | undefined {
  if (typeof info.url === 'string' && /^https?:\/\//.test(info.url)) return info.url;
  if (typeof info.port === 'number' && Number.isInteger(info.port) && info.port > 0) {
    return `http://${loopbackHost(typeof info.host === 'string' ? info.host : '127.0.0.1')}:${info.port}`;
  }
  return undefined;
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function running(pid: unknown): boolean {
  if (typeof pid !== 'number') return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * With PostgreSQL each API node sharing the data dir writes `nodes/<host>.<pid>.<port>.json`
 * (server/adapters/node-files.ts). The admin API answers on loopback only, so the TUI takes the
 * newest live node of this machine; finding only other machines' nodes, it says where to run.
 */
async function clusterNodeInfo(dataDir: string): Promise<string | undefined> {
  let names: string[];
  try {
    names = (await readdir(path.join(dataDir, 'nodes'))).filter((name) => name.endsWith('.json'));
  } catch {
    return undefined;
  }
  const here: Array<{ raw: string; startedAt: string }> = [];
  const elsewhere = new Set<string>();
  for (const name of names) {
    const raw = await readIfExists(path.join(dataDir, 'nodes', name));
    let info: { hostname?: unknown; pid?: unknown; started_at?: unknown };
    try {
      info = JSON.parse(raw ?? '') as typeof info;
    } catch {
      continue;
    }
    if (info.hostname !== hostname()) elsewhere.add(String(info.hostname));
    else if (running(info.pid)) here.push({ raw: raw!, startedAt: String(info.started_at) });
  }
  if (here.length === 0 && elsewhere.size > 0) {
    const hosts = [...elsewhere].sort().join(', ');
    throw new NoServerError(
      `No API node of ${dataDir} runs on this machine, and the admin API answers on loopback only: ` +
        `run the TUI on ${hosts} (or pass --url through an SSH tunnel).`,
    );
  }
  return here.sort((a, b) => b.startedAt.localeCompare(a.startedAt))[0]?.raw;
}

const START_HINT = 'Start it with `npm start` (or `vectorize serve`) on that data dir, then run `vectorize tui` again.';

export async function resolveAdminConnection(options: { url?: string; dataDir: string }): Promise<AdminConnection> {
  const dataDir = path.resolve(options.dataDir);
  let baseUrl = options.url;
  if (!baseUrl) {
    const raw = (await readIfExists(path.join(dataDir, 'server.json'))) ?? (await clusterNodeInfo(dataDir));
    if (raw === undefined) throw new NoServerError(`No Vectorize server is running on ${dataDir} (no server.json there). ${START_HINT}`);
    let info: ServerInfo;
    try {
      info = JSON.parse(raw) as ServerInfo;
    } catch {
      throw new NoServerError(`${path.join(dataDir, 'server.json')} is not valid JSON. ${START_HINT}`);
    }
    baseUrl = serverUrlFromInfo(info);
    if (!baseUrl) throw new NoServerError(`${path.join(dataDir, 'server.json')} names no address. ${START_HINT}`);
  }
  const token = (await readIfExists(path.join(dataDir, 'admin.token')))?.trim();
  if (!token) {
    throw new NoServerError(
      `No admin token at ${path.join(dataDir, 'admin.token')}. The server writes it at boot; ` +
        `pass --data-dir with the server's data dir. ${START_HINT}`,
    );
  }
  return { baseUrl, adminToken: token, dataDir };
}
