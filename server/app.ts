/**
 * Builds the hapi server from injected adapters: one plugin per resource, one error mapping, one
 * auth scheme. Tests call createApp() with a fake engine and a manual clock and use
 * server.inject(); `vectorize serve` (server/runtime.ts) adds the real adapters, the lock and
 * the sweeper around it.
 */
import Hapi, { type Request, type Server } from '@hapi/hapi';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import type { Config } from './config.js';
import type { Store } from './adapters/store.js';
import { diskBlobs, type Blobs } from './adapters/blobs.js';
import { systemClock, type Clock } from './adapters/clock.js';
import { statfsDisk, type DiskProbe } from './adapters/disk.js';
import type { EnginePool, ImageProber } from './adapters/engine.js';
import { embeddedQueue, type JobQueue } from './adapters/job-queue.js';
import { EventBus } from './events.js';
import { silentLogger, type Logger } from './log.js';
import { registerErrorMapping, validationFailAction } from './http-errors.js';
import { registerMethodNotAllowed } from './method-not-allowed.js';
import { registerApiAuth } from './auth.js';
import { registerConnectionHandling } from './connection.js';
import type { AppContext, ClassifierInfo, Services } from './context.js';
import { accountService } from './services/accounts.js';
import { keyService } from './services/keys.js';
import { jobService } from './services/jobs.js';
import { folderService } from './services/folders.js';
import { idempotencyService } from './services/idempotency.js';
import { reportService } from './services/reports.js';
import { retentionService } from './services/retention.js';
import { submissionService } from './services/submissions.js';
import { renderService } from './services/renders.js';
import { webhookService } from './services/webhooks.js';
import { openSecretBox, type SecretBox } from './adapters/secret-box.js';
import { AddressPolicy } from './webhooks/address-policy.js';
import { WebhookSender, systemResolver, type Resolver } from './webhooks/sender.js';
import { vectorizePlugin } from './plugins/vectorize.js';
import { jobsPlugin } from './plugins/jobs.js';
import { rendersPlugin } from './plugins/renders.js';
import { foldersPlugin } from './plugins/folders.js';
import { accountPlugin } from './plugins/account.js';
import { keysPlugin } from './plugins/keys.js';
import { reportsPlugin } from './plugins/reports.js';
import { healthPlugin } from './plugins/health.js';
import { metricsPlugin } from './plugins/metrics.js';
import { docsPlugin } from './plugins/docs.js';
import { adminPlugin } from './plugins/admin.js';
import { webhooksPlugin } from './plugins/webhooks.js';
import { frontendPlugin } from './plugins/frontend.js';

interface AppDeps {
  config: Readonly<Config>;
  store: Store;
  pool: EnginePool;
  prober: ImageProber;
  /** Where accepted jobs wait; this process's memory otherwise. */
  queue?: JobQueue;
  blobs?: Blobs;
  clock?: Clock;
  disk?: DiskProbe;
  log?: Logger;
  events?: EventBus;
  adminToken?: string | null;
  classifier?: () => Promise<ClassifierInfo>;
  /** Seals webhook secrets; the key file in the data dir otherwise. */
  secrets?: SecretBox;
  /** DNS for webhook targets; the system resolver otherwise. */
  resolve?: Resolver;
  /** Whether this node sends webhook deliveries (the cluster-wide lease); always otherwise. */
  webhookLease?: () => Promise<boolean>;
  /** How often stored webhook deliveries are looked at besides the wake-ups at each due retry. */
  webhookPollMs?: number;
}

export interface App {
  server: Server;
  context: AppContext;
  services: Services;
  /** Re-queues what a previous process left queued/processing, then starts listening. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

function packageVersion(): string {
  // From source this file is server/app.ts, from the build dist/server/app.js.
  const require = createRequire(import.meta.url);
  for (const path of ['../package.json', '../../package.json']) {
    try {
      const pkg = require(path) as { name?: string; version?: string };
      if (pkg.name === 'vectorize' && pkg.version) return pkg.version;
    } catch {
      /* try the next */
    }
  }
  return '0.0.0';
}
const VERSION: string = packageVersion();

/** The engine's classifier provider, when the engine exposes it (engine/classify getClassifierInfo). */
async function engineClassifierInfo(): Promise<ClassifierInfo> {
  const specifier = '../engine/classify/index.js';
  try {
    const mod = (await import(specifier)) as { getClassifierInfo?: () => ClassifierInfo | Promise<ClassifierInfo> };
    if (typeof mod.getClassifierInfo === 'function') return await mod.getClassifierInfo();
  } catch {
    /* no classifier module: report unknown */
  }
  return { provider: 'heuristic' };
}

