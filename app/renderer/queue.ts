/**
 * The conversion queue behind the file list: submits each file to `/v1/vectorize`, follows the job
 * (queue position, progress), downloads the SVG and keeps the result for the compare view. No DOM
 * here, so tests drive it with a fake client.
 */
import type { Job, OutputFields, V1Client, VectorizeFields } from '../../client/v1.js';
import { toPlainError, plainWords, type PlainError } from './errors.js';
import { MAX_UPLOAD_BYTES, type PickedFile } from './files.js';
import { svgStats, type SvgStats } from './svg-stats.js';
import { OUTPUT_FIELDS } from '../../engine/options.js';

type ItemState = 'waiting' | 'uploading' | 'queued' | 'processing' | 'completed' | 'failed' | 'canceled';

/** The output controls the form offers (docs/api.md, "Output controls"); absent: the SVG as traced. */
export const OUTPUT_SETTINGS = OUTPUT_FIELDS;
type OutputSettings = Pick<
  OutputFields,
  'max_colors' | 'background' | 'group_by' | 'width' | 'height' | 'unit' | 'dpi' | 'stroke_order'
> & {
  /** Comma-separated #rrggbb, as the form field spells it. */
  palette?: string;
};

export interface Settings extends OutputSettings {
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
  /** The picked file; absent for a job restored from `GET /v1/jobs` after a reload (the page keeps no copy). */
  readonly file?: Blob;
  /** Pixel size from the server, for restored jobs whose original is not in the page. */
  width?: number;
  height?: number;
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
  /** The result a re-run replaced, kept to compare with. */
  previous?: { svg: string; stats: SvgStats; settings: Settings };
  /** The settings `svg` was made with (`settings` already holds a running re-run's). */
  resultSettings?: Settings;
  /** A re-run that changes only the output controls: this completed job's geometry is drawn again, no upload, no conversion. */
  renderOf?: string;
  runs: number;
}

/** Codes that say the file itself cannot be converted: the same bytes re-run would fail the same way. */
const FILE_FAULTS = new Set(['unsupported_format', 'unreadable_file', 'empty_file', 'file_too_large', 'megapixels_exceeded']);

/** A re-render's answers that say the first job can no longer be drawn again. */
const GEOMETRY_GONE = new Set(['result_expired', 'not_found', 'not_ready']);

/** Re-run needs the file in the page and a failure that new settings could change. */
export function canRerun(item: QueueItem): boolean {
  if (!item.file || item.state === 'uploading') return false;
  return !(item.state === 'failed' && item.error && FILE_FAULTS.has(item.error.code));
}

/** Settings from named values (the form, a job's options); a missing one is the contract's default. */
export function settingsFrom(read: (name: keyof Settings) => unknown, closeSeams: boolean): Settings {
  const pick = <K extends keyof Settings>(name: K): Settings[K] => (read(name) ?? DEFAULT_SETTINGS[name]) as Settings[K];
  return {
    image_type: pick('image_type'),
    detail: pick('detail'),
    smoothing: pick('smoothing'),
    gradients: pick('gradients'),
    trace_style: pick('trace_style'),
    close_seams: closeSeams,
    ...outputSettingsFrom(read),
  };
}

/** Values that leave the SVG as traced are left out, so a plain run sends exactly what it did before. */
const AS_TRACED: Readonly<Record<string, string>> = { background: 'keep', group_by: 'none', unit: 'px', dpi: '96', stroke_order: 'none' };
const NUMERIC_OUTPUT = new Set(['max_colors', 'width', 'height', 'dpi']);

function outputSettingsFrom(read: (name: keyof Settings) => unknown): OutputSettings {
  const out: Record<string, string | number> = {};
  for (const name of OUTPUT_SETTINGS) {
    const raw = read(name);
    // A job's view spells an unset control null and the palette as a list.
    const text = Array.isArray(raw) ? raw.join(',') : raw === null || raw === undefined ? '' : String(raw).trim();
    if (text === '' || AS_TRACED[name] === text) continue;
    out[name] = NUMERIC_OUTPUT.has(name) ? Number(text) : name === 'palette' ? text.replace(/\s+/g, '') : text;
  }
  return out as OutputSettings;
}

/** True when `next` differs from `drawn` only in the output controls: the kept geometry can be drawn again. */
export function onlyOutputChanged(drawn: Settings, next: Settings): boolean {
  const traced = (settings: Settings) =>
    JSON.stringify([
      settings.image_type,
      settings.detail,
      settings.smoothing,
      settings.gradients,
      settings.trace_style,
      settings.close_seams,
    ]);
  return traced(drawn) === traced(next);
}

/** Every output control for a re-render, an unset one sent empty: the server keeps nothing of the old drawing's. */
export function renderFieldsOf(settings: Settings): OutputFields {
  const fields: Record<string, string | number> = {};
  for (const name of OUTPUT_SETTINGS) fields[name] = settings[name] ?? '';
  return fields as OutputFields;
}

