import { useCallback } from 'react';
import type { AdminReport } from '../../client/admin.js';
import { useAdmin } from './use-admin.js';
import { usePolling, type Polled } from './use-polling.js';
import { LISTS_POLL_MS } from './poll-intervals.js';

export function useReports(): Polled<AdminReport[]> {
  const admin = useAdmin();
  return usePolling(
    useCallback(() => admin.listReports(), [admin]),
    { intervalMs: LISTS_POLL_MS },
  );
}
