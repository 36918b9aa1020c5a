/**
 * GET /readyz (server/plugins/health.ts): 200 while the records and the data dir answer; 503
 * `unavailable` in the contract's error body, naming the failing check, when either does not.
 */
import t from 'tap';
import { rmSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { errorOf, harness } from '../helpers.js';
import { postgresMissing, testPostgres } from '../postgres.js';

interface Ready {
  status: string;
  checks: Record<'database' | 'storage', { ok: boolean; ms: number; error?: string }>;
}

t.test('ready: both checks pass, open to anyone like /healthz', async (t) => {
  const h = await harness(t);
  const res = await h.get(null, '/readyz');
  t.equal(res.statusCode, 200);
  const body = h.json<Ready>(res);
  t.equal(body.status, 'ready');
  t.equal(body.checks.database.ok, true);
  t.equal(body.checks.storage.ok, true);
});

t.test('a data dir that takes no write answers 503 unavailable naming the storage', async (t) => {
  const h = await harness(t);
  // A file where the temp dir should be: every write under it fails (root ignores permissions).
  rmSync(h.app.context.blobs.tmpDir, { recursive: true, force: true });
  writeFileSync(h.app.context.blobs.tmpDir, 'not a directory');
  const res = await h.get(null, '/readyz');
  t.equal(res.statusCode, 503);
  t.equal(res.headers['retry-after'], '5');
  const error = errorOf(res);
  t.equal(error.code, 'unavailable');
  t.match(error.message, /^Not ready: storage: /);
  const checks = error.details.checks as Ready['checks'];
  t.equal(checks.storage.ok, false);
  t.equal(checks.database.ok, true, 'the database still answers');
  rmSync(h.app.context.blobs.tmpDir, { force: true });
});

const missing = postgresMissing();
t.test('a PostgreSQL that cannot be reached answers 503 and the node stays up', { skip: missing ?? false }, async (t) => {
  const databaseUrl = await testPostgres().database();
  const h = await harness(t, { databaseUrl });
  t.equal((await h.get(null, '/readyz')).statusCode, 200);

  const name = new URL(databaseUrl).pathname.slice(1);
  const admin = new pg.Client({ connectionString: databaseUrl.replace(`/${name}`, '/postgres') });
  await admin.connect();
  t.teardown(() => admin.end());
  // Cut every connection of the node and take the database's name away, so reconnecting fails too.
  await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
  await admin.query(`ALTER DATABASE ${name} RENAME TO ${name}_gone`);

  const res = await h.get(null, '/readyz');
  t.equal(res.statusCode, 503);
  const error = errorOf(res);
  t.equal(error.code, 'unavailable');
  const checks = error.details.checks as Ready['checks'];
  t.equal(checks.database.ok, false);
  t.equal(checks.storage.ok, true);
  t.equal((await h.get(null, '/healthz')).statusCode, 200, 'alive though not ready: the process did not die with its connections');

  // The database back: the feed's announcements were lost meanwhile, so the node stays not ready.
  await admin.query(`ALTER DATABASE ${name}_gone RENAME TO ${name}`);
  const after = errorOf(await h.get(null, '/readyz'));
  t.match(after.message, /change feed .* was cut/);
});
