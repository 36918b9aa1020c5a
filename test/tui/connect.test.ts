import t from 'tap';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { NoServerError, resolveAdminConnection, serverUrlFromInfo } from '../../tui/connect.js';

function dataDir(t: { teardown(fn: () => void): void }, files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'vectorize-tui-connect-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
  return dir;
}

t.test('reads the address from server.json and the token from admin.token', async (t) => {
  const dir = dataDir(t, {
    'server.json': JSON.stringify({ pid: 1, host: '127.0.0.1', port: 9123, url: 'http://127.0.0.1:9123' }),
    'admin.token': 'secret-token\n',
  });
  t.same(await resolveAdminConnection({ dataDir: dir }), { baseUrl: 'http://127.0.0.1:9123', adminToken: 'secret-token', dataDir: dir });
  t.equal((await resolveAdminConnection({ dataDir: dir, url: 'http://127.0.0.1:1' })).baseUrl, 'http://127.0.0.1:1', '--url wins');
});

t.test('a wildcard bind is reached on loopback', async (t) => {
  t.equal(serverUrlFromInfo({ host: '0.0.0.0', port: 8080 }), 'http://127.0.0.1:8080');
  t.equal(serverUrlFromInfo({ host: '::1', port: 8080 }), 'http://[::1]:8080');
  t.equal(serverUrlFromInfo({ host: 'x' }), undefined);
});

t.test('no server running: says how to start one instead of opening the database', async (t) => {
  const empty = dataDir(t, {});
  await t.rejects(resolveAdminConnection({ dataDir: empty }), NoServerError);
  await t.rejects(resolveAdminConnection({ dataDir: empty }), { message: /npm start/ });
  const noToken = dataDir(t, { 'server.json': JSON.stringify({ url: 'http://127.0.0.1:9' }) });
  await t.rejects(resolveAdminConnection({ dataDir: noToken }), { message: /admin\.token/ });
  const broken = dataDir(t, { 'server.json': '{', 'admin.token': 'x' });
  await t.rejects(resolveAdminConnection({ dataDir: broken }), { message: /not valid JSON/ });
});

t.test('API nodes sharing a data dir: the newest live node of this machine, else where to run', async (t) => {
  const node = (name: string, port: number, at: string, pid = process.pid) =>
    JSON.stringify({ pid, hostname: name, host: '0.0.0.0', port, url: `http://127.0.0.1:${port}`, started_at: at });
  const dir = dataDir(t, { 'admin.token': 'shared-token\n' });
  mkdirSync(path.join(dir, 'nodes'));
  const write = (file: string, content: string) => writeFileSync(path.join(dir, 'nodes', file), content);
  write('gpu-box.1.8080.json', node('gpu-box', 8080, '2026-01-03T00:00:00Z'));
  await t.rejects(resolveAdminConnection({ dataDir: dir }), { message: /run the TUI on gpu-box/ }, 'only another machine’s node');
  write(`${hostname()}.${process.pid}.9001.json`, node(hostname(), 9001, '2026-01-01T00:00:00Z'));
  write(`${hostname()}.${process.pid}.9002.json`, node(hostname(), 9002, '2026-01-02T00:00:00Z'));
  // A node of this machine that died without removing its file (no process has this pid).
  write(`${hostname()}.4206000.9003.json`, node(hostname(), 9003, '2026-01-04T00:00:00Z', 4_206_000));
  t.same(await resolveAdminConnection({ dataDir: dir }), { baseUrl: 'http://127.0.0.1:9002', adminToken: 'shared-token', dataDir: dir });
});
