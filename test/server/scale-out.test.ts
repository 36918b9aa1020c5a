/**
 * The scale-out black box: a throwaway PostgreSQL, two API nodes and two workers as real
 * `vectorize serve` processes sharing one data folder, spoken to over real HTTP on 127.0.0.1.
 * 24 jobs go in alternating between the API nodes; one worker is SIGKILLed while it traces; every
 * job still completes and reads and downloads through the node that did not take it. Then one
 * Idempotency-Key sent to both nodes at once gives one job, and a trial account hit with 8
 * concurrent submissions across both nodes accepts exactly 5. A DELETE on an API node stops the
 * trace on the worker running it.
 */
import t from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openAdminAccess } from '../../server/admin-access.js';
import { pngBytes, plansFile, until } from './helpers.js';
import { postgresMissing, testPostgres } from './postgres.js';

const root = resolve(import.meta.dirname, '../..');
const missing = postgresMissing();
/** Long enough that a worker is caught mid-trace, short enough for CI: 24 jobs on 4 slots. */
const TRACE_MS = 1500;

async function freePort(): Promise<number> {
  return new Promise((done, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** A node; its JSON log lines land in `logs` when given. */
function serve(env: Record<string, string>, logs?: Array<Record<string, unknown>>): ChildProcess {
  const script =
    `import(${JSON.stringify(join(root, 'cli/main.ts'))})` +
    ".then((m) => m.main(['serve'])).then((code) => { process.exitCode = code; });";
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', logs ? 'pipe' : 'ignore', 'inherit'],
  });
  let partial = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop()!;
    for (const line of lines) if (line.startsWith('{')) logs!.push(JSON.parse(line) as Record<string, unknown>);
  });
  return child;
}

async function healthy(url: string): Promise<{ processing?: number } | undefined> {
  const response = await fetch(`${url}/healthz`);
  return response.ok ? ((await response.json()) as { processing?: number }) : undefined;
}

function form(png: Buffer, name: string): FormData {
  const body = new FormData();
  body.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), name);
  return body;
}

