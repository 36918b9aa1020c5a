/**
 * Restart safety over real HTTP: a real server process (slow stand-in engine), 20 jobs queued or
 * processing, kill -9, start again: every job reaches an end state and the database parses.
 * Also: a chunked upload over the limit answers 413 and leaves no temp file.
 */
import t from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, existsSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openAdminAccess } from '../../server/admin-access.js';
import { pngBytes, until } from './helpers.js';

const root = resolve(import.meta.dirname, '../..');

function startServer(dataDir: string): ChildProcess {
  const script =
    `import(${JSON.stringify(join(root, 'cli/main.ts'))})` +
    ".then((m) => m.main(['serve'])).then((code) => { process.exitCode = code; });";
  return spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    env: {
      ...process.env,
      VECTORIZE_DATA_DIR: dataDir,
      PORT: '0',
      VECTORIZE_WORKERS: '2',
      VECTORIZE_LOG_LEVEL: 'warn',
      VECTORIZE_ENGINE_MODULE: join(root, 'test/fixtures/server/slow-engine.mjs'),
      SLOW_ENGINE_MS: '250',
      VECTORIZE_MIN_FREE_BYTES: '0',
    },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
}

async function serverUrl(dataDir: string, pid: number): Promise<string> {
  return until(() => {
    const info = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as { url: string; pid: number };
    return info.pid === pid ? info.url : undefined;
  }, 'server.json');
}

t.test('kill -9 with 20 jobs in flight; all 20 reach an end state after a restart', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vectorize-restart-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const admin = await openAdminAccess({ VECTORIZE_DATA_DIR: dataDir });
  const account = await admin.createAccount('restart', 'agency');
  const { secret } = await admin.createKey(account.id, 'k', 'api');
  await admin.close();

  let child = startServer(dataDir);
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let url = await serverUrl(dataDir, child.pid!);
  const png = await pngBytes(8, 8);
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), `img-${i}.png`);
    const res = await fetch(`${url}/v1/vectorize`, { method: 'POST', body: form, headers: { authorization: `Bearer ${secret}` } });
    t.equal(res.status, 202);
    ids.push(((await res.json()) as { id: string }).id);
  }
  const auth = { authorization: `Bearer ${secret}` };
  const statuses = async () => {
    const res = await fetch(`${url}/v1/jobs?limit=100`, { headers: auth });
    return ((await res.json()) as { jobs: { id: string; status: string }[] }).jobs;
  };
  await until(async () => ((await statuses()).some((j) => j.status === 'processing') ? true : undefined), 'a processing job');
  const before = await statuses();
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
  const pending = before.filter((j) => j.status === 'queued' || j.status === 'processing').length;
  t.ok(pending >= 10, `killed with ${pending} jobs queued or processing`);

  const db = JSON.parse(readFileSync(join(dataDir, 'db.json'), 'utf8')) as { jobs: { id: string }[] };
  t.equal(db.jobs.length, 20, 'the database parses and holds every accepted job');

  child = startServer(dataDir);
  url = await serverUrl(dataDir, child.pid!);
  const final = await until(async () => {
    const jobs = await statuses();
    return jobs.length === 20 && jobs.every((j) => ['completed', 'failed', 'canceled', 'expired'].includes(j.status)) ? jobs : undefined;
  }, 'all jobs to end');
  t.same(final.map((j) => j.id).sort(), [...ids].sort());
  t.ok(
    final.every((j) => j.status === 'completed'),
    'every interrupted job completed after the restart',
  );
  const download = await fetch(`${url}/v1/jobs/${ids[0]}/download`, { headers: auth });
  t.equal(download.status, 200);
  t.match(await download.text(), /<svg/);

  // A chunked upload (no Content-Length) over the limit is cut off at the limit.
  const status = await new Promise<number>((resolve, reject) => {
    const boundary = 'xxBOUNDARYxx';
    const req = request(
      `${url}/v1/vectorize`,
      { method: 'POST', headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', (error) => (/EPIPE|ECONNRESET/.test(String(error)) ? undefined : reject(error)));
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`);
    const chunk = Buffer.alloc(1024 * 1024);
    let sent = 0;
    const pump = () => {
      while (sent < 60) {
        sent++;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end(`\r\n--${boundary}--\r\n`);
    };
    pump();
  });
  t.equal(status, 413, `chunked upload over 50 MiB answers 413 (got ${status})`);
  await until(() => (readdirSync(join(dataDir, 'tmp')).length === 0 ? true : undefined), 'temp files to be removed', 5000);

  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  t.notOk(existsSync(join(dataDir, 'vectorize.lock')), 'a clean stop releases the lock');
  JSON.parse(readFileSync(join(dataDir, 'db.json'), 'utf8'));
});
