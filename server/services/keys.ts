/**
 * API keys: `service_sk_live_` + 32 base62 characters. Only the SHA-256 of the whole secret is
 * stored, so a database leak leaks no usable key; the secret is shown once, at creation.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { VectorizeError } from '../http-errors.js';
import type { AccountRecord, KeyRecord, KeyScope, Store } from '../adapters/store.js';
import type { Clock } from '../adapters/clock.js';
import { newId, randomBase62 } from '../ids.js';

const KEY_PREFIX = 'service_sk_live_';
const SECRET_PATTERN = /^service_sk_live_[0-9A-Za-z]{32,128}$/;
/** last_used_at is a hint, not an audit log: writing it more often than this only churns the db. */
const LAST_USED_RESOLUTION_MS = 60_000;

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function keyService(deps: { store: Store; clock: Clock }) {
  const { store, clock } = deps;
  // hash -> key id; rebuilt lazily so records written by another process (CLI) are found.
  const byHash = new Map<string, string>();

  const view = (key: KeyRecord) => ({
    id: key.id,
    account_id: key.account_id,
    name: key.name,
    scope: key.scope,
    prefix: KEY_PREFIX,
    last4: key.last4,
    masked: `${KEY_PREFIX}…${key.last4}`,
    created_at: key.created_at,
    last_used_at: key.last_used_at,
  });

  return {
    view,

    create(account: AccountRecord, options: { name?: string; scope?: KeyScope } = {}) {
      const name = (options.name ?? '').trim() || 'default';
      if (name.length > 128 || /[\u0000-\u001f\u007f]/.test(name)) {
        throw new VectorizeError('invalid_parameter', 'A key name is at most 128 characters without control characters.', {
          field: 'name',
        });
      }
      const scope = options.scope ?? 'api';
      if (scope !== 'api' && scope !== 'app')
        throw new VectorizeError('invalid_parameter', 'scope must be api or app.', { field: 'scope' });
      const secret = KEY_PREFIX + randomBase62(32);
      const record = store.keys.insert({
        id: newId('key'),
        account_id: account.id,
        name,
        scope,
        hash: hashSecret(secret),
        last4: secret.slice(-4),
        created_at: clock.now().toISOString(),
        last_used_at: null,
      });
      byHash.set(record.hash, record.id);
      return { key: record, secret };
    },

    /** The key record for a presented secret, or undefined. Constant-time on the hash compare. */
    authenticate(secret: string): KeyRecord | undefined {
      if (!SECRET_PATTERN.test(secret)) return undefined;
      const hash = hashSecret(secret);
      const id = byHash.get(hash);
      let key = id ? store.keys.get(id) : undefined;
      if (!key) {
        key = store.keys.find((k) => k.hash.length === hash.length && timingSafeEqual(Buffer.from(k.hash), Buffer.from(hash)));
        if (key) byHash.set(hash, key.id);
      }
      if (!key) return undefined;
      const now = clock.now();
      if (!key.last_used_at || now.getTime() - new Date(key.last_used_at).getTime() > LAST_USED_RESOLUTION_MS) {
        key = store.keys.update(key.id, { last_used_at: now.toISOString() })!;
      }
      return key;
    },

    list(accountId?: string): KeyRecord[] {
      return store.keys
        .filter((k) => accountId === undefined || k.account_id === accountId)
        .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
    },

    /** Another account's key answers not_found, never forbidden (docs/api.md, "Authentication and keys"). */
    revoke(id: string, accountId?: string): void {
      const key = store.keys.get(id);
      if (!key || (accountId !== undefined && key.account_id !== accountId)) throw new VectorizeError('not_found', 'No such key.');
      store.keys.delete(id);
      byHash.delete(key.hash);
    },
  };
}

export type KeyService = ReturnType<typeof keyService>;
