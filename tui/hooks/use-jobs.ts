import { useCallback } from 'react';
import type { AdminJob, JobStatus } from '../../client/admin.js';
import { useAdmin } from './use-admin.js';
import { usePolling, type Polled } from './use-polling.js';
import { JOBS_POLL_MS } from './poll-intervals.js';

/** The live queue across accounts, optionally one status only. */
export function useJobs(status: JobStatus | undefined): Polled<AdminJob[]> {
  const admin = useAdmin();
  return usePolling(
    useCallback(() => admin.listJobs({ status }), [admin, status]),
    {
      intervalMs: JOBS_POLL_MS,
      key: status ?? 'all',
    },
  );
}
