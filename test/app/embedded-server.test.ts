import t, { type Test } from 'tap';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedEnv, startEmbeddedServer } from '../../app/embedded-server.js';
import { fileKeyVault } from '../../app/key-vault.js';

async function tempDir(t: Test): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'vectorize-embedded-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function account(url: string, key: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, body: await response.json() };
}

t.test('the real server starts on loopback in the data folder, makes the app key once and reuses it', async (t) => {
  const dir = await tempDir(t);
  const vaultPath = join(dir, 'app-key.json');
  const dataDir = join(dir, 'data');

  const first = await startEmbeddedServer({
    dataDir,
    vault: fileKeyVault(vaultPath),
    env: { VECTORIZE_WORKERS: '1', VECTORIZE_DEVICE: 'cpu' },
  });
  t.match(first.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  t.match(first.apiKey, /^service_sk_live_/);
  const answer = await account(first.url, first.apiKey);
  t.equal(answer.status, 200, 'the app key works on /v1');
  t.equal(answer.body.id, first.accountId);
  t.equal(answer.body.plan, 'trial', 'a new account starts on the trial like any other');
  t.equal(answer.body.allowances.trial.left, 5);
  const page = await fetch(`${first.url}/`);
  t.equal(page.status === 200 || page.status === 404, true, 'the front-end route exists (404 only when not built)');
  t.equal((await stat(vaultPath)).mode & 0o777, 0o600, 'the key file is readable by the user only');
  t.ok((await stat(join(dataDir, 'db.json'))).isFile(), 'data lives in the given folder');
  await first.stop();
  await t.rejects(fetch(`${first.url}/v1/account`), TypeError, 'stop closes the port');

  const second = await startEmbeddedServer({
    dataDir,
    vault: fileKeyVault(vaultPath),
    env: { VECTORIZE_WORKERS: '1', VECTORIZE_DEVICE: 'cpu' },
  });
  t.teardown(() => second.stop());
  t.equal(second.apiKey, first.apiKey, 'the stored key is reused');
  t.equal(second.accountId, first.accountId);
  const db = JSON.parse(await readFile(join(dataDir, 'db.json'), 'utf8'));
  const keys = (db.keys ?? []) as Array<{ scope: string }>;
  if (Array.isArray(keys) && keys.length)
    t.same(
      keys.map((k) => k.scope),
      ['app'],
      'one app-scoped key, no second one',
    );
});

t.test('a lost or foreign secret gets a fresh key on the same account', async (t) => {
  const dir = await tempDir(t);
  const vaultPath = join(dir, 'app-key.json');
  const dataDir = join(dir, 'data');
  const first = await startEmbeddedServer({
    dataDir,
    vault: fileKeyVault(vaultPath),
    env: { VECTORIZE_WORKERS: '1', VECTORIZE_DEVICE: 'cpu' },
  });
  await first.stop();
  const stored = JSON.parse(await readFile(vaultPath, 'utf8'));
  await writeFile(vaultPath, JSON.stringify({ ...stored, secret: 'service_sk_live_' + 'x'.repeat(32) }));
  const second = await startEmbeddedServer({
    dataDir,
    vault: fileKeyVault(vaultPath),
    env: { VECTORIZE_WORKERS: '1', VECTORIZE_DEVICE: 'cpu' },
  });
  t.teardown(() => second.stop());
  t.not(second.apiKey, first.apiKey);
  t.equal(second.accountId, first.accountId, 'conversions already spent stay spent: same account');
  t.equal((await account(second.url, second.apiKey)).status, 200);
  t.equal((await account(second.url, first.apiKey)).status, 200, 'the old key was not revoked (only the file lost it)');
});

t.test('the environment cannot move the embedded server off loopback', async (t) => {
  const env = embeddedEnv('/data', {
    HOST: '0.0.0.0',
    PORT: '8080',
    VECTORIZE_DATA_DIR: '/elsewhere',
    VECTORIZE_PLANS_FILE: undefined,
    VECTORIZE_LOG_LEVEL: 'debug',
  });
  t.equal(env.HOST, '127.0.0.1');
  t.equal(env.PORT, '0');
  t.equal(env.VECTORIZE_DATA_DIR, '/data');
  t.equal(env.VECTORIZE_LOG_LEVEL, 'debug');
  t.notOk('VECTORIZE_PLANS_FILE' in env);
});
