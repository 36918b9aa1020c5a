/** What every plugin is handed: config, the adapters and the services. */
import type { Request } from '@hapi/hapi';
import type { Config } from './config.js';
import type { Store } from './adapters/store.js';
import type { Blobs } from './adapters/blobs.js';
import type { Clock } from './adapters/clock.js';
import type { DiskProbe } from './adapters/disk.js';
import type { EnginePool } from './adapters/engine.js';
import type { EventBus } from './events.js';
import type { Logger } from './log.js';
import type { AccountService } from './services/accounts.js';
import type { KeyService } from './services/keys.js';
import type { JobService } from './services/jobs.js';
import type { FolderService } from './services/folders.js';
import type { IdempotencyService } from './services/idempotency.js';
import type { ReportService } from './services/reports.js';
import type { RetentionService } from './services/retention.js';
import type { SubmissionService } from './services/submissions.js';
import type { RenderService } from './services/renders.js';
import type { WebhookService } from './services/webhooks.js';

export interface Services {
  accounts: AccountService;
  keys: KeyService;
  jobs: JobService;
  folders: FolderService;
  idempotency: IdempotencyService;
  reports: ReportService;
  retention: RetentionService;
  submissions: SubmissionService;
  renders: RenderService;
  webhooks: WebhookService;
}

export interface ClassifierInfo {
  provider: string;
  [field: string]: unknown;
}

export interface AppContext {
  config: Readonly<Config>;
  store: Store;
  blobs: Blobs;
  clock: Clock;
  disk: DiskProbe;
  pool: EnginePool;
  events: EventBus;
  log: Logger;
  services: Services;
  version: string;
  /** Admin token (loopback-only admin API); null disables the admin routes. */
  adminToken: string | null;
  classifier(): Promise<ClassifierInfo>;
  /** Max event-loop delay (ms) observed since the last reset; for the bench and admin stats. */
  eventLoop(): { max_ms: number; p99_ms: number; mean_ms: number; reset(): void };
  /** The base of download_url: VECTORIZE_PUBLIC_URL, else the address the client used. */
  baseUrl(request: Request): string;
}
