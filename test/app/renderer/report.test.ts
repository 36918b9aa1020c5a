import t from 'tap';
import { canReport } from '../../../app/renderer/report.js';
import { DEFAULT_SETTINGS, type QueueItem } from '../../../app/renderer/queue.js';

const item = (over: Partial<QueueItem>): QueueItem => ({
  id: 'i',
  name: 'a.png',
  path: 'a.png',
  state: 'completed',
  progress: 100,
  settings: { ...DEFAULT_SETTINGS },
  runs: 1,
  ...over,
});

t.test('only a job that ended on the server can be reported', async (t) => {
  t.equal(canReport(undefined), false);
  t.equal(canReport(item({ jobId: 'job_1' })), true);
  t.equal(canReport(item({ jobId: 'job_1', state: 'failed' })), true, 'a wrong failure is worth reporting too');
  t.equal(canReport(item({ state: 'failed' })), false, 'refused in the page or at submit: no job to point at');
  for (const state of ['waiting', 'uploading', 'queued', 'processing', 'canceled'] as const) {
    t.equal(canReport(item({ jobId: 'job_1', state })), false, state);
  }
});
