/**
 * Finds the running server for `vectorize tui`: its address from `<dataDir>/server.json` (written
 * by the server at boot) unless `--url` names one, and the admin token from `<dataDir>/admin.token`.
 * The TUI never opens the database itself: with no server running it says how to start one
 * (docs/operations.md, "Single writer": only one process ever writes the database file).
 */
import { readFile } from 'node:fs/promises';
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

const START_HINT = 'Start it with `npm start` (or `vectorize serve`) on that data dir, then run `vectorize tui` again.';

export async function resolveAdminConnection(options: { url?: string; dataDir: string }): Promise<AdminConnection> {
  const dataDir = path.resolve(options.dataDir);
  let baseUrl = options.url;
  if (!baseUrl) {
    const raw = await readIfExists(path.join(dataDir, 'server.json'));
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
