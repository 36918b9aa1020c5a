/**
 * Two API nodes on one PostgreSQL and one data dir (startServer, as `vectorize serve` runs it):
 * the admin token in the data dir opens both nodes' admin API, each node has its own address
 * file, and a node that stops takes neither the token nor the other node's file with it.
 */
import t from 'tap';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { loadConfig } from '../../server/config.js';
import { startServer, type Running } from '../../server/runtime.js';
import { resolveAdminConnection } from '../../tui/connect.js';
import { postgresMissing, testPostgres } from './postgres.js';

const missing = postgresMissing();

t.test('API nodes sharing a data dir keep one admin token and their own address files', { skip: missing ?? false }, async (t) => {
  const databaseUrl = await testPostgres().database();
  const dataDir = mkdtempSync(join(tmpdir(), 'vectorize-shared-dir-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = {
    VECTORIZE_DATA_DIR: dataDir,
    VECTORIZE_DATABASE_URL: databaseUrl,
    VECTORIZE_ROLE: 'api',
    PORT: '0',
    VECTORIZE_LOG_LEVEL: 'silent',
    VECTORIZE_MIN_FREE_BYTES: '0',
  };
  const nodes: Running[] = [];
  t.teardown(() => Promise.all(nodes.map((node) => node.stop())));
  for (let i = 0; i < 2; i++) nodes.push(await startServer(loadConfig(env), new PassThrough()));
  const token = readFileSync(join(dataDir, 'admin.token'), 'utf8').trim();
  const stats = async (node: Running) =>
    (await fetch(`${node.url}/admin/v1/stats`, { headers: { authorization: `Bearer ${token}` } })).status;
  t.same(await Promise.all(nodes.map(stats)), [200, 200], "the token in the data dir opens both nodes' admin API");
  t.equal(readdirSync(join(dataDir, 'nodes')).length, 2, 'one address file per node');
  t.notOk(existsSync(join(dataDir, 'server.json')), 'no shared server.json for the nodes to overwrite');

  await nodes[0]!.stop();
  t.equal(await stats(nodes[1]!), 200, 'the other node still takes the token');
  t.equal(readFileSync(join(dataDir, 'admin.token'), 'utf8').trim(), token, 'the token stays for the node still running');
  t.same(readdirSync(join(dataDir, 'nodes')).length, 1, "the stopped node removed its file, not the other's");
  t.same(
    await resolveAdminConnection({ dataDir }),
    { baseUrl: nodes[1]!.url, adminToken: token, dataDir },
    'the TUI finds the running node',
  );

  nodes.push(await startServer(loadConfig(env), new PassThrough()));
  t.equal(await stats(nodes[2]!), 200, 'a node started later adopts the same token');
  t.equal(await stats(nodes[1]!), 200, 'and does not lock the others out');
});
