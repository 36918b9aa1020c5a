/**
 * The desktop app's own server: the same /v1 API as `vectorize serve`, on a random loopback port
 * with its data in the OS's app-data folder, plus the app's own account and `app`-scoped key,
 * made on first run through the server's services (never over HTTP, never by an admin token).
 */
import { availableParallelism } from 'node:os';
import { Writable } from 'node:stream';
import type { Running } from '../server/runtime.js';
import type { Services } from '../server/context.js';
import type { KeyVault } from './key-vault.js';

export interface EmbeddedServer {
  /** http://127.0.0.1:<port>, the origin the window loads and the only one it may reach. */
  url: string;
  apiKey: string;
  accountId: string;
  stop(): Promise<void>;
}

export interface EmbeddedServerOptions {
  dataDir: string;
  vault: KeyVault;
  /** Replaced in tests; defaults to server/runtime.ts startServer with a loopback config. */
  start?: (
    env: Record<string, string>,
    log: NodeJS.WritableStream,
  ) => Promise<Pick<Running, 'url' | 'stop'> & { app: { services: Pick<Services, 'accounts' | 'keys'> } }>;
  log?: NodeJS.WritableStream;
  /** Extra environment for the server config (VECTORIZE_PLANS_FILE, VECTORIZE_LOG_LEVEL …). */
  env?: Record<string, string | undefined>;
}

const APP_ACCOUNT_NAME = 'Desktop app';
const APP_KEY_NAME = 'desktop app';

async function defaultStart(env: Record<string, string>, log: NodeJS.WritableStream) {
  const { loadConfig } = await import('../server/config.js');
  const { startServer } = await import('../server/runtime.js');
  return startServer(loadConfig(env), log);
}

/**
 * The environment of the embedded server: loopback only, a port the OS picks, one core left for
 * the window so the UI stays responsive while a folder converts.
 */
export function embeddedEnv(dataDir: string, extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {
    VECTORIZE_WORKERS: String(Math.max(1, availableParallelism() - 1)),
    VECTORIZE_LOG_LEVEL: 'warn',
  };
  for (const [name, value] of Object.entries(extra)) if (value !== undefined) env[name] = value;
  // Set last: the app never listens beyond loopback, whatever the environment says.
  env.HOST = '127.0.0.1';
  env.PORT = '0';
  env.VECTORIZE_DATA_DIR = dataDir;
  return env;
}

/** The app's key: the stored one while the server still accepts it, else a new one (and account if gone). */
async function ensureAppKey(
  services: Pick<Services, 'accounts' | 'keys'>,
  vault: KeyVault,
): Promise<{ accountId: string; secret: string }> {
  const stored = await vault.read();
  if (stored?.secret) {
    const key = services.keys.authenticate(stored.secret);
    if (key && key.scope === 'app' && key.account_id === stored.accountId) return stored;
  }
  let account = stored ? services.accounts.list().find((candidate) => candidate.id === stored.accountId) : undefined;
  // A new account starts on the trial like every other (docs/api.md, "Plans"); an operator can move it
  // to another plan with `vectorize accounts set-plan` on the app's data folder.
  account ??= services.accounts.create(APP_ACCOUNT_NAME);
  const { secret } = services.keys.create(account, { name: APP_KEY_NAME, scope: 'app' });
  const fresh = { accountId: account.id, secret };
  await vault.write(fresh);
  return fresh;
}

export async function startEmbeddedServer(options: EmbeddedServerOptions): Promise<EmbeddedServer> {
  const log = options.log ?? new Writable({ write: (_chunk, _encoding, done) => done() });
  const running = await (options.start ?? defaultStart)(embeddedEnv(options.dataDir, options.env), log);
  try {
    const { accountId, secret } = await ensureAppKey(running.app.services, options.vault);
    const url = new URL(running.url);
    if (url.hostname !== '127.0.0.1') throw new Error(`embedded server must listen on loopback, got ${running.url}`);
    return { url: url.origin, apiKey: secret, accountId, stop: () => running.stop() };
  } catch (error) {
    await running.stop().catch(() => undefined);
    throw error;
  }
}