t.test(
  'two API nodes and two workers on one PostgreSQL and one data folder survive a worker killed mid-trace',
  { skip: missing ?? false, timeout: 600_000 },
  async (t) => {
    const databaseUrl = await testPostgres().database();
    const dataDir = mkdtempSync(join(tmpdir(), 'vectorize-scale-out-'));
    t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
    // Room for every job at once: the trial allowance is then the only limit the trial account meets.
    const plans = plansFile({ trial: { activeJobs: 10, dailyFuse: 100 }, agency: { activeJobs: 50 } });
    const shared = {
      VECTORIZE_DATABASE_URL: databaseUrl,
      VECTORIZE_DATA_DIR: dataDir,
      VECTORIZE_PLANS_FILE: plans,
      VECTORIZE_LOG_LEVEL: 'warn',
      VECTORIZE_MIN_FREE_BYTES: '0',
      VECTORIZE_ENGINE_MODULE: join(root, 'test/fixtures/server/slow-engine.mjs'),
      SLOW_ENGINE_MS: String(TRACE_MS),
      // the job this test cancels (a larger PNG) traces until canceled, so the cancel always finds it tracing
      SLOW_ENGINE_LONG_FROM_BYTES: '1000',
      SLOW_ENGINE_LONG_MS: '120000',
    };

    // Accounts straight into the database, before any node runs (the CLI's path with no server).
    const admin = await openAdminAccess(shared);
    const studio = await admin.createAccount('studio', 'agency');
    const { secret } = await admin.createKey(studio.id, 'k', 'api');
    const trial = await admin.createAccount('trial', 'trial');
    const { secret: trialSecret } = await admin.createKey(trial.id, 'k', 'api');
    await admin.close();

    const children: ChildProcess[] = [];
    t.teardown(() => {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    });
    const workers: Array<{ child: ChildProcess; health: string; logs: Array<Record<string, unknown>> }> = [];
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const logs: Array<Record<string, unknown>> = [];
      const env = {
        ...shared,
        VECTORIZE_ROLE: 'worker',
        VECTORIZE_WORKERS: '2',
        VECTORIZE_HEALTH_PORT: String(port),
        VECTORIZE_LOG_LEVEL: 'info',
      };
      const child = serve(env, logs);
      children.push(child);
      workers.push({ child, health: `http://127.0.0.1:${port}`, logs });
    }
    const apis: string[] = [];
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      children.push(serve({ ...shared, VECTORIZE_ROLE: 'api', PORT: String(port) }));
      apis.push(`http://127.0.0.1:${port}`);
    }
    // Four tsx processes starting at once on a shared 2-core box: minutes, not seconds.
    await Promise.all([...apis, ...workers.map((w) => w.health)].map((url) => until(() => healthy(url), `${url}/healthz`, 240_000)));

    const auth = { authorization: `Bearer ${secret}` };
    const png = await pngBytes(8, 8);
    const taken: Array<{ id: string; node: number }> = [];
    for (let i = 0; i < 24; i++) {
      const node = i % 2;
      const response = await fetch(`${apis[node]}/v1/vectorize`, { method: 'POST', body: form(png, `img-${i}.png`), headers: auth });
      t.equal(response.status, 202, `job ${i} accepted by API node ${node}`);
      taken.push({ id: ((await response.json()) as { id: string }).id, node });
    }
    const seqs = await Promise.all(
      taken.map(
        async ({ id, node }) =>
          ((await (await fetch(`${apis[node]}/v1/jobs/${id}`, { headers: auth })).json()) as { status: string }).status,
      ),
    );
    t.ok(
      seqs.every((status) => ['queued', 'processing', 'completed'].includes(status)),
      'every job is queued, processing or done',
    );

    const victim = workers[0]!;
    await until(async () => ((await healthy(victim.health))?.processing ?? 0) > 0 || undefined, 'the first worker tracing');
    victim.child.kill('SIGKILL');
    await until(async () => victim.child.exitCode !== null || victim.child.signalCode !== null || undefined, 'the worker gone');

    const other = (node: number) => apis[1 - node]!;
    const ends = await until(
      async () => {
        const statuses = await Promise.all(
          taken.map(
            async ({ id, node }) =>
              ((await (await fetch(`${other(node)}/v1/jobs/${id}`, { headers: auth })).json()) as { status: string }).status,
          ),
        );
        return statuses.every((status) => status === 'completed' || status === 'failed' || status === 'canceled') ? statuses : undefined;
      },
      'every job in an end state',
      120_000,
    );
    t.same(
      ends,
      taken.map(() => 'completed'),
      'every job completed, the killed worker’s too',
    );
    for (const { id, node } of taken) {
      const download = await fetch(`${other(node)}/v1/jobs/${id}/download`, { headers: auth });
      t.equal(download.status, 200, `job ${id} downloads through the node that did not take it`);
      t.match(await download.text(), /^<svg /);
    }

    // A DELETE on one API node reaches the worker tracing the job: it stops the trace.
    const survivor = workers[1]!;
    const longTrace = await pngBytes(256, 256);
    t.ok(longTrace.length >= 1000, 'the job to cancel is large enough to trace until canceled');
    const accepted = await fetch(`${apis[0]}/v1/vectorize`, { method: 'POST', body: form(longTrace, 'cancel-me.png'), headers: auth });
    const { id: cancelId } = (await accepted.json()) as { id: string };
    await until(async () => {
      const job = (await (await fetch(`${apis[1]}/v1/jobs/${cancelId}`, { headers: auth })).json()) as { status: string };
      return job.status === 'processing' || undefined;
    }, 'the job processing');
    const canceled = await fetch(`${apis[1]}/v1/jobs/${cancelId}`, { method: 'DELETE', headers: auth });
    t.equal(canceled.status, 200);
    t.equal(((await canceled.json()) as { status: string }).status, 'canceled');
    await until(
      async () => survivor.logs.some((line) => line.msg === 'job canceled on another node' && line.job_id === cancelId) || undefined,
      'the worker stopping the canceled trace',
    );
    t.pass('the worker tracing it stopped the canceled job');

    // One Idempotency-Key to both nodes at once: one job.
    const idempotent = await Promise.all(
      apis.map((url) =>
        fetch(`${url}/v1/vectorize`, {
          method: 'POST',
          body: form(png, 'same.png'),
          headers: { ...auth, 'idempotency-key': 'scale-out-once' },
        }),
      ),
    );
    const answers = await Promise.all(
      idempotent.map(async (response) => ({ status: response.status, body: (await response.json()) as { id: string } })),
    );
    t.same(
      answers.map((answer) => answer.status),
      [202, 202],
      'both nodes answer the key',
    );
    t.equal(answers[0]!.body.id, answers[1]!.body.id, 'one job for one Idempotency-Key');

    // A trial account, 8 submissions at once spread over both nodes: exactly the 5 trial conversions.
    const trialAnswers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        fetch(`${apis[i % 2]}/v1/vectorize`, {
          method: 'POST',
          body: form(png, `trial-${i}.png`),
          headers: { authorization: `Bearer ${trialSecret}` },
        }).then(async (response) => ({ status: response.status, body: (await response.json()) as { error?: { code: string } } })),
      ),
    );
    t.equal(trialAnswers.filter((answer) => answer.status === 202).length, 5, 'exactly 5 accepted');
    t.same(
      trialAnswers.filter((answer) => answer.status !== 202).map((answer) => answer.body.error?.code),
      ['quota_exhausted', 'quota_exhausted', 'quota_exhausted'],
    );
  },
);
