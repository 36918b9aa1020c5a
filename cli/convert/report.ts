/**
 * What a batch conversion prints. On a terminal: one progress line redrawn in place (count, rate,
 * time left, failures so far), each failure printed above it as it happens. Anywhere else (a pipe,
 * a file, CI): one plain line per file, nothing redrawn. Both end with the same summary line.
 */
import type { Outcome } from './batch.js';
import type { Missing, PlannedImage, Skipped } from './inputs.js';

interface BatchTotals {
  converted: number;
  skipped: Skipped[];
  failures: Array<{ label: string; code: string }>;
}

const SKIP_WORDS: Record<Skipped['reason'], string> = {
  not_an_image: 'not an image',
  exists: 'exists',
};

/** How often the terminal line is redrawn while no file finishes (the rate and time left move). */
const REDRAW_MS = 250;
const BAR_WIDTH = 24;

export class BatchReport {
  readonly totals: BatchTotals = { converted: 0, skipped: [], failures: [] };
  private done = 0;
  private total = 0;
  private started = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly tty: boolean,
  ) {}

  start(total: number, skipped: Skipped[], missing: Missing[]): void {
    this.total = total;
    this.started = performance.now();
    for (const entry of missing) this.fail(entry.label, 'missing_file', entry.message);
    for (const entry of skipped) {
      this.totals.skipped.push(entry);
      if (!this.tty)
        this.out.write(
          `skipped ${entry.label}: ${entry.reason === 'exists' ? `${entry.output} exists (--force overwrites it)` : 'not an image'}\n`,
        );
    }
    if (this.tty && total > 0) {
      this.draw();
      this.timer = setInterval(() => this.draw(), REDRAW_MS);
      this.timer.unref();
    }
  }

  result(image: PlannedImage, outcome: Outcome): void {
    this.done++;
    if (outcome.status === 'failed') {
      this.fail(image.label, outcome.code, outcome.message);
    } else {
      this.totals.converted++;
      if (!this.tty) this.out.write(`converted ${image.label} -> ${image.output} (${Math.round(outcome.ms)} ms, ${outcome.bytes} bytes)\n`);
    }
    if (this.tty) this.draw();
  }

  /** Prints the summary line; returns the exit code (0 only when nothing failed). */
  finish(): number {
    if (this.timer) clearInterval(this.timer);
    if (this.tty && this.total > 0) this.out.write('\r\u001b[K');
    const { converted, skipped, failures } = this.totals;
    const seconds = (performance.now() - this.started) / 1000;
    const parts = [
      `converted ${converted}`,
      `skipped ${skipped.length}${countsOf(skipped.map((s) => SKIP_WORDS[s.reason]))}`,
      `failed ${failures.length}${countsOf(failures.map((f) => f.code))}`,
    ];
    this.out.write(`${parts.join(', ')} in ${seconds.toFixed(1)} s\n`);
    return failures.length === 0 ? 0 : 1;
  }

  private fail(label: string, code: string, message: string): void {
    this.totals.failures.push({ label, code });
    const line = `failed ${label}: ${message.replace(/\s*\n\s*/g, ' ')} (${code})\n`;
    this.out.write(this.tty ? `\r\u001b[K${line}` : line);
  }

  private draw(): void {
    const elapsed = (performance.now() - this.started) / 1000;
    const rate = elapsed > 0 ? this.done / elapsed : 0;
    const left = rate > 0 ? (this.total - this.done) / rate : NaN;
    const filled = this.total ? Math.round((BAR_WIDTH * this.done) / this.total) : 0;
    const failed = this.totals.failures.length;
    const bar = `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}]`;
    const eta = Number.isFinite(left) ? `${clock(left)} left` : '--:-- left';
    const line = `${bar} ${this.done}/${this.total}  ${rate.toFixed(1)}/s  ${eta}${failed ? `  ${failed} failed` : ''}`;
    this.out.write(`\r\u001b[K${line}`);
  }
}

/** " (not an image 3, exists 1)" from a list of reasons; "" when the list is empty. */
function countsOf(reasons: string[]): string {
  if (reasons.length === 0) return '';
  const counts = new Map<string, number>();
  for (const reason of reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return ` (${[...counts].map(([reason, n]) => `${reason} ${n}`).join(', ')})`;
}

function clock(seconds: number): string {
  const s = Math.ceil(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
