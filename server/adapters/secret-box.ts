/**
 * Seals secrets at rest (AES-256-GCM) with a key kept in <dataDir>/secrets.key (0600), beside
 * admin.token, so a copied db.json alone cannot sign webhook events. The key file holds one
 * base64url key per line: the first seals, every line opens. Rotation: put a new key on the first
 * line and restart (the webhooks service re-seals what an older key sealed), then drop the old line.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';

const KEY_BYTES = 32;
// 96-bit nonces are GCM's native size; random ones are safe far beyond the number of secrets kept.
const NONCE_BYTES = 12;
const FORMAT = 'v1';

export interface SecretBox {
  /** `context` (the owning record's id) is bound in, so a sealed value cannot be moved to another record. */
  seal(plain: string, context: string): string;
  open(sealed: string, context: string): string;
  /** Whether the value was sealed with the current (first) key. */
  isCurrent(sealed: string): boolean;
}

export function secretKeyPath(dataDir: string): string {
  return join(dataDir, 'secrets.key');
}

function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** A box over explicit keys, the first sealing; for the key file and for tests. */
export function secretBox(keys: Buffer[]): SecretBox {
  if (keys.length === 0) throw new Error('secret box: no key');
  const byId = new Map(keys.map((key) => [keyId(key), key]));
  const current = keys[0]!;
  const currentId = keyId(current);
  return {
    seal(plain, context) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current, nonce);
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [FORMAT, currentId, nonce.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(
        '.',
      );
    },
    open(sealed, context) {
      const [format, id, nonce, tag, body] = sealed.split('.');
      if (format !== FORMAT || !id || nonce === undefined || tag === undefined || body === undefined)
        throw new Error('secret box: not a sealed value');
      const key = byId.get(id);
      if (!key) throw new Error(`secret box: sealed with key ${id}, which secrets.key does not hold`);
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
    isCurrent(sealed) {
      return sealed.split('.')[1] === currentId;
    },
  };
}

/**
 * The box over <dataDir>/secrets.key, read when a secret is first sealed or opened and created then
 * (0600) with a fresh key if absent: a data dir that never had a webhook holds no key.
 */
export function openSecretBox(dataDir: string): SecretBox {
  let box: SecretBox | undefined;
  const load = () => (box ??= readKeyFile(secretKeyPath(dataDir)));
  return {
    seal: (plain, context) => load().seal(plain, context),
    open: (sealed, context) => load().open(sealed, context),
    isCurrent: (sealed) => load().isCurrent(sealed),
  };
}

function readKeyFile(path: string): SecretBox {
  try {
    // 'wx': two nodes starting at once on a shared data dir must not both write a key.
    writeFileSync(path, `${randomBytes(KEY_BYTES).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  chmodSync(path, 0o600);
  const keys = readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line, index) => {
      const key = Buffer.from(line, 'base64url');
      if (key.length !== KEY_BYTES) throw new Error(`${path}: key ${index + 1} is not ${KEY_BYTES} bytes of base64url`);
      return key;
    });
  if (keys.length === 0) throw new Error(`${path} holds no key`);
  return secretBox(keys);
}
