/**
 * `vectorize accounts …` / `vectorize keys …`: the id and the secret are the last stdout line;
 * without a server they write the database under the lock, with one they go through its admin
 * API, so there is only ever one writer.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { run as accounts } from '../../../cli/commands/accounts.js';
import { run as keys } from '../../../cli/commands/keys.js';
import { loadConfig } from '../../../server/config.js';
import { startServer } from '../../../server/runtime.js';
import { acquireLock } from '../../../server/adapters/lock.js';

async function cli(command: typeof accounts, args: string[], env: Record<string, string>) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  const code = await command(args, { stdout, stderr, stdin: new PassThrough(), env });
  return { code, out, err, last: out.trim().split('\n').at(-1) ?? '' };
}

t.test('without a server: writes the database under the lock', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vectorize-cli-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = { VECTORIZE_DATA_DIR: dir };
  const created = await cli(accounts, ['create', 'Studio One', '--plan', 'pro'], env);
  t.equal(created.code, 0, created.err);
  t.match(created.last, /^acct_[0-9A-Za-z]{16,}$/);
  const key = await cli(keys, ['create', '--account', created.last, '--name', 'ci'], env);
  t.equal(key.code, 0, key.err);
  t.match(key.last, /^service_sk_live_[0-9A-Za-z]{32}$/);
  const db = readFileSync(join(dir, 'db.json'), 'utf8');
  t.notOk(db.includes(key.last), 'only the hash is on disk');
  t.notOk(existsSync(join(dir, 'vectorize.lock')), 'the lock is released');
  const list = await cli(keys, ['list', '--account', created.last], env);
  t.match(list.out, new RegExp(`service_sk_live_…${key.last.slice(-4)}`));
  t.notOk(list.out.includes(key.last));
  t.equal((await cli(accounts, ['set-plan', created.last, 'studio'], env)).code, 0);
  t.match((await cli(accounts, ['list'], env)).out, /studio\tStudio One/);
  const bad = await cli(accounts, ['set-plan', created.last, 'platinum'], env);
  t.equal(bad.code, 1);
  t.match(bad.err, /Unknown plan/);
  const keyId = /key_[0-9A-Za-z]+/.exec(key.out)![0];
  t.equal((await cli(keys, ['revoke', keyId], env)).code, 0);
  t.equal((await cli(keys, ['list'], env)).out, '');
});

t.test('with a server running: goes through its admin API', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vectorize-cli-'));
  const env = { VECTORIZE_DATA_DIR: dir, PORT: '0', VECTORIZE_WORKERS: '1', VECTORIZE_LOG_LEVEL: 'silent' };
  const running = await startServer(loadConfig(env), new PassThrough());
  t.teardown(async () => {
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  t.throws(() => acquireLock(dir), { name: 'LockedError' }, 'the server holds the lock');
  t.equal(readFileSync(join(dir, 'admin.token')).length > 20, true);
  const created = await cli(accounts, ['create', 'Live', '--plan', 'agency'], env);
  t.equal(created.code, 0, created.err);
  const key = await cli(keys, ['create', '--account', created.last, '--scope', 'app'], env);
  t.match(key.last, /^service_sk_live_/);
  const res = await fetch(`${running.url}/v1/account`, { headers: { authorization: `Bearer ${key.last}` } });
  t.equal(res.status, 200, 'the server knows the key at once');
  t.match(await res.json(), { id: created.last, plan: 'agency' });
});
