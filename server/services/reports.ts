/** Reports: a client flags a job's result (a bad trace); admins read them in the TUI. */
import { VectorizeError } from '../http-errors.js';
import type { JobRecord, ReportRecord, Store } from '../adapters/store.js';
import type { Clock } from '../adapters/clock.js';
import { newId } from '../ids.js';

export const REPORT_REASONS = ['bad_result', 'wrong_mode', 'missing_detail', 'artifacts', 'other'] as const;

export function reportService(deps: { store: Store; clock: Clock }) {
  const { store, clock } = deps;
  return {
    create(job: JobRecord, reason: string, message: string): ReportRecord {
      if (!reason.trim()) throw new VectorizeError('invalid_parameter', 'reason is required.', { field: 'reason' });
      return store.reports.insert({
        id: newId('rpt'),
        account_id: job.account_id,
        job_id: job.id,
        reason: reason.trim(),
        message,
        created_at: clock.now().toISOString(),
      });
    },
    list(accountId?: string): ReportRecord[] {
      return store.reports
        .filter((r) => accountId === undefined || r.account_id === accountId)
        .sort((a, b) => b.created_at.localeCompare(a.created_at));
    },
    view(report: ReportRecord) {
      return {
        id: report.id,
        job_id: report.job_id,
        account_id: report.account_id,
        reason: report.reason,
        message: report.message,
        created_at: report.created_at,
      };
    },
  };
}

export type ReportService = ReturnType<typeof reportService>;