function settingsOf(job: Job): Settings {
  const options = (job as Job & { options?: Partial<Record<keyof Settings, unknown>> }).options ?? {};
  return settingsFrom((name) => options[name], options.close_seams !== false);
}

type QueueClient = Pick<V1Client, 'vectorize' | 'render' | 'waitForJob' | 'downloadSvg' | 'deleteJob'>;

interface QueueOptions {
  /**
   * Jobs this page keeps on the server at once. Two matches the trial's active-job limit
   * (docs/api.md, "Plans"), so a dropped folder waits here instead of collecting 429s.
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
    const added: QueueItem[] = files.map((picked) => ({
      id: localId(),
      name: picked.name,
      path: picked.path,
      file: picked.file,
      state: 'waiting',
      progress: 0,
      settings: { ...settings },
      runs: 0,
    }));
    for (const item of added) {
      // Refused before a byte is sent: the server would read the whole upload only to answer 413.
      if (item.file!.size > MAX_UPLOAD_BYTES) {
        item.state = 'failed';
        item.error = { code: 'file_too_large', words: plainWords('file_too_large') };
      }
    }
    this.items.push(...added);
    this.pump();
    return added;
  }

  /**
   * Puts jobs this key already submitted back in the list (after a reload): results are downloaded
   * again, running jobs followed. The page kept no copy of their files, so they cannot be re-run.
   * `jobs` newest first, as `GET /v1/jobs` lists them; jobs already in the list are left alone.
   */
  restore(jobs: Job[]): QueueItem[] {
    const known = new Set(this.items.map((item) => item.jobId));
    const restored: QueueItem[] = [];
    for (const job of [...jobs].reverse()) {
      // Canceled and expired jobs have nothing to show; a retention=none result would be deleted by the download.
      if (known.has(job.id) || job.status === 'canceled' || job.status === 'expired' || job.retention === 'none') continue;
      const name = job.file_name || job.id;
      const item: QueueItem = {
        id: localId(),
        name,
        path: name,
        jobId: job.id,
        width: job.width,
        height: job.height,
        state: 'queued',
        progress: 0,
        settings: settingsOf(job),
        runs: 1,
      };
      restored.push(item);
      this.items.push(item);
      this.applyJob(item, job);
      const controller = new AbortController();
      this.running.set(item.id, controller);
      void this.follow(item, job, controller.signal).finally(() => {
        if (this.running.get(item.id) === controller) this.running.delete(item.id);
        this.pump();
      });
    }
    return restored;
  }

  /** Converts the item again with new settings; a run still in flight is dropped and its job canceled. */
  rerun(item: QueueItem, settings: Settings): void {
    if (!canRerun(item)) return;
    this.stop(item);
    const drawn = item.state === 'completed' && item.jobId !== undefined && item.resultSettings !== undefined;
    item.renderOf = drawn && onlyOutputChanged(item.resultSettings!, settings) ? item.jobId : undefined;
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

  /**
   * Line numbers for items not yet on the server: they come after this page's jobs already queued
   * there, so a waiting file never shows the same "#1" as a queued one.
   */
  private renumber(): void {
    let position = 0;
    for (const item of this.items) if (item.state === 'queued') position = Math.max(position, item.queuePosition ?? 0);
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
      job = item.renderOf
        ? await this.client.render(item.renderOf, renderFieldsOf(item.settings), { signal })
        : await this.client.vectorize(item.file!, item.name, item.settings, { signal });
    } catch (error) {
      if (!live()) return;
      const plain = toPlainError(error);
      if (item.renderOf && item.file && GEOMETRY_GONE.has(plain.code)) {
        // The first job's result (and its geometry) is gone: trace the file again instead.
        item.renderOf = undefined;
        item.runs -= 1;
        return this.run(item, controller);
      }
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
    // A re-render charges no conversion; the badge need not be read again.
    if (!item.renderOf) this.options.onSpent?.();
    this.applyJob(item, job);
    await this.follow(item, job, signal);
  }

  /** Polls a job on the server to its end and fetches the SVG of a completed one. */
  private async follow(item: QueueItem, job: Job, signal: AbortSignal): Promise<void> {
    const live = (): boolean => !signal.aborted;
    try {
      if (job.status !== 'completed')
        job = await this.client.waitForJob(job.id, {
          signal,
          onUpdate: (update) => {
            if (live()) this.applyJob(item, update);
          },
        });
      if (!live()) return;
      if (job.status !== 'completed') {
        const code =
          job.error?.code ?? (job.status === 'canceled' ? 'canceled' : job.status === 'expired' ? 'result_expired' : 'internal_error');
        return this.fail(item, { code, words: plainWords(code, job.error?.details ?? {}) });
      }
      const svg = await this.client.downloadSvg(job.id, signal);
      if (!live()) return;
      if (item.svg && item.stats && item.resultSettings && item.svg !== svg) {
        item.previous = { svg: item.svg, stats: item.stats, settings: item.resultSettings };
      }
      item.svg = svg;
      item.resultSettings = { ...item.settings };
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
    this.renumber();
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
