import { useCallback } from 'react';
import type { AdminAccount } from '../../client/admin.js';
import { useAdmin } from './use-admin.js';
import { usePolling, type Polled } from './use-polling.js';
import { LISTS_POLL_MS } from './poll-intervals.js';

export function useAccounts(): Polled<AdminAccount[]> {
  const admin = useAdmin();
  return usePolling(
    useCallback(() => admin.listAccounts(), [admin]),
    { intervalMs: LISTS_POLL_MS },
  );
}

/** Account names by id, for the screens that list another resource's owner. */
export function useAccountNames(): Map<string, string> {
  const { data } = useAccounts();
  return new Map((data ?? []).map((account) => [account.id, account.name]));
}
