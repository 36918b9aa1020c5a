/**
 * `vectorize serve`: the real adapters around createApp(): the data-dir lock, the lowdb store,
 * the worker pool, the admin token + server.json for the CLI and TUI, the cron sweeper, and a
 * clean shutdown on SIGINT/SIGTERM.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import cron from 'node-cron';
import type { Config } from './config.js';
import { acquireLock } from './adapters/lock.js';
import { secureDataDir } from './adapters/data-dir.js';
import { adminTokenPath, publishAdminToken, publishServerInfo } from './adapters/node-files.js';
import { openLowdbStore } from './adapters/lowdb-store.js';
import { openPostgresStore } from './adapters/postgres-store.js';
import { openPgBossQueue, WEBHOOK_LEASE, type PgBossQueue } from './adapters/pg-boss-queue.js';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { Store } from './adapters/store.js';
import { workerPool } from './adapters/engine-pool.js';
import { engineProber } from './adapters/engine.js';
import { createApp, type App } from './app.js';
import { jsonLogger, type Logger } from './log.js';
import { installProcessGuard } from './process-guard.js';

export { adminTokenPath, serverInfoPath, type ServerInfoFile } from './adapters/node-files.js';
function dbPath(dataDir: string): string {
  return join(dataDir, 'db.json');
}

/** The records' home: PostgreSQL when VECTORIZE_DATABASE_URL is set, else <dataDir>/db.json. */
export function openStore(config: Readonly<Config>): Promise<Store> {
  return config.databaseUrl ? openPostgresStore(config.databaseUrl) : openLowdbStore(dbPath(config.dataDir));
}

export interface Running {
  app: App;
  url: string;
  log: Logger;
  stop(): Promise<void>;
}

export async function startServer(config: Readonly<Config>, out: NodeJS.WritableStream = process.stdout): Promise<Running> {
  const log = jsonLogger(config.logLevel, out);
  const tightened = secureDataDir(config.dataDir);
  if (tightened) log.warn('data dir permissions tightened (dirs 0700, files 0600)', { data_dir: config.dataDir, entries: tightened });
  // With PostgreSQL the records and the queue are shared by design and the data dir is every
  // node's (a shared mount): the single-writer lock is for the lowdb file only.
  const lock = config.databaseUrl ? null : acquireLock(config.dataDir);
  const removeGuard = installProcessGuard(log);
  const serves = config.role !== 'worker';
  let app: App | undefined;
  let task: ReturnType<typeof cron.schedule> | undefined;
  let queue: PgBossQueue | undefined;
  let health: HttpServer | undefined;
  try {
    let store: Store;
    if (config.databaseUrl) {
      const shared = await openPostgresStore(config.databaseUrl);
      store = shared;
      queue = await openPgBossQueue({ url: config.databaseUrl, store: shared, maxAttempts: config.maxAttempts, log });
    } else {
      store = await openStore(config);
    }
    const pool = workerPool({ size: config.workers, engineModule: config.engineModule, device: config.device });
    // Every API node of a shared data dir accepts the one token the TUI on its machine reads.
    const shared = config.databaseUrl !== null;
    const adminToken = serves ? publishAdminToken(config.dataDir, shared) : randomBytes(32).toString('base64url');
    const webhookLease = queue ? () => queue!.holdsLease(WEBHOOK_LEASE) : undefined;
    app = await createApp({ config, store, pool, queue, webhookLease, prober: await engineProber(), log, adminToken });
    await app.start();
    const url = serves ? app.server.info.uri.replace('0.0.0.0', '127.0.0.1') : '';
    const unpublish = serves
      ? publishServerInfo(
          config.dataDir,
          { pid: process.pid, host: config.host, port: app.server.info.port as number, url, started_at: new Date().toISOString() },
          shared,
        )
      : undefined;
    if (config.healthPort !== null) health = await healthServer(config.host, config.healthPort, app);
    const retention = app.services.retention;
    const sweep = () => retention.sweep().catch((error: Error) => log.error('sweep failed', { err: error.message }));
    // Once per tick across every node sharing the database (pg-boss hands each tick to one node).
    if (queue) await queue.schedule(config.sweepCron, sweep);
    else {
      task = cron.schedule(config.sweepCron, () => void sweep());
      void sweep();
    }
    const classifier = await app.context.classifier();
    log.info(serves ? 'listening' : 'working', {
      url,
      role: config.role,
      workers: config.workers,
      data_dir: config.dataDir,
      store: config.databaseUrl ? 'postgres' : 'lowdb',
      classifier: classifier.provider,
      version: app.context.version,
    });
    if (serves && app.context.store.accounts.count() === 0) {
      log.info(
        'no accounts yet: create one with `vectorize accounts create NAME --plan pro`, then `vectorize keys create --account acct_…`',
      );
    }
    let stopping: Promise<void> | undefined;
    const running: Running = {
      app,
      url,
      log,
      stop() {
        stopping ??= (async () => {
          await task?.stop();
          health?.close();
          await app!.stop();
          // PostgreSQL's pool and change feed would keep the process alive.
          await store.close();
          unpublish?.();
          // A shared token stays: the other nodes still accept it.
          if (serves && !shared) rmSync(adminTokenPath(config.dataDir), { force: true });
          lock?.release();
          removeGuard();
        })();
        return stopping;
      },
    };
    return running;
  } catch (error) {
    await task?.stop();
    health?.close();
    await app?.stop().catch(() => undefined);
    if (!app) await queue?.stop().catch(() => undefined);
    lock?.release();
    removeGuard();
    throw error;
  }
}

/** A worker's only HTTP: GET /healthz on its own port, for a supervisor or a load balancer's check. */
function healthServer(host: string, port: number, app: App): Promise<HttpServer> {
  const server = createHttpServer((request, response) => {
    const ok = request.method === 'GET' && request.url === '/healthz';
    response.writeHead(ok ? 200 : 404, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify(
        ok ? { status: 'ok', role: 'worker', processing: app.services.jobs.processingCount } : { error: { code: 'not_found' } },
      ),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
