/**
 * "Report a bad result": the selected job goes to `POST /v1/jobs/{id}/report` with a reason and
 * an optional note, for the server's admins (they read reports in the TUI). It owns the Report
 * button, and remembers which jobs this page already reported so one result is not sent twice.
 */
import type { V1Client } from '../../client/v1.js';
import { $, type Notices } from './dom.js';
import { describeError, toPlainError } from './errors.js';
import type { QueueItem } from './queue.js';

/** A job that ended can be reported; a refusal before any job existed has nothing on the server to point at. */
export function canReport(item: QueueItem | undefined): item is QueueItem & { jobId: string } {
  return Boolean(item?.jobId) && (item!.state === 'completed' || item!.state === 'failed');
}

export class ReportDialog {
  private readonly client: Pick<V1Client, 'reportJob'>;
  private readonly notices: Notices;
  private readonly reported = new Set<string>();
  private readonly dialog = $<HTMLDialogElement>('report-dialog');
  private readonly button = $<HTMLButtonElement>('report');
  private current: (QueueItem & { jobId: string }) | undefined;
  private shown: QueueItem | undefined;

  constructor(options: { client: Pick<V1Client, 'reportJob'>; notices: Notices }) {
    this.client = options.client;
    this.notices = options.notices;
    this.button.addEventListener('click', () => this.open());
    $('report-form').addEventListener('submit', (event) => {
      if ((event.submitter as HTMLButtonElement | null)?.value !== 'send') return;
      event.preventDefault();
      void this.send();
    });
  }

  /** Called whenever the selected item or its state changes. */
  update(item: QueueItem | undefined): void {
    this.shown = item;
    const done = canReport(item) && this.reported.has(item.jobId);
    this.button.disabled = !canReport(item) || done;
    this.button.textContent = done ? 'Reported' : 'Report a bad result…';
  }

  private open(): void {
    const item = this.shown;
    if (!canReport(item) || this.reported.has(item.jobId)) return;
    this.current = item;
    $('report-subject').textContent = `${item.path}${item.mode ? ` · traced as ${item.mode}` : ''}`;
    $<HTMLSelectElement>('report-reason').value = item.state === 'failed' ? 'other' : 'bad_result';
    $<HTMLTextAreaElement>('report-message').value = '';
    $('report-error').textContent = '';
    this.dialog.showModal();
  }

  private async send(): Promise<void> {
    const item = this.current;
    if (!item) return;
    const sendButton = $<HTMLButtonElement>('report-send');
    sendButton.disabled = true;
    try {
      await this.client.reportJob(item.jobId, {
        reason: $<HTMLSelectElement>('report-reason').value,
        message: $<HTMLTextAreaElement>('report-message').value.trim(),
      });
      this.reported.add(item.jobId);
      this.dialog.close();
      this.notices.toast(`Reported ${item.name}. Thank you: the admins see it with the job.`);
      this.update(this.shown);
    } catch (error) {
      $('report-error').textContent = describeError(toPlainError(error));
    } finally {
      sendButton.disabled = false;
    }
  }
}
