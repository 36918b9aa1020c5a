import t, { type Test } from 'tap';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileKeyVault, type SafeStorageLike } from '../../app/key-vault.js';

async function tempFile(t: Test): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'vectorize-vault-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return join(dir, 'nested', 'app-key.json');
}

/** A keychain stand-in: "encrypts" by reversing and tagging, and can be told to fail. */
function keychain(available = true): SafeStorageLike & { broken: boolean } {
  return {
    broken: false,
    isEncryptionAvailable: () => available,
    encryptString: (plain) => Buffer.from(`enc:${[...plain].reverse().join('')}`),
    decryptString(encrypted) {
      if (this.broken) throw new Error('keychain changed');
      return [...encrypted.toString().slice(4)].reverse().join('');
    },
  };
}

t.test('with a keychain the secret is stored encrypted, in a user-only file', async (t) => {
  const path = await tempFile(t);
  const safe = keychain();
  const vault = fileKeyVault(path, safe);
  t.equal(await vault.read(), null, 'nothing stored yet');
  await vault.write({ accountId: 'acct_1', secret: 'service_sk_live_abc' });
  const raw = await readFile(path, 'utf8');
  t.notMatch(raw, /service_sk_live_abc/, 'the secret is not in the file in clear');
  t.equal((await stat(path)).mode & 0o777, 0o600);
  t.same(await vault.read(), { accountId: 'acct_1', secret: 'service_sk_live_abc' });
  safe.broken = true;
  t.same(
    await vault.read(),
    { accountId: 'acct_1', secret: '' },
    'an undecryptable secret reads as none (a new key is made) but keeps the account',
  );
});

t.test('without a keychain the secret is kept in a user-only file', async (t) => {
  const path = await tempFile(t);
  const vault = fileKeyVault(path, keychain(false));
  await vault.write({ accountId: 'acct_2', secret: 'service_sk_live_def' });
  t.equal((await stat(path)).mode & 0o777, 0o600);
  t.same(await fileKeyVault(path).read(), { accountId: 'acct_2', secret: 'service_sk_live_def' });
});
