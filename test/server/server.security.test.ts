/** Attacks on the /v1 surface: auth bypass, other accounts' ids, hostile file names, oversized fields. */
import t from 'tap';
import { readdirSync } from 'node:fs';
import { contentDisposition } from '../../server/plugins/jobs.js';
import { cleanFileName } from '../../server/services/submissions.js';
import { errorOf, harness, statusOf, waitFor } from './helpers.js';
import { TEST_STORE } from './postgres.js';

t.test('auth bypass attempts all answer 401', async (t) => {
  const h = await harness(t);
  const { secret } = await h.account('pro');
  const attempts: Record<string, string>[] = [
    { authorization: `bearer ${secret}x` },
    { authorization: `Bearer ${secret} ${secret}` },
    { authorization: `Bearer ${secret.toUpperCase()}` },
    { authorization: 'Bearer service_sk_live_' + 'A'.repeat(32) },
    { authorization: 'Bearer ../../admin.token' },
    { 'x-api-key': secret },
    { cookie: `key=${secret}` },
  ];
  for (const headers of attempts) {
    const res = await h.app.server.inject({ method: 'GET', url: '/v1/account', headers });
    t.equal(res.statusCode, 401, JSON.stringify(Object.keys(headers)));
  }
  const query = await h.app.server.inject({ method: 'GET', url: `/v1/account?api_key=${secret}` });
  t.equal(query.statusCode, 401, 'a key in the query string is not a credential');
  const admin = await h.app.server.inject({ method: 'GET', url: '/admin/v1/accounts', headers: { authorization: `Bearer ${secret}` } });
  t.equal(admin.statusCode, 401, 'an API key is not an admin token');
  const noToken = await h.app.server.inject({ method: 'GET', url: '/admin/v1/accounts', headers: { authorization: 'Bearer ' } });
  t.equal(noToken.statusCode, 401, 'no admin token configured: nothing matches, not even empty');
});

t.test("another account's ids, guessed ids and traversal ids answer 404 without leaking", async (t) => {
  const h = await harness(t);
  const a = await h.account('pro');
  const b = await h.account('pro');
  const job = h.json<{ id: string }>(await h.submit(a.secret, { batch_id: 'secret-batch' }));
  for (const id of [job.id, '..%2F..%2Fdb.json', 'job_' + 'A'.repeat(20), '%2e%2e', 'job_%00']) {
    const res = await h.get(b.secret, `/v1/jobs/${id}/download`);
    t.equal(res.statusCode, res.statusCode === 400 ? 400 : 404, id);
    t.notOk(res.payload.includes('secret-batch'));
  }
  const listed = await h.get(b.secret, '/v1/jobs?batch_id=secret-batch');
  t.same(h.json<{ jobs: unknown[] }>(listed).jobs, [], 'batch filters stay inside the account');
  t.equal(h.json<{ folders: unknown[] }>(await h.get(b.secret, '/v1/folders')).folders.length, 0);
});

t.test('hostile upload names never steer paths or headers', async (t) => {
  t.equal(cleanFileName('../../etc/passwd'), 'passwd');
  t.equal(cleanFileName('..\\..\\windows\\win.ini'), 'win.ini');
  t.equal(cleanFileName('a\r\nSet-Cookie: x=1.png'), 'aSet-Cookie: x=1.png');
  t.equal(cleanFileName('evil\u202egnp.exe'), 'evilgnp.exe', 'a right-to-left override cannot make .exe display as .png');
  for (const bidi of [
    '\u202a',
    '\u202b',
    '\u202c',
    '\u202d',
    '\u202e',
    '\u2066',
    '\u2067',
    '\u2068',
    '\u2069',
    '\u200e',
    '\u200f',
    '\u061c',
  ]) {
    t.equal(cleanFileName(`a${bidi}b.png`), 'ab.png', `U+${bidi.codePointAt(0)!.toString(16).toUpperCase()} is stripped`);
  }
  const header = contentDisposition('evil"\r\nX-Injected: 1;.png');
  t.notMatch(header, /[\r\n]/, 'no line breaks in the header');
  t.match(header, /^attachment; filename="evil_X-Injected: 1_\.svg"; filename\*=UTF-8''/);
  t.match(contentDisposition('résumé.png'), /filename="resume\.svg"; filename\*=UTF-8''r%C3%A9sum%C3%A9\.svg$/);

  const h = await harness(t, { autoComplete: true });
  const { secret } = await h.account('pro');
  const job = h.json<{ id: string; file_name: string }>(await h.submit(secret, {}, { filename: '../../../db.json' }));
  t.equal(job.file_name, 'db.json');
  await waitFor(() => statusOf(h, job.id) === 'completed');
  const res = await h.get(secret, `/v1/jobs/${job.id}/download`);
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-disposition'], /filename="db\.svg"/);
  t.match(res.headers['content-security-policy'], /sandbox/, 'an SVG never runs script in our origin');
  // On PostgreSQL the records live in the database: no db.json in the data dir.
  const layout = TEST_STORE === 'postgres' ? ['results', 'tmp', 'uploads'] : ['db.json', 'results', 'tmp', 'uploads'];
  t.same(
    readdirSync(h.dir)
      .filter((n) => !/^\.db\.json\.tmp$/.test(n))
      .sort(),
    layout,
    'nothing written outside the data layout',
  );
});

t.test('oversized fields and headers are refused', async (t) => {
  const h = await harness(t);
  const { secret } = await h.account('pro');
  const big = await h.submit(secret, { image_type: 'a'.repeat(5000) });
  t.equal(big.statusCode, 400);
  t.equal(errorOf(big).details.field, 'image_type');
  const long = await h.submit(secret, { note: 'x'.repeat(300 * 1024) });
  t.equal(long.statusCode, 400, 'no text field is longer than 1 KiB, known or not');
  t.equal(errorOf(long).details.field, 'note');
  const key = await h.submit(secret, {}, undefined, { 'idempotency-key': 'k\u0001ey' });
  t.equal(errorOf(key).code, 'invalid_parameter');
  const report = await h.app.server.inject({
    method: 'POST',
    url: '/v1/jobs/job_AAAAAAAAAAAAAAAAAAAA/report',
    payload: 'x'.repeat(20_000),
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
  });
  t.equal(report.statusCode, 413);
});
