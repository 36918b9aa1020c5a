import { useCallback } from 'react';
import type { AdminPlans } from '../../client/admin.js';
import { useAdmin } from './use-admin.js';
import { usePolling, type Polled } from './use-polling.js';
import { LISTS_POLL_MS } from './poll-intervals.js';

/** The plans as the server is configured; polled like the lists, so a restart with a new plans file shows. */
export function usePlans(): Polled<AdminPlans> {
  const admin = useAdmin();
  return usePolling(
    useCallback(() => admin.listPlans(), [admin]),
    { intervalMs: LISTS_POLL_MS },
  );
}
