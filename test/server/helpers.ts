/**
 * Test harness for the server: a real app (real store, blobs, probe, routes) with a fake engine
 * pool the test drives by hand and a manual clock. Nothing here waits on wall time.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';

import sharp from 'sharp';
import { createApp, type App } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { openLowdbStore } from '../../server/adapters/lowdb-store.js';
import { openPostgresStore } from '../../server/adapters/postgres-store.js';
import { TEST_STORE, testPostgres } from './postgres.js';
import { ManualClock } from '../../server/adapters/clock.js';
import { engineProber, type EngineOutcome, type EnginePool, type EngineProgress, type EngineTask } from '../../server/adapters/engine.js';
import type { DiskProbe } from '../../server/adapters/disk.js';
import { diskBlobs, type Blobs } from '../../server/adapters/blobs.js';
import { VectorizeError } from '../../engine/errors.js';
import type { PlanName } from '../../server/plans.js';
import type { KeyScope, Store } from '../../server/adapters/store.js';
import type { JobQueue } from '../../server/adapters/job-queue.js';
import type { Logger } from '../../server/log.js';
import { handMadePng } from '../engine/helpers/hand-made-png.js';

interface FakeRun {
  task: EngineTask;
  onProgress: (p: EngineProgress) => void;
  resolve: (o: EngineOutcome) => void;
  reject: (e: Error) => void;
}

/** An engine pool whose jobs finish only when the test says so. */
class FakePool implements EnginePool {
  readonly runs = new Map<string, FakeRun>();
  readonly canceled: string[] = [];
  readonly started: string[] = [];
  closed = false;
  constructor(
    readonly size = 2,
    public autoComplete = false,
  ) {}

  run(task: EngineTask, onProgress: (p: EngineProgress) => void) {
    let entry!: FakeRun;
    const done = new Promise<EngineOutcome>((resolve, reject) => {
      entry = { task, onProgress, resolve, reject };
    });
    this.runs.set(task.jobId, entry);
    this.started.push(task.jobId);
    if (this.autoComplete) queueMicrotask(() => this.complete(task.jobId));
    return {
      done,
      cancel: () => {
        if (!this.runs.has(task.jobId)) return;
        this.runs.delete(task.jobId);
        this.canceled.push(task.jobId);
        entry.reject(new VectorizeError('canceled', 'canceled'));
      },
    };
  }

  get active(): string[] {
    return [...this.runs.keys()];
  }

  /**
   * Writes the SVG where the real worker would, and the geometry (a trace keeps a stand-in one; a
   * render keeps the one it read, as the real worker does), and reports success.
   */
  complete(jobId: string, svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>') {
    const run = this.runs.get(jobId);
    if (!run) throw new Error(`no running job ${jobId}`);
    this.runs.delete(jobId);
    mkdirSync(dirname(run.task.outputPath), { recursive: true });
    if (run.task.documentPath) {
      const document = run.task.kind === 'render' ? readFileSync(run.task.inputPath, 'utf8') : JSON.stringify({ traced: jobId });
      writeFileSync(run.task.documentPath, document);
    }
    writeFileSync(run.task.outputPath, svg);
    run.resolve({
      mode: 'clipart',
      width: 4,
      height: 4,
      megapixels: 16e-6,
      format: 'png',
      bytes: svg.length,
      stats: { bytes: svg.length, paths: 1, nodes: 4, ms: {} },
    });
  }

  fail(jobId: string, code = 'unreadable_file') {
    const run = this.runs.get(jobId);
    if (!run) throw new Error(`no running job ${jobId}`);
    this.runs.delete(jobId);
    run.reject(new VectorizeError(code as 'unreadable_file', 'engine failed'));
  }

  progress(jobId: string, fraction: number) {
    this.runs.get(jobId)?.onProgress({ stage: 'segment', fraction });
  }

  async close() {
    this.closed = true;
  }
}

class FakeDisk implements DiskProbe {
  free = 100 * 1024 ** 3;
  async freeBytes() {
    return this.free;
  }
}

/** Lets setImmediate/microtask chains (queue pump, completion) run. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
}

export async function pngBytes(width = 4, height = 4, rgb: [number, number, number] = [200, 30, 30]): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .png()
    .toBuffer();
}

/** A PNG whose header claims width×height; the pixel data is one row (probe reads headers only). */
export function hugePngHeader(width: number, height: number): Buffer {
  return handMadePng(width, height, 0, Buffer.alloc(width + 1));
}

interface FormFile {
  name?: string;
  filename?: string;
  data: Buffer;
  contentType?: string;
}

export function multipart(
  fields: Record<string, string | string[]>,
  file?: FormFile,
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----vectorize${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${v}\r\n`));
    }
  }
  if (file) {
    const disposition = `form-data; name="${file.name ?? 'file'}"; filename="${file.filename ?? 'image.png'}"`;
    const type = file.contentType ?? 'application/octet-stream';
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\nContent-Type: ${type}\r\n\r\n`));
    parts.push(file.data);
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export interface Harness {
  app: App;
  pool: FakePool;
  clock: ManualClock;
  disk: FakeDisk;
  dir: string;
  png: Buffer;
  account(plan?: PlanName, scope?: KeyScope): Promise<{ id: string; secret: string }>;
  submit(
    secret: string,
    fields?: Record<string, string | string[]>,
    file?: Partial<FormFile> | null,
    headers?: Record<string, string>,
  ): Promise<import('@hapi/hapi').ServerInjectResponse>;
  /** POST /v1/jobs/{id}/render with the fields as a multipart form. */
  render(
    secret: string,
    jobId: string,
    fields?: Record<string, string | string[]>,
    headers?: Record<string, string>,
  ): Promise<import('@hapi/hapi').ServerInjectResponse>;
  get(secret: string | null, url: string): Promise<import('@hapi/hapi').ServerInjectResponse>;
  del(secret: string, url: string): Promise<import('@hapi/hapi').ServerInjectResponse>;
  json<T = Record<string, unknown>>(response: { payload: string }): T;
  /** Holds every probe (the step between reading the upload and accepting it) until released. */
  holdProbes(): () => void;
  close(): Promise<void>;
}

