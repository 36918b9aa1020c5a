/**
 * `npm run bench:api -- --stores [--rounds N]`: the same load on the embedded mode (one
 * `vectorize serve`, lowdb) and on the PostgreSQL mode (two API nodes, `VECTORIZE_ROLE=api`, and
 * one worker, `VECTORIZE_ROLE=worker`, on one data dir), in alternating rounds of one run, so a
 * shared machine's load falls on both alike. Each round: 20 clients × 10 submissions (the PostgreSQL
 * clients alternate between the two API nodes); accept latency p50/p95, accepts per second, and
 * completions per second until every job has ended. The medians over the rounds are printed.
 *
 * PostgreSQL: VECTORIZE_DATABASE_URL names an empty database to use, else a throwaway server is
 * started as the tests do (test/server/postgres.ts: Debian's `postgresql` package).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openAdminAccess } from '../server/admin-access.js';
import { freePort, postgresMissing, testPostgres } from '../test/server/postgres.js';
import { makeImages, median, percentile, sleep, submit } from './api-load.js';

const root = resolve(import.meta.dirname, '..');
const CLIENTS = 20;
const PER_CLIENT = 10;

type Mode = 'lowdb' | 'postgres';

interface Cluster {
  apis: string[];
  secret: string;
  adminToken: string;
  stop(): Promise<void>;
}

function serve(env: NodeJS.ProcessEnv): ChildProcess {
  const script = `import(${JSON.stringify(join(root, 'cli/main.ts'))}).then((m) => m.main(['serve']));`;
  return spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, env, stdio: 'ignore' });
}

async function waitHealthy(url: string): Promise<void> {
  for (let i = 0; i < 2400; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${url} did not start`);
}

async function startCluster(mode: Mode, databaseUrl: string | null): Promise<Cluster> {
  const dataDir = mkdtempSync(join(tmpdir(), `vectorize-bench-${mode}-`));
  const plans = join(dataDir, 'plans.json');
  writeFileSync(plans, JSON.stringify({ enterprise: { activeJobs: 1000, dailyFuse: 100000 } }));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    VECTORIZE_DATA_DIR: dataDir,
    VECTORIZE_LOG_LEVEL: 'warn',
    VECTORIZE_PLANS_FILE: plans,
    VECTORIZE_MIN_FREE_BYTES: '0',
  };
  delete env.VECTORIZE_DATABASE_URL;
  if (databaseUrl) env.VECTORIZE_DATABASE_URL = databaseUrl;
  const admin = await openAdminAccess(env);
  const account = await admin.createAccount('bench', 'enterprise');
  const { secret } = await admin.createKey(account.id, 'bench', 'api');
  await admin.close();

  const children: ChildProcess[] = [];
  const apis: string[] = [];
  const nodeCount = mode === 'postgres' ? 2 : 1;
  for (let i = 0; i < nodeCount; i++) {
    const port = await freePort();
    children.push(serve({ ...env, PORT: String(port), ...(mode === 'postgres' ? { VECTORIZE_ROLE: 'api' } : {}) }));
    apis.push(`http://127.0.0.1:${port}`);
  }
  // The traces: in PostgreSQL mode one worker node with the default VECTORIZE_WORKERS, as the lowdb node has.
  if (mode === 'postgres') children.push(serve({ ...env, VECTORIZE_ROLE: 'worker', VECTORIZE_HEALTH_PORT: String(await freePort()) }));
  await Promise.all(apis.map(waitHealthy));
  const adminToken = readFileSync(join(dataDir, 'admin.token'), 'utf8').trim();
  return {
    apis,
    secret,
    adminToken,
    async stop() {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        ),
      );
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface Round {
  p50: number;
  p95: number;
  acceptsPerSecond: number;
  completedPerSecond: number;
  statuses: Record<number, number>;
}

async function loadRound(cluster: Cluster, images: Buffer[]): Promise<Round> {
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = 0; i < PER_CLIENT; i++) {
        const url = cluster.apis[(client + i) % cluster.apis.length]!;
        const r = await submit(url, cluster.secret, images[(client + i) % images.length]!, `c${client}-${i}.png`);
        latencies.push(r.ms);
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      }
    }),
  );
  const acceptedIn = performance.now() - started;
  // Ended when no record is queued or processing (the records every node shares).
  for (;;) {
    const response = await fetch(`${cluster.apis[0]}/admin/v1/stats`, { headers: { authorization: `Bearer ${cluster.adminToken}` } });
    const { jobs } = (await response.json()) as { jobs: Record<string, number> };
    if ((jobs.queued ?? 0) + (jobs.processing ?? 0) === 0) break;
    await sleep(100);
  }
  const endedIn = performance.now() - started;
  const total = CLIENTS * PER_CLIENT;
  return {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    acceptsPerSecond: total / (acceptedIn / 1000),
    completedPerSecond: total / (endedIn / 1000),
    statuses,
  };
}

export async function compareStores(args: string[]): Promise<void> {
  const roundsFlag = args.indexOf('--rounds');
  const rounds = roundsFlag >= 0 ? Number(args[roundsFlag + 1]) : 3;
  let databaseUrl = process.env.VECTORIZE_DATABASE_URL ?? null;
  if (!databaseUrl) {
    const missing = postgresMissing();
    if (missing) throw new Error(missing);
    databaseUrl = await testPostgres().database();
  }
  const images = await makeImages(24);
  const results: Record<Mode, Round[]> = { lowdb: [], postgres: [] };
  for (let round = 0; round < rounds; round++) {
    for (const mode of ['lowdb', 'postgres'] as const) {
      // A fresh database per PostgreSQL round, so no round starts with another's records.
      const url = mode === 'postgres' ? await freshDatabase(databaseUrl, round) : null;
      const cluster = await startCluster(mode, url);
      try {
        const result = await loadRound(cluster, images);
        results[mode].push(result);
        console.log(
          `round ${round + 1} ${mode}: accept p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms, ` +
            `${result.acceptsPerSecond.toFixed(1)} accepts/s, ${result.completedPerSecond.toFixed(1)} completed/s, ` +
            `statuses ${JSON.stringify(result.statuses)}, load average ${loadavg()[0]!.toFixed(1)}`,
        );
      } finally {
        await cluster.stop();
      }
    }
  }
  console.log(
    `vectorize bench:api --stores — ${new Date().toISOString()} — node ${process.version}, ${availableParallelism()} CPU, ` +
      `${CLIENTS} clients × ${PER_CLIENT} submissions, medians of ${rounds} rounds`,
  );
  for (const mode of ['lowdb', 'postgres'] as const) {
    const of = (pick: (round: Round) => number) => median(results[mode].map(pick));
    const label = mode === 'lowdb' ? 'lowdb, one node' : 'PostgreSQL, 2 API nodes + 1 worker';
    console.log(
      `${label}: accept p50 ${of((r) => r.p50).toFixed(1)} ms, p95 ${of((r) => r.p95).toFixed(1)} ms, ` +
        `${of((r) => r.acceptsPerSecond).toFixed(1)} accepts/s, ${of((r) => r.completedPerSecond).toFixed(1)} completed/s`,
    );
  }
}

/** A new empty database beside the one named (the named one's server, another name). */
async function freshDatabase(url: string, round: number): Promise<string> {
  const { default: pg } = await import('pg');
  const name = `vectorize_bench_${process.pid}_${round}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const next = new URL(url);
  next.pathname = `/${name}`;
  return next.toString();
}
