import { useCallback } from 'react';
import type { AdminKey } from '../../client/admin.js';
import { useAdmin } from './use-admin.js';
import { usePolling, type Polled } from './use-polling.js';
import { LISTS_POLL_MS } from './poll-intervals.js';

export function useKeys(): Polled<AdminKey[]> {
  const admin = useAdmin();
  return usePolling(
    useCallback(() => admin.listKeys(), [admin]),
    { intervalMs: LISTS_POLL_MS },
  );
}
