/**
 * How the admin CLI reaches the records without ever being a second writer: it first tries to
 * take the data-dir lock. Taken → no server runs, so it opens the store itself and releases the
 * lock when done. Held by a live server → it goes through that server's admin API (loopback +
 * the token in <dataDir>/admin.token).
 */
import { readFileSync } from 'node:fs';
import { VectorizeError } from './http-errors.js';
import { acquireLock, LockedError } from './adapters/lock.js';
import { systemClock } from './adapters/clock.js';
import { loadConfig, type Config } from './config.js';
import { accountService } from './services/accounts.js';
import { keyService } from './services/keys.js';
import { adminTokenPath, openStore, serverInfoPath, type ServerInfoFile } from './runtime.js';
import type { KeyScope } from './adapters/store.js';

type AccountView = ReturnType<ReturnType<typeof accountService>['view']>;
type KeyView = ReturnType<ReturnType<typeof keyService>['view']>;

interface AdminAccess {
  via: 'server' | 'database';
  listAccounts(): Promise<AccountView[]>;
  createAccount(name: string, plan: string): Promise<AccountView>;
  setPlan(id: string, plan: string): Promise<AccountView>;
  listKeys(accountId?: string): Promise<KeyView[]>;
  createKey(accountId: string, name: string | undefined, scope: KeyScope): Promise<KeyView & { secret: string }>;
  revokeKey(id: string): Promise<void>;
  close(): Promise<void>;
}

async function viaServer(dataDir: string): Promise<AdminAccess> {
  let info: ServerInfoFile;
  let token: string;
  try {
    info = JSON.parse(readFileSync(serverInfoPath(dataDir), 'utf8')) as ServerInfoFile;
    token = readFileSync(adminTokenPath(dataDir), 'utf8').trim();
  } catch {
    throw new Error(`A server holds ${dataDir} but its server.json/admin.token cannot be read yet; retry in a moment.`);
  }
  const base = `http://127.0.0.1:${info.port}/admin/v1`;
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status === 204) return undefined as T;
    const json = (await response.json()) as T & { error?: { code: string; message: string; details: Record<string, unknown> } };
    if (!response.ok) {
      const error = json.error ?? { code: 'internal_error', message: response.statusText, details: {} };
      throw new VectorizeError(error.code as 'not_found', error.message, error.details);
    }
    return json;
  };
  return {
    via: 'server',
    listAccounts: async () => (await call<{ accounts: AccountView[] }>('GET', '/accounts')).accounts,
    createAccount: (name, plan) => call('POST', '/accounts', { name, plan }),
    setPlan: (id, plan) => call('PUT', `/accounts/${encodeURIComponent(id)}/plan`, { plan }),
    listKeys: async (accountId) =>
      (await call<{ keys: KeyView[] }>('GET', `/keys${accountId ? `?account_id=${encodeURIComponent(accountId)}` : ''}`)).keys,
    createKey: (accountId, name, scope) => call('POST', '/keys', { account_id: accountId, ...(name === undefined ? {} : { name }), scope }),
    revokeKey: (id) => call('DELETE', `/keys/${encodeURIComponent(id)}`),
    close: async () => undefined,
  };
}

export async function openAdminAccess(env: Record<string, string | undefined> = process.env): Promise<AdminAccess> {
  const config: Readonly<Config> = loadConfig(env);
  let lock;
  try {
    lock = acquireLock(config.dataDir);
  } catch (error) {
    if (error instanceof LockedError) return viaServer(config.dataDir);
    throw error;
  }
  try {
    const store = await openStore(config);
    const accounts = accountService({ store, clock: systemClock, config });
    const keys = keyService({ store, clock: systemClock });
    return {
      via: 'database',
      listAccounts: async () => accounts.list().map((a) => accounts.view(a)),
      createAccount: async (name, plan) => accounts.view(accounts.create(name, plan as never)),
      setPlan: async (id, plan) => accounts.view(await accounts.setPlan(id, plan)),
      listKeys: async (accountId) => keys.list(accountId).map(keys.view),
      async createKey(accountId, name, scope) {
        const { key, secret } = keys.create(accounts.get(accountId), { name, scope });
        return { ...keys.view(key), secret };
      },
      revokeKey: async (id) => keys.revoke(id),
      async close() {
        await store.close();
        lock.release();
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}
