/**
 * `vectorize migrate-db`: a lowdb data dir made by the real server (an account, a key, a webhook
 * with its deliveries, a completed job with its result, a job interrupted mid-trace) moved into a
 * throwaway PostgreSQL; a PostgreSQL-mode server on the same data dir then serves the same
 * account, key, job and download, and finishes the interrupted job. db.json is never written.
 */
import t from 'tap';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import pg from 'pg';
import { run as migrateDb } from '../../cli/commands/migrate-db.js';
import { openAdminAccess } from '../../server/admin-access.js';
import { loadConfig } from '../../server/config.js';
import { startServer, type Running } from '../../server/runtime.js';
import { pngBytes, until } from './helpers.js';
import { postgresMissing, testPostgres } from './postgres.js';

const root = resolve(import.meta.dirname, '../..');
const missing = postgresMissing();
// Read by the stand-in engine inside the server's worker threads, which inherit process.env.
process.env.SLOW_ENGINE_MS = '1500';

async function cli(args: string[], env: Record<string, string>) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk) => (out += chunk));
  stderr.on('data', (chunk) => (err += chunk));
  const code = await migrateDb(args, { stdout, stderr, stdin: new PassThrough(), env });
  return { code, out, err };
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

t.test('a lowdb data dir made by the real server moves into PostgreSQL and is served from there', { skip: missing ?? false }, async (t) => {
  const databaseUrl = await testPostgres().database();
  const dataDir = mkdtempSync(join(tmpdir(), 'vectorize-migrate-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = {
    VECTORIZE_DATA_DIR: dataDir,
    PORT: '0',
    VECTORIZE_WORKERS: '1',
    VECTORIZE_LOG_LEVEL: 'silent',
    VECTORIZE_MIN_FREE_BYTES: '0',
    VECTORIZE_WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
    VECTORIZE_ENGINE_MODULE: join(root, 'test/fixtures/server/slow-engine.mjs'),
  };
  let running: Running | undefined = await startServer(loadConfig(env), new PassThrough());
  t.teardown(() => running?.stop());

  const admin = await openAdminAccess(env);
  const account = await admin.createAccount('Studio', 'pro');
  const { secret } = await admin.createKey(account.id, 'ci', 'api');
  await admin.close();
  const auth = { authorization: `Bearer ${secret}` };
  const call = async (url: string, path: string, init: RequestInit = {}) => {
    const response = await fetch(url + path, { ...init, headers: { ...auth, ...init.headers } });
    return {
      status: response.status,
      body: response.headers.get('content-type')?.includes('json') ? await response.json() : await response.text(),
    };
  };
  // Port 9 on loopback refuses: every delivery fails and stays in the log.
  const hook = await call(running.url, '/v1/webhooks', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'http://127.0.0.1:9/hook', events: ['processing.completed'] }),
  });
  t.equal(hook.status, 201, JSON.stringify(hook.body));
  const webhookId = (hook.body as { id: string }).id;

  const submit = async (url: string, name: string) => {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(await pngBytes(8, 8))], { type: 'image/png' }), name);
    const response = await call(url, '/v1/vectorize', { method: 'POST', body: form });
    t.equal(response.status, 202, JSON.stringify(response.body));
    return (response.body as { id: string }).id;
  };
  const statusOf = async (url: string, id: string) => ((await call(url, `/v1/jobs/${id}`)).body as { status: string }).status;

  const done = await submit(running.url, 'done.png');
  const interrupted = await submit(running.url, 'interrupted.png');
  await until(async () => (await statusOf(running!.url, done)) === 'completed' || undefined, 'the first job completed');
  await until(async () => (await statusOf(running!.url, interrupted)) === 'processing' || undefined, 'the second job tracing');
  const svg = (await call(running.url, `/v1/jobs/${done}/download`)).body as string;
  t.match(svg, /^<svg /);
  await running.stop();
  running = undefined;

  const before = sha256(join(dataDir, 'db.json'));
  const lowdb = JSON.parse(readFileSync(join(dataDir, 'db.json'), 'utf8')) as Record<string, unknown[]>;
  t.ok(lowdb.deliveries!.length > 0, 'the lowdb server recorded webhook deliveries');

  const moved = await cli(['--to', databaseUrl], { VECTORIZE_DATA_DIR: dataDir });
  t.equal(moved.code, 0, moved.err);
  t.match(moved.out, `accounts 1, keys 1, jobs 2, folders ${lowdb.folders!.length}`);
  t.match(moved.out, `deliveries ${lowdb.deliveries!.length}`);
  t.match(moved.out, 'queued jobs given queue entries: 1');
  t.equal(sha256(join(dataDir, 'db.json')), before, 'db.json is left untouched');

  const again = await cli(['--from', dataDir], { VECTORIZE_DATABASE_URL: databaseUrl });
  t.equal(again.code, 1, 'a second run is refused');
  t.match(again.err, /already holds records \(accounts 1, keys 1, jobs 2/);

  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const counted = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs');
  await client.end();
  t.equal(counted.rows[0]!.n, 2, 'the refused run added nothing');

  running = await startServer(loadConfig({ ...env, VECTORIZE_DATABASE_URL: databaseUrl }), new PassThrough());
  const url = running.url;
  t.match(
    (await call(url, '/v1/account')).body,
    { id: account.id, plan: 'pro', allowances: { trial: { used: 2 } } },
    'same account and key',
  );
  t.match((await call(url, `/v1/jobs/${done}`)).body, { id: done, status: 'completed' });
  t.equal((await call(url, `/v1/jobs/${done}/download`)).body, svg, 'the same result, from the same data dir');
  const deliveries = (await call(url, `/v1/webhooks/${webhookId}/deliveries`)).body as { deliveries: unknown[] };
  t.equal(deliveries.deliveries.length, lowdb.deliveries!.length, "the webhook's delivery log came along");
  await until(
    async () => (await statusOf(url, interrupted)) === 'completed' || undefined,
    'the interrupted job completed from its queue entry',
  );
  const later = await submit(url, 'later.png');
  const listed = (await call(url, '/v1/jobs')).body as { jobs: Array<{ id: string }> };
  t.same(
    listed.jobs.map((job) => job.id),
    [later, interrupted, done],
    'a new job numbers after the migrated ones',
  );
});
