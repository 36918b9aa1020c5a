/**
 * The conversion queue behind the file list: submits each file to `/v1/vectorize`, follows the job
 * (queue position, progress), downloads the SVG and keeps the result for the compare view. No DOM
 * here, so tests drive it with a fake client.
 */
import type { Job, V1Client, VectorizeFields } from '../../client/v1.js';
import { toPlainError, plainWords, type PlainError } from './errors.js';
import type { PickedFile } from './files.js';
import { svgStats, type SvgStats } from './svg-stats.js';

export type ItemState = 'waiting' | 'uploading' | 'queued' | 'processing' | 'completed' | 'failed' | 'canceled';

export interface Settings {
  image_type: NonNullable<VectorizeFields['image_type']>;
  detail: 'low' | 'medium' | 'high';
  smoothing: 'off' | 'light' | 'strong' | 'maximum';
  gradients: NonNullable<VectorizeFields['gradients']>;
  trace_style: NonNullable<VectorizeFields['trace_style']>;
  close_seams: boolean;
}

/** The contract's defaults, so a fresh front end asks for exactly what the API would do unasked. */
export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  image_type: 'auto',
  detail: 'high',
  smoothing: 'strong',
  gradients: 'smooth',
  trace_style: 'fill',
  close_seams: true,
});

export interface QueueItem {
  readonly id: string;
  readonly name: string;
  readonly path: string;
  readonly file: Blob;
  state: ItemState;
  /** 0–100 as the server reports it. */
  progress: number;
  /** Place in line: the server's `queue_position` once queued there, the local line before that. */
  queuePosition?: number;
  jobId?: string;
  mode?: string;
  error?: PlainError;
  svg?: string;
  stats?: SvgStats;
  /** The settings of the run that produced (or is producing) this item's result. */
  settings: Settings;
  runs: number;
}

type QueueClient = Pick<V1Client, 'vectorize' | 'waitForJob' | 'downloadSvg' | 'deleteJob'>;

export interface QueueOptions {
  /**
   * Jobs this page keeps on the server at once. Two matches the trial's active-job limit
   * (decisions.md §2), so a dropped folder waits here instead of collecting 429s.
   */
  maxActive?: number;
  /** Wait before retrying a submission the server turned away for load (429/503). */
  retryDelayMs?: number;
  onChange?: (item: QueueItem) => void;
  /** Called when the server answered with something that changes the account (a conversion spent). */
  onSpent?: () => void;
  sleep?: (ms: number) => Promise<void>;
}

/** Codes that mean "not now" rather than "not this file": the item goes back in line. */
const RETRYABLE = new Set(['too_many_active_jobs', 'queue_full', 'request_in_progress']);

let counter = 0;
function localId(): string {
  counter += 1;
  return `item-${Date.now().toString(36)}-${counter}`;
}

export class ConversionQueue {
  readonly items: QueueItem[] = [];
  private readonly client: QueueClient;
  private readonly options: Required<Omit<QueueOptions, 'onChange' | 'onSpent' | 'maxActive'>> & Pick<QueueOptions, 'onChange' | 'onSpent'>;
  private readonly running = new Map<string, AbortController>();
  /** Raised or lowered once the account's plan is known (its active-job limit). */
  maxActive: number;

  constructor(client: QueueClient, options: QueueOptions = {}) {
    this.client = client;
    this.maxActive = options.maxActive ?? 2;
    this.options = {
      retryDelayMs: options.retryDelayMs ?? 2_000,
      sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
      onChange: options.onChange,
      onSpent: options.onSpent,
    };
  }

  add(files: PickedFile[], settings: Settings): QueueItem[] {
    const added = files.map((picked) => ({
      id: localId(),
      name: picked.name,
      path: picked.path,
      file: picked.file,
      state: 'waiting' as ItemState,
      progress: 0,
      settings: { ...settings },
      runs: 0,
    }));
    this.items.push(...added);
    this.pump();
    return added;
  }

  /** Converts the item again with new settings; a run still in flight is dropped and its job canceled. */
  rerun(item: QueueItem, settings: Settings): void {
    this.stop(item);
    item.settings = { ...settings };
    item.state = 'waiting';
    item.progress = 0;
    item.error = undefined;
    item.queuePosition = undefined;
    this.changed(item);
    this.pump();
  }

  remove(item: QueueItem): void {
    this.stop(item);
    const index = this.items.indexOf(item);
    if (index >= 0) this.items.splice(index, 1);
    this.pump();
  }

