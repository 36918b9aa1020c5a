/**
 * What API nodes leave in a shared data dir: one admin token, created once however many nodes
 * start at the same moment (real processes racing), and one address file per node, each removed
 * by its own node only; a dead node's file of this machine is pruned, another machine's is not.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { adminTokenPath, publishAdminToken, publishServerInfo, serverInfoPath } from '../../../server/adapters/node-files.js';

import { until } from '../helpers.js';

const root = resolve(import.meta.dirname, '../../..');

function tempDir(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'vectorize-node-files-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A separate process that loads the module, says it is ready, waits for `go`, then publishes the shared token and prints it. */
function racer(dir: string, go: string, index: number): Promise<string> {
  const script =
    `const { existsSync, writeFileSync } = await import('node:fs');` +
    `const m = await import(${JSON.stringify(join(root, 'server/adapters/node-files.ts'))});` +
    `writeFileSync(${JSON.stringify(join(dir, `ready-${index}`))}, '');` +
    `while (!existsSync(${JSON.stringify(go)})) await new Promise((r) => setTimeout(r, 1));` +
    `process.stdout.write(m.publishAdminToken(${JSON.stringify(dir)}, true));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  return new Promise((done, reject) => child.on('exit', (code) => (code === 0 ? done(out) : reject(new Error(`racer exited ${code}`)))));
}

t.test('nodes starting at once on a shared data dir all adopt one admin token', async (t) => {
  const dir = tempDir(t);
  const go = join(dir, 'go');
  const racing = Array.from({ length: 6 }, (_, index) => racer(dir, go, index));
  await until(() => readdirSync(dir).filter((name) => name.startsWith('ready-')).length === 6 || undefined, 'every racer ready');
  writeFileSync(go, '');
  const tokens = await Promise.all(racing);
  t.equal(new Set(tokens).size, 1, `one token for 6 nodes (got ${new Set(tokens).size})`);
  t.ok(tokens[0]!.length >= 32);
  t.equal(readFileSync(adminTokenPath(dir), 'utf8').trim(), tokens[0], 'the file holds it');
  t.equal(publishAdminToken(dir, true), tokens[0], 'a node starting later adopts it too');
  t.same(
    readdirSync(dir).filter((name) => name.endsWith('.tmp')),
    [],
    'no temp file left behind',
  );
});

t.test('a single lowdb server gets a fresh token each start; an unusable shared one is refused', async (t) => {
  const dir = tempDir(t);
  const first = publishAdminToken(dir, false);
  const second = publishAdminToken(dir, false);
  t.not(first, second);
  t.equal(readFileSync(adminTokenPath(dir), 'utf8').trim(), second);
  writeFileSync(adminTokenPath(dir), '\n');
  t.throws(() => publishAdminToken(dir, true), /holds no usable admin token/);
});

t.test('each node has its own address file and removes only its own', async (t) => {
  const dir = tempDir(t);
  const info = (port: number, pid = process.pid) => ({
    pid,
    host: '127.0.0.1',
    port,
    url: `http://127.0.0.1:${port}`,
    started_at: new Date().toISOString(),
  });
  const removeA = publishServerInfo(dir, info(8081), true);
  const removeB = publishServerInfo(dir, info(8082), true);
  const nodes = join(dir, 'nodes');
  t.equal(readdirSync(nodes).length, 2, 'two nodes, two files');
  t.notOk(existsSync(serverInfoPath(dir)), 'no single server.json to fight over');
  removeA();
  t.same(readdirSync(nodes), [`${hostname()}.${process.pid}.8082.json`], "the other node's file stays");
  t.match(JSON.parse(readFileSync(join(nodes, readdirSync(nodes)[0]!), 'utf8')), { port: 8082, hostname: hostname() });

  // Left by a node of this machine killed without its stop (a pid no process has), and by another machine.
  const deadPid = 2 ** 22 + 12345;
  writeFileSync(join(nodes, `${hostname()}.${deadPid}.8083.json`), JSON.stringify(info(8083, deadPid)));
  mkdirSync(nodes, { recursive: true });
  writeFileSync(
    join(nodes, `gpu-box.example.${deadPid}.8080.json`),
    JSON.stringify({ ...info(8080, deadPid), hostname: 'gpu-box.example' }),
  );
  const removeC = publishServerInfo(dir, info(8084), true);
  t.same(
    readdirSync(nodes).sort(),
    [`gpu-box.example.${deadPid}.8080.json`, `${hostname()}.${process.pid}.8082.json`, `${hostname()}.${process.pid}.8084.json`].sort(),
    "the dead local node's file is pruned, the other machine's kept",
  );
  removeB();
  removeC();

  const removeSingle = publishServerInfo(dir, info(8080), false);
  t.match(JSON.parse(readFileSync(serverInfoPath(dir), 'utf8')), { port: 8080 }, 'lowdb mode: server.json as before');
  removeSingle();
  t.notOk(existsSync(serverInfoPath(dir)));
});
