/**
 * Where the desktop app keeps its own API key between runs. The server stores only a hash of a
 * key, so the app must keep the secret itself: encrypted with the OS keychain (Electron
 * safeStorage) where one is available, else in a file only the user can read.
 */
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

interface StoredKey {
  accountId: string;
  secret: string;
}

export interface KeyVault {
  read(): Promise<StoredKey | null>;
  write(key: StoredKey): Promise<void>;
}

export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

interface VaultFile {
  account_id: string;
  secret?: string;
  secret_encrypted?: string;
}

export function fileKeyVault(path: string, safeStorage?: SafeStorageLike): KeyVault {
  return {
    async read() {
      let parsed: VaultFile;
      try {
        parsed = JSON.parse(await readFile(path, 'utf8')) as VaultFile;
      } catch {
        return null;
      }
      if (typeof parsed.account_id !== 'string') return null;
      try {
        if (parsed.secret_encrypted && safeStorage?.isEncryptionAvailable()) {
          return { accountId: parsed.account_id, secret: safeStorage.decryptString(Buffer.from(parsed.secret_encrypted, 'base64')) };
        }
      } catch {
        // A keychain that changed (new OS user, restored profile) cannot decrypt: a new key is made.
        return { accountId: parsed.account_id, secret: '' };
      }
      return { accountId: parsed.account_id, secret: typeof parsed.secret === 'string' ? parsed.secret : '' };
    },
    async write(key) {
      const body: VaultFile = safeStorage?.isEncryptionAvailable()
        ? { account_id: key.accountId, secret_encrypted: safeStorage.encryptString(key.secret).toString('base64') }
        : { account_id: key.accountId, secret: key.secret };
      await mkdir(dirname(path), { recursive: true });
      const temp = `${path}.${process.pid}.tmp`;
      await writeFile(temp, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
      await chmod(temp, 0o600);
      await rename(temp, path);
    },
  };
}
