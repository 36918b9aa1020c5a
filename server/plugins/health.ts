/**
 * GET /healthz (alive: open, cheap, for load balancers and the TUI) and GET /readyz (ready to take
 * traffic: the records and the data dir answer). A load balancer keeps a node that is alive but
 * not ready out of rotation without restarting it.
 */
import type { Plugin } from '@hapi/hapi';
import Joi from 'joi';
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppContext } from '../context.js';
import { VectorizeError } from '../http-errors.js';
import { responses } from '../schemas.js';

const optionsSchema = Joi.object({ app: Joi.object().required() });

/**
 * A check that has not answered by then counts as failed: a hung NFS mount or a database behind a
 * dropped connection would otherwise hold the probe until the load balancer's own timeout.
 */
export const READY_CHECK_TIMEOUT_MS = 2000;

interface CheckResult {
  ok: boolean;
  ms: number;
  error?: string;
}

async function timed(check: () => Promise<void>): Promise<CheckResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${READY_CHECK_TIMEOUT_MS} ms`)), READY_CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { ok: false, ms: Math.round(performance.now() - started), error: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

/** The data dir takes a write (the blobs' own temp dir, so a crash leaves nothing the sweeper misses). */
async function storageWritable(app: AppContext): Promise<void> {
  const probe = join(app.blobs.tmpDir, `readyz-${randomUUID()}`);
  try {
    await writeFile(probe, 'ready');
  } finally {
    await rm(probe, { force: true });
  }
}

const CheckSchema = Joi.object({ ok: Joi.boolean(), ms: Joi.number(), error: Joi.string() }).label('ReadyCheck');

export const healthPlugin: Plugin<{ app: AppContext }> = {
  name: 'health',
  register(server, options) {
    Joi.assert(options, optionsSchema);
    const { app } = options;
    server.route({
      method: 'GET',
      path: '/healthz',
      options: {
        auth: false,
        tags: ['api', 'health'],
        description: 'Liveness and load: version, workers, queue, classifier provider, free storage',
        plugins: {
          'hapi-swagger': {
            responses: {
              200: {
                description: 'Healthy',
                schema: Joi.object({
                  status: Joi.string(),
                  version: Joi.string(),
                  workers: Joi.number(),
                  queue_length: Joi.number(),
                  processing: Joi.number(),
                  classifier: Joi.object().unknown(true),
                  storage: Joi.object({
                    free_bytes: Joi.number(),
                    min_free_bytes: Joi.number(),
                    low: Joi.boolean().description('true: uploads are refused with 503 storage_full until space is freed'),
                  }).label('Storage'),
                }).label('Health'),
              },
            },
          },
        },
      },
      async handler() {
        const freeBytes = await app.disk.freeBytes(app.blobs.root);
        const low = freeBytes < app.config.minFreeBytes;
        return {
          // Still 200: the process is alive and serves downloads and polls; only uploads wait.
          status: low ? 'low_storage' : 'ok',
          version: app.version,
          workers: app.pool.size,
          queue_length: await app.services.jobs.waitingCount(),
          processing: app.services.jobs.processingCount,
          classifier: await app.classifier(),
          storage: { free_bytes: freeBytes, min_free_bytes: app.config.minFreeBytes, low },
        };
      },
    });
    server.route({
      method: 'GET',
      path: '/readyz',
      options: {
        auth: false,
        tags: ['api', 'health'],
        description: 'Readiness: the records (PostgreSQL, when configured) and the data dir answer within 2 s',
        plugins: {
          'hapi-swagger': {
            responses: responses(
              {
                200: {
                  description: 'Ready',
                  schema: Joi.object({
                    status: Joi.string().valid('ready'),
                    checks: Joi.object({ database: CheckSchema, storage: CheckSchema }).label('ReadyChecks'),
                  }).label('Ready'),
                },
              },
              ['unavailable'],
            ),
          },
        },
      },
      async handler() {
        const [database, storage] = await Promise.all([timed(() => app.store.ping()), timed(() => storageWritable(app))]);
        const checks = { database, storage };
        const failing = Object.entries(checks).filter(([, result]) => !result.ok);
        if (failing.length > 0) {
          const reasons = failing.map(([name, result]) => `${name}: ${result.error}`).join('; ');
          throw new VectorizeError('unavailable', `Not ready: ${reasons}.`, { checks });
        }
        return { status: 'ready', checks };
      },
    });
  },
};