  get activeCount(): number {
    return this.running.size;
  }

  private stop(item: QueueItem): void {
    const controller = this.running.get(item.id);
    if (!controller) return;
    controller.abort();
    this.running.delete(item.id);
    // Best effort: a canceled job frees the account's active-job slot on the server too.
    if (item.jobId && (item.state === 'queued' || item.state === 'processing')) {
      this.client.deleteJob(item.jobId).catch(() => undefined);
    }
  }

  private changed(item: QueueItem): void {
    this.options.onChange?.(item);
  }

  /** Local line numbers for items not yet on the server, so every waiting file shows its place. */
  private renumber(): void {
    let position = 0;
    for (const item of this.items) {
      if (item.state !== 'waiting') continue;
      position += 1;
      if (item.queuePosition !== position) {
        item.queuePosition = position;
        this.changed(item);
      }
    }
  }

  private pump(): void {
    this.startWaiting();
    this.renumber();
  }

  private startWaiting(): void {
    for (const item of this.items) {
      if (this.running.size >= this.maxActive) return;
      if (item.state !== 'waiting' || this.running.has(item.id)) continue;
      const controller = new AbortController();
      this.running.set(item.id, controller);
      void this.run(item, controller).finally(() => {
        if (this.running.get(item.id) === controller) this.running.delete(item.id);
        this.pump();
      });
    }
  }

  private async run(item: QueueItem, controller: AbortController): Promise<void> {
    const { signal } = controller;
    const live = (): boolean => !signal.aborted;
    item.state = 'uploading';
    item.progress = 0;
    item.runs += 1;
    item.queuePosition = undefined;
    this.changed(item);
    let job: Job;
    try {
      job = await this.client.vectorize(item.file, item.name, item.settings, { signal });
    } catch (error) {
      if (!live()) return;
      const plain = toPlainError(error);
      if (RETRYABLE.has(plain.code)) {
        item.state = 'waiting';
        item.error = { code: plain.code, words: `${plainWords(plain.code)} Waiting to try again.` };
        this.changed(item);
        await this.options.sleep(this.options.retryDelayMs);
        if (live()) item.error = undefined;
        return;
      }
      return this.fail(item, plain);
    }
    if (!live()) return;
    item.jobId = job.id;
    this.options.onSpent?.();
    this.applyJob(item, job);
    try {
      job = await this.client.waitForJob(job.id, {
        signal,
        onUpdate: (update) => {
          if (live()) this.applyJob(item, update);
        },
      });
      if (!live()) return;
      if (job.status !== 'completed') {
        const code = job.error?.code ?? (job.status === 'canceled' ? 'canceled' : job.status === 'expired' ? 'result_expired' : 'internal_error');
        return this.fail(item, { code, words: plainWords(code, job.error?.details ?? {}) });
      }
      const svg = await this.client.downloadSvg(job.id, signal);
      if (!live()) return;
      item.svg = svg;
      item.stats = svgStats(svg);
      item.mode = job.mode ?? item.mode;
      item.state = 'completed';
      item.progress = 100;
      item.error = undefined;
      this.changed(item);
    } catch (error) {
      if (!live()) return;
      this.fail(item, toPlainError(error));
    }
  }

  private applyJob(item: QueueItem, job: Job): void {
    item.state = job.status === 'queued' ? 'queued' : job.status === 'processing' ? 'processing' : item.state;
    item.progress = job.progress ?? 0;
    item.queuePosition = job.status === 'queued' ? job.queue_position : undefined;
    if (job.mode) item.mode = job.mode;
    this.changed(item);
  }

  private fail(item: QueueItem, error: PlainError): void {
    item.state = error.code === 'canceled' ? 'canceled' : 'failed';
    item.error = error;
    item.queuePosition = undefined;
    this.changed(item);
  }
}

/** One line of state for the list and the live region: "Queued · 2nd in line", "Processing 40 %". */
export function describeState(item: QueueItem): string {
  switch (item.state) {
    case 'waiting':
      return item.error ? item.error.words : `Waiting · #${item.queuePosition ?? 1} in line`;
    case 'uploading':
      return 'Uploading…';
    case 'queued':
      return item.queuePosition ? `Queued · #${item.queuePosition} in line` : 'Queued';
    case 'processing':
      return `Processing ${item.progress} %`;
    case 'completed':
      return 'Done';
    case 'canceled':
      return 'Canceled';
    case 'failed':
      return item.error ? `${item.error.words} (${item.error.code})` : 'Failed';
  }
}