/** A fresh directory under the OS temp dir, named `vectorize-<label>-…`, removed when the test ends. */
export function tempDir(t: { teardown(fn: () => unknown): void }, label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `vectorize-${label}-`));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes a VECTORIZE_PLANS_FILE into a fresh temp dir and returns its path. */
export function plansFile(overrides: Record<string, Record<string, unknown>>): string {
  const dir = mkdtempSync(join(tmpdir(), 'vectorize-plans-'));
  const path = join(dir, 'plans.json');
  writeFileSync(path, JSON.stringify(overrides));
  return path;
}

export function errorOf(response: { payload: string }): { code: string; message: string; details: Record<string, unknown> } {
  return (JSON.parse(response.payload) as { error: { code: string; message: string; details: Record<string, unknown> } }).error;
}

export async function harness(
  t: { teardown(fn: () => unknown): void },
  options: {
    env?: Record<string, string>;
    workers?: number;
    autoComplete?: boolean;
    adminToken?: string;
    log?: Logger;
    dataDir?: string;
    disk?: DiskProbe;
    databaseUrl?: string;
    /** Wraps the real disk blobs (e.g. to slow one call down). */
    blobs?: (real: Blobs) => Blobs;
    /** The job queue over the harness's store (default: the app's own choice, the embedded queue). */
    queue?: (store: Store) => JobQueue;
  } = {},
): Promise<Harness> {
  const dir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'vectorize-server-'));
  const config = loadConfig({
    VECTORIZE_DATA_DIR: dir,
    VECTORIZE_WORKERS: String(options.workers ?? 2),
    VECTORIZE_LOG_LEVEL: 'silent',
    ...options.env,
  });
  // VECTORIZE_TEST_STORE=postgres: the same tests on a fresh database of a throwaway PostgreSQL.
  // databaseUrl: a second node on another harness's database.
  const store =
    TEST_STORE === 'postgres' || options.databaseUrl
      ? await openPostgresStore(options.databaseUrl ?? (await testPostgres().database()), { writeDelayMs: 1 })
      : await openLowdbStore(join(dir, 'db.json'), { writeDelayMs: 1 });
  const pool = new FakePool(config.workers, options.autoComplete ?? false);
  const clock = new ManualClock();
  const disk = new FakeDisk();
  const realProber = await engineProber();
  let gate: Promise<void> | null = null;
  const prober = {
    async probe(bytes: Uint8Array) {
      if (gate) await gate;
      return realProber.probe(bytes);
    },
  };
  const app = await createApp({
    config,
    store,
    pool,
    prober,
    clock,
    disk: options.disk ?? disk,
    blobs: options.blobs?.(diskBlobs(dir)),
    queue: options.queue?.(store),
    adminToken: options.adminToken ?? null,
    log: options.log,
    classifier: async () => ({ provider: 'fake' }),
  });
  // initialize() runs the onPreStart steps (hapi-swagger's UI routes) without listening.
  await app.server.initialize();
  app.services.jobs.recover();
  const png = await pngBytes();
  let closed = false;
  const h: Harness = {
    app,
    pool,
    clock,
    disk,
    dir,
    png,
    async account(plan = 'pro', scope = 'api') {
      const account = app.services.accounts.create(`acct-${plan}`, plan);
      const { secret } = app.services.keys.create(account, { scope });
      return { id: account.id, secret };
    },
    async submit(secret, fields = {}, file, headers = {}) {
      const form = multipart(fields, file === null ? undefined : { data: png, ...(file ?? {}) });
      return app.server.inject({
        method: 'POST',
        url: '/v1/vectorize',
        payload: form.payload,
        headers: { ...form.headers, authorization: `Bearer ${secret}`, ...headers },
      });
    },
    render(secret, jobId, fields = {}, headers = {}) {
      const form = multipart(fields);
      return app.server.inject({
        method: 'POST',
        url: `/v1/jobs/${jobId}/render`,
        payload: form.payload,
        headers: { ...form.headers, authorization: `Bearer ${secret}`, ...headers },
      });
    },
    get(secret, url) {
      return app.server.inject({ method: 'GET', url, headers: secret ? { authorization: `Bearer ${secret}` } : {} });
    },
    del(secret, url) {
      return app.server.inject({ method: 'DELETE', url, headers: { authorization: `Bearer ${secret}` } });
    },
    json<T>(response: { payload: string }) {
      return JSON.parse(response.payload) as T;
    },
    holdProbes() {
      let release!: () => void;
      gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      return () => {
        gate = null;
        release();
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      await app.stop();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  t.teardown(() => h.close());
  return h;
}

/** Polls `probe` until it gives a value (errors count as "not yet"), for real processes that take their time. */
export async function until<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits (up to 5 s) until the condition holds: file-system steps are not bound to ticks. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what = 'condition'): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export function statusOf(h: Harness, jobId: string): string | undefined {
  return h.app.context.store.jobs.get(jobId)?.status;
}