export async function createApp(deps: AppDeps): Promise<App> {
  const { config, store, pool, prober } = deps;
  const clock = deps.clock ?? systemClock;
  const blobs = deps.blobs ?? diskBlobs(config.dataDir);
  const disk = deps.disk ?? statfsDisk;
  const log = deps.log ?? silentLogger;
  const events = deps.events ?? new EventBus();
  await blobs.init();

  const accounts = accountService({ store, clock, config });
  const keys = keyService({ store, clock });
  const queue = deps.queue ?? embeddedQueue(store);
  const jobs = jobService({ store, blobs, clock, pool, events, log, config, accounts, queue, traces: config.role !== 'api' });
  const folders = folderService({ store, clock });
  const idempotency = idempotencyService({ store, clock });
  const reports = reportService({ store, clock });
  const resolve = deps.resolve ?? systemResolver;
  const policy = new AddressPolicy(config.webhookAllowCidrs.join(','));
  const webhooks = webhookService({
    store,
    clock,
    log,
    secrets: deps.secrets ?? openSecretBox(config.dataDir),
    policy,
    resolve,
    sender: new WebhookSender({ policy, resolve }),
    backoffMs: config.webhookBackoffMs,
    dispatches: deps.webhookLease,
  });
  const retention = retentionService({ store, blobs, clock, config, idempotency, webhooks, log });
  const submissions = submissionService({ store, blobs, clock, disk, prober, accounts, jobs, folders, idempotency });
  const renders = renderService({ store, blobs, clock, disk, accounts, jobs, retention, idempotency });
  const services: Services = { accounts, keys, jobs, folders, idempotency, reports, retention, submissions, renders, webhooks };

  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();

  const server = Hapi.server({
    host: config.host,
    port: config.port,
    routes: {
      validate: { failAction: validationFailAction },
      response: { emptyStatusCode: 204 },
      security: { noSniff: true, xframe: true, referrer: 'no-referrer' },
    },
    router: { stripTrailingSlash: true },
  });

  const context: AppContext = {
    config,
    store,
    blobs,
    clock,
    disk,
    pool,
    events,
    log,
    services,
    version: VERSION,
    adminToken: deps.adminToken ?? null,
    classifier: deps.classifier ?? engineClassifierInfo,
    eventLoop: () => ({
      max_ms: loop.max / 1e6,
      p99_ms: loop.percentile(99) / 1e6,
      mean_ms: Number.isNaN(loop.mean) ? 0 : loop.mean / 1e6,
      reset: () => loop.reset(),
    }),
    baseUrl(request: Request) {
      if (config.publicUrl) return config.publicUrl;
      return `${server.info.protocol}://${request.info.host}`;
    },
  };

  webhooks.listen(events, () => config.publicUrl ?? server.info.uri);

  registerConnectionHandling(server, log);
  registerMethodNotAllowed(server);
  registerErrorMapping(server, log);
  registerApiAuth(server, { keys, accounts });
  server.events.on('response', (request) => {
    log.info('request', {
      request_id: request.info.id,
      method: request.method.toUpperCase(),
      path: request.path,
      // What went on the wire: request.response can lack it (a real `npm start` logged GET / with no status).
      status: request.raw.res.statusCode,
      ms: Date.now() - request.info.received,
    });
  });

  const options = { app: context };
  await server.register([
    { plugin: docsPlugin, options },
    { plugin: healthPlugin, options },
    { plugin: metricsPlugin, options },
    { plugin: vectorizePlugin, options },
    { plugin: jobsPlugin, options },
    { plugin: rendersPlugin, options },
    { plugin: reportsPlugin, options },
    { plugin: foldersPlugin, options },
    { plugin: accountPlugin, options },
    { plugin: keysPlugin, options },
    { plugin: adminPlugin, options },
    { plugin: webhooksPlugin, options },
    { plugin: frontendPlugin, options },
  ]);

  return {
    server,
    context,
    services,
    async start() {
      const recovered = jobs.recover();
      if (recovered.requeued || recovered.failed) log.info('recovered jobs', recovered);
      const sealed = await webhooks.sealSecrets();
      if (sealed) log.info('webhook secrets sealed with the current key', { webhooks: sealed });
      // A worker node serves no HTTP (runtime.ts may open a health port for it).
      if (config.role !== 'worker') await server.start();
      webhooks.start(deps.webhookPollMs ?? 5000);
    },
    async stop() {
      jobs.stop();
      await queue.stop();
      await webhooks.stop();
      await server.stop({ timeout: 5000 });
      loop.disable();
      await store.flush();
      await pool.close();
    },
  };
}
