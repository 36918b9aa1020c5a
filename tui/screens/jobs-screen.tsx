import { Box, Text, useInput } from 'ink';
import { useContext, useState } from 'react';
import { JOB_STATUSES, type AdminJob, type JobStatus } from '../../client/admin.js';
import { Confirm } from '../components/confirm.js';
import { LoadError } from '../components/load-error.js';
import { NoticeLine } from '../components/notice-line.js';
import { Table, type Column } from '../components/table.js';
import { BodyAreaContext } from '../context.js';
import { formatDateTime, progressBar } from '../format.js';
import { useAccountNames } from '../hooks/use-accounts.js';
import { useAdmin } from '../hooks/use-admin.js';
import { useJobs } from '../hooks/use-jobs.js';
import { useListCursor } from '../hooks/use-list-cursor.js';
import { useNotice } from '../hooks/use-notice.js';
import { useScreenKeys } from '../hooks/use-screen-keys.js';
import { JOBS_POLL_MS } from '../hooks/poll-intervals.js';
import { STATUS_HUE } from '../theme.js';

const FILTERS: (JobStatus | undefined)[] = [undefined, ...JOB_STATUSES];
const BAR_WIDTH = 10;

const COLUMNS: Column[] = [
  { title: 'Job', width: 24 },
  { title: 'Account', width: 12 },
  { title: 'State', width: 10 },
  { title: 'Pos', width: 4, align: 'right' },
  { title: 'Progress', width: BAR_WIDTH + 5 },
  { title: 'Mode / error', width: 10, flex: true },
  { title: 'File', width: 12, optional: true },
  { title: 'Created', width: 16, optional: true },
  { title: 'MP', width: 6, align: 'right', optional: true },
];

/** What DELETE /v1/jobs/{id} and the admin cancel do to the allowance (docs/api.md and the page's help say the same). */
const CANCEL_RULE = 'A queued job gets its conversion back; a processing job is stopped at once and its conversion stays spent.';

const isActive = (job: AdminJob): boolean => job.status === 'queued' || job.status === 'processing';

/** Running jobs first, then the queue in the order it will run, then everything finished. */
function queueOrder(a: AdminJob, b: AdminJob): number {
  const rank = (job: AdminJob): number => (job.status === 'processing' ? 0 : job.status === 'queued' ? 1 : 2);
  return (
    rank(a) - rank(b) ||
    (a.queue_position ?? 0) - (b.queue_position ?? 0) ||
    (rank(a) === 2 ? b.created_at.localeCompare(a.created_at) : a.created_at.localeCompare(b.created_at))
  );
}

export function JobsScreen(): React.JSX.Element {
  const admin = useAdmin();
  const area = useContext(BodyAreaContext);
  const [filter, setFilter] = useState(0);
  const status = FILTERS[filter];
  const jobs = useJobs(status);
  const names = useAccountNames();
  const list = [...(jobs.data ?? [])].sort(queueOrder);
  const [confirming, setConfirming] = useState<AdminJob | undefined>();
  const [cursor] = useListCursor(list.length, { isActive: !confirming });
  const { notice, setNotice, act } = useNotice();
  const selected = list[cursor];

  useScreenKeys(
    [
      { keys: '↑↓/jk', label: 'move' },
      { keys: 'f', label: `filter: ${status ?? 'all'}` },
      { keys: 'c', label: 'cancel job' },
    ],
    { active: !confirming },
  );

  useInput(
    (input) => {
      if (input === 'f') setFilter((value) => (value + 1) % FILTERS.length);
      else if (input === 'c' && selected) {
        if (isActive(selected)) setConfirming(selected);
        else setNotice({ tone: 'error', text: `${selected.id} is ${selected.status}; only queued or processing jobs can be canceled.` });
      }
    },
    { isActive: !confirming },
  );

  if (jobs.error) return <LoadError error={jobs.error} onRetry={jobs.refresh} />;

  const counts = JOB_STATUSES.map((state) => [state, list.filter((job) => job.status === state).length] as const).filter(
    ([, count]) => count > 0,
  );
  const summary = `${status ? `${status} jobs` : 'All jobs'} · ${list.length} shown${
    counts.length > 0 && !status ? ` (${counts.map(([state, count]) => `${count} ${state}`).join(', ')})` : ''
  } · live, every ${JOBS_POLL_MS / 1000} s`;

  return (
    <Box flexDirection="column">
      <Text dimColor wrap="truncate-end">
        {summary}
      </Text>
      {confirming ? (
        <Confirm
          question={`Cancel ${confirming.id} (${confirming.status}) of ${names.get(confirming.account_id) ?? confirming.account_id}?`}
          detail={CANCEL_RULE}
          onCancel={() => setConfirming(undefined)}
          onConfirm={() => {
            const job = confirming;
            setConfirming(undefined);
            void act(
              () => admin.cancelJob(job.id),
              // The job may have ended between the confirmation and the call; say what it is now.
              (after) =>
                after.status === 'canceled' ? `Canceled ${job.id}.` : `${job.id} had already ended: ${after.status}; nothing to cancel.`,
            ).then(() => jobs.refresh());
          }}
        />
      ) : (
        <Table
          columns={COLUMNS}
          cursor={cursor}
          width={area.width}
          height={area.height - 2}
          empty={jobs.loading ? 'Loading jobs…' : status ? `No ${status} jobs.` : 'The queue is empty.'}
          rows={list.map((job) => ({
            key: job.id,
            hue: STATUS_HUE[job.status],
            dim: job.status === 'canceled' || job.status === 'expired',
            cells: [
              job.id,
              names.get(job.account_id) ?? job.account_id,
              job.status,
              job.status === 'queued' && job.queue_position !== undefined ? String(job.queue_position) : '',
              // A failed or canceled job's progress says nothing; its error code does.
              isActive(job) || job.status === 'completed'
                ? `${progressBar(job.progress, BAR_WIDTH)} ${String(Math.round(job.progress)).padStart(3)}%`
                : '',
              job.error ? job.error.code : (job.mode ?? ''),
              job.file_name ?? '',
              formatDateTime(job.created_at),
              job.megapixels !== undefined ? job.megapixels.toFixed(1) : '',
            ],
          }))}
        />
      )}
      <NoticeLine notice={notice} />
    </Box>
  );
}
