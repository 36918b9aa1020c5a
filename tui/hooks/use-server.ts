import { useCallback } from 'react';
import type { AdminStats } from '../../client/admin.js';
import { useAdmin } from './use-admin.js';
import { usePolling, type Polled } from './use-polling.js';
import { SERVER_POLL_MS } from './poll-intervals.js';

/** Whether the server answers, with its counts for the header. */
export function useServer(): Polled<AdminStats> & { baseUrl: string } {
  const admin = useAdmin();
  const polled = usePolling(
    useCallback(() => admin.stats(), [admin]),
    { intervalMs: SERVER_POLL_MS },
  );
  return { ...polled, baseUrl: admin.baseUrl };
}
