import { Box, Text, useInput } from 'ink';
import { useContext, useState } from 'react';
import type { AdminReport } from '../../client/admin.js';
import { LoadError } from '../components/load-error.js';
import { Table, type Column } from '../components/table.js';
import { BodyAreaContext } from '../context.js';
import { formatDateTime } from '../format.js';
import { useAccountNames } from '../hooks/use-accounts.js';
import { useListCursor } from '../hooks/use-list-cursor.js';
import { useReports } from '../hooks/use-reports.js';
import { LISTS_POLL_MS } from '../hooks/poll-intervals.js';
import { useScreenKeys } from '../hooks/use-screen-keys.js';

const COLUMNS: Column[] = [
  { title: 'Reported', width: 16 },
  { title: 'Account', width: 12 },
  { title: 'Reason', width: 12 },
  { title: 'Message', width: 12, flex: true },
  { title: 'Job', width: 24, optional: true },
];

/** Reports users filed against their results (`POST /v1/jobs/{id}/report`), newest first. */
export function ReportsScreen(): React.JSX.Element {
  const area = useContext(BodyAreaContext);
  const reports = useReports();
  const names = useAccountNames();
  const list = [...(reports.data ?? [])].sort((a, b) => b.created_at.localeCompare(a.created_at));
  const [open, setOpen] = useState<AdminReport | undefined>();
  const [cursor] = useListCursor(list.length, { isActive: !open });
  const selected = list[cursor];

  useScreenKeys(
    open
      ? [{ keys: 'Esc', label: 'back' }]
      : [
          { keys: '↑↓/jk', label: 'move' },
          { keys: 'Enter', label: 'read' },
          { keys: 'r', label: 'refresh' },
        ],
  );
  useInput((input, key) => {
    if (open && key.escape) setOpen(undefined);
    else if (!open && key.return && selected) setOpen(selected);
    else if (!open && input === 'r') reports.refresh();
  });

  if (reports.error) return <LoadError error={reports.error} onRetry={reports.refresh} />;

  if (open) {
    return (
      <Box flexDirection="column" width={area.width}>
        <Text wrap="truncate-end">{`Report  ${open.id}`}</Text>
        <Text wrap="truncate-end">{`Job     ${open.job_id}`}</Text>
        <Text wrap="truncate-end">{`Account ${names.get(open.account_id) ?? open.account_id} (${open.account_id})`}</Text>
        <Text wrap="truncate-end">{`Filed   ${formatDateTime(open.created_at)} UTC`}</Text>
        <Text wrap="truncate-end">{`Reason  ${open.reason}`}</Text>
        <Text> </Text>
        {/* The message is prose: wrapped inside the body's width, and cut to the lines that fit. */}
        <Box height={Math.max(1, area.height - 6)} overflow="hidden">
          <Text wrap="wrap">{open.message || '(no message)'}</Text>
        </Box>
      </Box>
    );
  }

  return (
    <Box flexDirection="column">
      <Text dimColor wrap="truncate-end">
        {`${list.length} report${list.length === 1 ? '' : 's'}, newest first · live, every ${LISTS_POLL_MS / 1000} s`}
      </Text>
      <Table
        columns={COLUMNS}
        cursor={cursor}
        width={area.width}
        height={area.height - 1}
        empty={reports.loading ? 'Loading reports…' : 'No reports. Users file them from a job they are unhappy with.'}
        rows={list.map((report) => ({
          key: report.id,
          cells: [
            formatDateTime(report.created_at),
            names.get(report.account_id) ?? report.account_id,
            report.reason,
            report.message,
            report.job_id,
          ],
        }))}
      />
    </Box>
  );
}
