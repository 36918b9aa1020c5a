/**
 * `npm run bench:api`: the /v1 API under load on loopback, with the real engine in the server's
 * worker pool.
 *
 *   1. overhead: the same small images traced by the bare engine (in this process) and through the
 *      API one at a time (server-side created_at → completed_at); the median difference is the
 *      API's per-job overhead (upload, probe, queue, worker hand-off, result file).
 *   2. load: 200 submissions from 20 concurrent clients; accept latency p50/p95, no 5xx, and the
 *      server's event-loop delay max (perf_hooks.monitorEventLoopDelay in the server process,
 *      read through GET /admin/v1/stats) while the pool traces.
 *
 * Images are generated here (shapes on a page, 64–160 px) and traced as image_type=clipart.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openAdminAccess } from '../server/admin-access.js';
import { DEFAULT_TRACE_OPTIONS } from '../engine/types.js';
import { makeImages, median, percentile, sleep, submit as submitTimed } from './api-load.js';

const root = resolve(import.meta.dirname, '..');
const CLIENTS = 20;
const PER_CLIENT = 10;
const OVERHEAD_JOBS = 12;

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'vectorize-bench-api-'));
  const plans = join(dataDir, 'plans.json');
  // The bench account must not trip the per-account guards it is not measuring.
  writeFileSync(plans, JSON.stringify({ enterprise: { activeJobs: 1000, dailyFuse: 100000 } }));
  const env = {
    ...process.env,
    VECTORIZE_DATA_DIR: dataDir,
    PORT: '0',
    VECTORIZE_LOG_LEVEL: 'warn',
    VECTORIZE_PLANS_FILE: plans,
    VECTORIZE_MIN_FREE_BYTES: '0',
  };
  const admin = await openAdminAccess(env);
  const account = await admin.createAccount('bench', 'enterprise');
  const { secret } = await admin.createKey(account.id, 'bench', 'api');
  await admin.close();

  const script = `import(${JSON.stringify(join(root, 'cli/main.ts'))}).then((m) => m.main(['serve']));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const cleanup = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
  process.on('exit', cleanup);
  try {
    let url = '';
    for (let i = 0; i < 600 && !url; i++) {
      try {
        const info = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as { url: string; pid: number };
        if (info.pid === child.pid) url = info.url;
      } catch {
        await sleep(50);
      }
    }
    if (!url) throw new Error('server did not start');
    const token = readFileSync(join(dataDir, 'admin.token'), 'utf8').trim();
    const auth = { authorization: `Bearer ${secret}` };
    const adminGet = async (path: string) =>
      (await fetch(`${url}/admin/v1${path}`, { headers: { authorization: `Bearer ${token}` } })).json() as Promise<Record<string, unknown>>;
    const stats0 = await adminGet('/stats');

    const images = await makeImages(OVERHEAD_JOBS);
    const submit = (png: Buffer, name: string) => submitTimed(url, secret, png, name);
    const job = async (id: string) =>
      (await (await fetch(`${url}/v1/jobs/${id}`, { headers: auth })).json()) as {
        status: string;
        created_at: string;
        completed_at?: string;
      };

    // 1. Per-job overhead over the bare engine.
    const { vectorize } = (await import('../engine/index.js')) as {
      vectorize: (b: Uint8Array, o: typeof DEFAULT_TRACE_OPTIONS, h: object) => Promise<unknown>;
    };
    const options = { ...DEFAULT_TRACE_OPTIONS, imageType: 'clipart' as const };
    await vectorize(new Uint8Array(images[0]), options, {}); // warm-up: module load, JIT
    await (async () => {
      const w = await submit(images[0], 'warm.png');
      while ((await job(w.id!)).status !== 'completed') await sleep(10);
    })();
    const overhead: number[] = [];
    const bareAll: number[] = [];
    const apiAll: number[] = [];
    for (let i = 0; i < OVERHEAD_JOBS; i++) {
      const t0 = performance.now();
      await vectorize(new Uint8Array(images[i]), options, {});
      const bare = performance.now() - t0;
      const { id } = await submit(images[i], `o-${i}.png`);
      let j = await job(id!);
      while (j.status === 'queued' || j.status === 'processing') {
        await sleep(5);
        j = await job(id!);
      }
      if (j.status !== 'completed' || !j.completed_at) throw new Error(`overhead job ${id} ended ${j.status}`);
      const api = new Date(j.completed_at).getTime() - new Date(j.created_at).getTime();
      bareAll.push(bare);
      apiAll.push(api);
      overhead.push(api - bare);
    }

    // Peer in the same run: the same server idle for 2 s, so a busy machine's scheduling noise
    // (which an idle event loop sees too) is not mistaken for work on the loop.
    await adminGet('/stats?reset_event_loop=true');
    await sleep(2000);
    const idle = (await adminGet('/stats?reset_event_loop=true')) as { event_loop_delay_ms: { max: number; p99: number } };

    // 2. Load: 20 clients × 10 submissions.
    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    const ids: string[] = [];
    let maxLoop = 0;
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const s = (await adminGet('/stats')) as { event_loop_delay_ms: { max: number } };
        maxLoop = Math.max(maxLoop, s.event_loop_delay_ms.max);
        await sleep(250);
      }
    })();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        for (let i = 0; i < PER_CLIENT; i++) {
          const r = await submit(images[(c + i) % images.length], `c${c}-${i}.png`);
          latencies.push(r.ms);
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          if (r.id) ids.push(r.id);
        }
      }),
    );
    const acceptedIn = performance.now() - started;
    for (;;) {
      const s = (await adminGet('/stats')) as { queue_length: number; processing: number };
      if (s.queue_length === 0 && s.processing === 0) break;
      await sleep(100);
    }
    const drainedIn = performance.now() - started;
    watching = false;
    await watcher;
    const final = (await adminGet('/stats')) as {
      event_loop_delay_ms: { max: number; p99: number };
      jobs: Record<string, number>;
      workers: number;
    };
    maxLoop = Math.max(maxLoop, final.event_loop_delay_ms.max);
    const fiveXX = [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);

    const f = (n: number) => n.toFixed(1);
    const provider = (stats0.classifier as { provider: string }).provider;
    console.log(
      `vectorize bench:api — ${new Date().toISOString()} — node ${process.version}, ` +
        `${availableParallelism()} CPU, ${final.workers} workers, classifier ${provider}`,
    );
    console.log(
      `overhead (${OVERHEAD_JOBS} jobs, one at a time): bare engine median ${f(median(bareAll))} ms, ` +
        `through the API median ${f(median(apiAll))} ms, per-job overhead median ${f(median(overhead))} ms`,
    );
    console.log(
      `load: ${CLIENTS} clients × ${PER_CLIENT} = ${CLIENTS * PER_CLIENT} submissions; ` +
        `statuses ${JSON.stringify(Object.fromEntries(statuses))}; 5xx: ${fiveXX}`,
    );
    console.log(
      `accept latency: p50 ${f(percentile(latencies, 50))} ms, p95 ${f(percentile(latencies, 95))} ms, ` +
        `max ${f(Math.max(...latencies))} ms; all accepted in ${f(acceptedIn)} ms; queue drained in ${f(drainedIn)} ms`,
    );
    console.log(`end states: ${JSON.stringify(final.jobs)}`);
    console.log(
      `server event-loop delay max while tracing: ${f(maxLoop)} ms, p99 ${f(final.event_loop_delay_ms.p99)} ms ` +
        `(${maxLoop < 100 ? 'OK' : 'OVER'} the 100 ms budget); ` +
        `same server idle: max ${f(idle.event_loop_delay_ms.max)} ms, p99 ${f(idle.event_loop_delay_ms.p99)} ms; ` +
        `load average ${loadavg()
          .map((n) => n.toFixed(1))
          .join(' ')}`,
    );
    if (fiveXX > 0 || maxLoop >= 100) process.exitCode = 1;
  } finally {
    cleanup();
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(undefined)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// --stores: lowdb beside PostgreSQL with two API nodes (bench/api-stores.ts).
if (process.argv.includes('--stores')) await (await import('./api-stores.js')).compareStores(process.argv.slice(2));
else await main();
