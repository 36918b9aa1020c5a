/**
 * A throwaway PostgreSQL for tests, from Debian's `postgresql` package: initdb + pg_ctl in a temp
 * dir on a free loopback port, as the `postgres` user when the tests run as root (initdb refuses
 * root). One server per test file; each caller gets a fresh database on it.
 *
 * VECTORIZE_TEST_STORE=postgres runs the server harness (helpers.ts) on it instead of lowdb.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** The newest Debian PostgreSQL installed (/usr/lib/postgresql/<major>/bin), unless VECTORIZE_PG_BIN says. */
function debianBin(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return join(root, majors[0] ?? '15', 'bin');
}
const BIN = process.env.VECTORIZE_PG_BIN ?? debianBin();
const RUN_AS = 'postgres';

export const TEST_STORE: 'lowdb' | 'postgres' = process.env.VECTORIZE_TEST_STORE === 'postgres' ? 'postgres' : 'lowdb';

function userIds(name: string): { uid: number; gid: number } | null {
  try {
    return {
      uid: Number(execFileSync('id', ['-u', name], { encoding: 'utf8' })),
      gid: Number(execFileSync('id', ['-g', name], { encoding: 'utf8' })),
    };
  } catch {
    return null;
  }
}

/** Why PostgreSQL cannot be started here, or null when it can. */
export function postgresMissing(): string | null {
  if (!existsSync(join(BIN, 'initdb')) || !existsSync(join(BIN, 'pg_ctl'))) {
    return `PostgreSQL is not installed (no initdb/pg_ctl in ${BIN}): apt-get install postgresql, or set VECTORIZE_PG_BIN`;
  }
  if (process.getuid?.() === 0 && !userIds(RUN_AS)) return `running as root and there is no "${RUN_AS}" user to run PostgreSQL as`;
  return null;
}

/** A loopback port nothing listens on now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface TestPostgres {
  /** A fresh, empty database on the server. */
  database(): Promise<string>;
}

let running: Promise<{ port: number }> | null = null;
let databases = 0;

async function startServer() {
  const missing = postgresMissing();
  if (missing) throw new Error(missing);
  const dir = mkdtempSync(join(tmpdir(), 'vectorize-pg-'));
  const ids = process.getuid?.() === 0 ? userIds(RUN_AS) : null;
  if (ids) chownSync(dir, ids.uid, ids.gid);
  const run = (args: string[]) => {
    const command = [join(BIN, args[0]!), ...args.slice(1)].map((part) => `'${part.replace(/'/g, "'\\''")}'`).join(' ');
    if (ids) execFileSync('su', [RUN_AS, '-s', '/bin/sh', '-c', command], { stdio: 'pipe' });
    else execFileSync('/bin/sh', ['-c', command], { stdio: 'pipe' });
  };
  const port = await freePort();
  run(['initdb', '-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  // Throwaway data: no fsync; the socket in the temp dir, TCP on loopback only.
  run([
    'pg_ctl',
    '-D',
    join(dir, 'data'),
    '-l',
    join(dir, 'log'),
    '-w',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off`,
    'start',
  ]);
  // tap runs each test file in its own process: the server lives as long as that process.
  process.once('exit', () => {
    try {
      run(['pg_ctl', '-D', join(dir, 'data'), '-m', 'immediate', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  return { port };
}

/** Starts the throwaway server once per process (it stops when the process exits). */
export function testPostgres(): TestPostgres {
  running ??= startServer();
  return {
    async database() {
      const { port } = await running!;
      const name = `vectorize_test_${process.pid}_${++databases}`;
      const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
  };
}
