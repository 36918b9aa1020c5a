import { useCallback } from 'react';
import type { AdminDelivery, AdminWebhook } from '../../client/admin.js';
import { useAdmin } from './use-admin.js';
import { usePolling, type Polled } from './use-polling.js';
import { DELIVERIES_POLL_MS, LISTS_POLL_MS } from './poll-intervals.js';

export function useWebhooks(): Polled<AdminWebhook[]> {
  const admin = useAdmin();
  return usePolling(
    useCallback(() => admin.listWebhooks(), [admin]),
    { intervalMs: LISTS_POLL_MS },
  );
}

/** Recent deliveries of one endpoint, newest first, with their attempts. */
export function useDeliveries(webhookId: string): Polled<AdminDelivery[]> {
  const admin = useAdmin();
  return usePolling(
    useCallback(() => admin.listDeliveries(webhookId), [admin, webhookId]),
    {
      intervalMs: DELIVERIES_POLL_MS,
      key: webhookId,
    },
  );
}
