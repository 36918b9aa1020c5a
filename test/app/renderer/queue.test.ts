import t from 'tap';
import { ApiError } from '../../../client/http.js';
import type { Job, VectorizeFields, WaitOptions } from '../../../client/v1.js';
import { ConversionQueue, DEFAULT_SETTINGS, describeState, type QueueItem } from '../../../app/renderer/queue.js';

const picked = (name: string) => ({ file: new Blob([name]), name, path: name });

function job(id: string, over: Partial<Job> = {}): Job {
  return { id, status: 'queued', progress: 0, queue_position: 3, retention: '24h', megapixels: 0.01, created_at: '', ...over };
}

/** A fake /v1 client whose jobs the test finishes by hand, to see the queue between steps. */
class FakeClient {
  submitted: Array<{ name: string; fields: VectorizeFields }> = [];
  deleted: string[] = [];
  refuse: ApiError[] = [];
  private waiters = new Map<string, { resolve: (job: Job) => void; options: WaitOptions }>();
  private results = new Map<string, string>();

  async vectorize(_file: Blob, name: string, fields: VectorizeFields = {}): Promise<Job> {
    const refusal = this.refuse.shift();
    if (refusal) throw refusal;
    this.submitted.push({ name, fields });
    return job(`job_${this.submitted.length}`);
  }
  waitForJob(id: string, options: WaitOptions = {}): Promise<Job> {
    return new Promise((resolve, reject) => {
      this.waiters.set(id, { resolve, options });
      options.signal?.addEventListener('abort', () => reject(new Error('aborted')));
    });
  }
  async downloadSvg(id: string): Promise<string> {
    return this.results.get(id) ?? '';
  }
  async deleteJob(id: string): Promise<undefined> {
    this.deleted.push(id);
    return undefined;
  }
  progress(id: string, update: Partial<Job>): void {
    this.waiters.get(id)!.options.onUpdate?.(job(id, update));
  }
  finish(id: string, update: Partial<Job>, svg = ''): void {
    this.results.set(id, svg);
    this.waiters.get(id)!.resolve(job(id, update));
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

t.test('keeps at most maxActive jobs on the server; the rest wait with a place in line', async (t) => {
  const client = new FakeClient();
  const queue = new ConversionQueue(client, { maxActive: 2 });
  const items = queue.add([picked('a.png'), picked('b.png'), picked('c.png'), picked('d.png')], DEFAULT_SETTINGS);
  await tick();
  t.equal(client.submitted.length, 2);
  t.same(items.map((i) => i.state), ['queued', 'queued', 'waiting', 'waiting']);
  t.same(items.slice(2).map((i) => i.queuePosition), [1, 2], 'local line numbers count only waiting files');
  t.equal(items[0].queuePosition, 3, "once on the server, the server's queue_position is shown");

  client.progress('job_1', { status: 'processing', progress: 40, queue_position: undefined });
  t.equal(items[0].state, 'processing');
  t.equal(items[0].progress, 40);
  t.equal(describeState(items[0]), 'Processing 40 %');

  const svg = '<svg><path d="M0 0L1 1L2 0Z"/></svg>';
  client.finish('job_1', { status: 'completed', progress: 100, mode: 'clipart' }, svg);
  await tick();
  await tick();
  t.equal(items[0].state, 'completed');
  t.equal(items[0].mode, 'clipart');
  t.same(items[0].stats, { bytes: svg.length, paths: 1, nodes: 3 });
  t.equal(client.submitted.length, 3, 'a finished job frees a slot for the next file');
  t.equal(items[3].queuePosition, 1);
});

t.test('a failed job shows the contract code in plain words', async (t) => {
  const client = new FakeClient();
  const queue = new ConversionQueue(client);
  const [item] = queue.add([picked('bad.png')], DEFAULT_SETTINGS);
  await tick();
  client.finish('job_1', { status: 'failed', error: { code: 'unreadable_file', message: 'x' } });
  await tick();
  t.equal(item.state, 'failed');
  t.equal(item.error?.code, 'unreadable_file');
  t.match(describeState(item), /could not be read as an image\. \(unreadable_file\)$/);
});

t.test('a refused upload fails with its code; a busy server means wait and try again', async (t) => {
  const client = new FakeClient();
  const slept: number[] = [];
  const queue = new ConversionQueue(client, { retryDelayMs: 1234, sleep: async (ms) => void slept.push(ms) });
  client.refuse.push(new ApiError(429, { code: 'too_many_active_jobs', message: '', details: {} }));
  client.refuse.push(new ApiError(415, { code: 'unsupported_format', message: '', details: {} }));
  const [busy] = queue.add([picked('a.png')], DEFAULT_SETTINGS);
  for (let i = 0; i < 6; i++) await tick();
  t.same(slept, [1234]);
  t.equal(busy.state, 'failed', 'retried after the wait, then refused for good');
  t.equal(busy.error?.code, 'unsupported_format');
  t.equal(busy.runs, 2);
});

t.test('re-run sends the new settings and drops the run in flight, canceling its job', async (t) => {
  const client = new FakeClient();
  const changes: QueueItem[] = [];
  const queue = new ConversionQueue(client, { onChange: (item) => changes.push(item) });
  const [item] = queue.add([picked('a.png')], DEFAULT_SETTINGS);
  await tick();
  t.equal(client.submitted[0].fields.smoothing, 'strong');
  queue.rerun(item, { ...DEFAULT_SETTINGS, smoothing: 'off' });
  await tick();
  t.same(client.deleted, ['job_1'], 'the stale job is canceled on the server');
  t.equal(client.submitted[1].fields.smoothing, 'off');
  t.equal(item.jobId, 'job_2');
  client.finish('job_2', { status: 'completed', progress: 100 }, '<svg/>');
  await tick();
  await tick();
  t.equal(item.state, 'completed');
  t.equal(item.runs, 2);
  t.ok(changes.length > 0);
});

t.test('removing a file stops its job and frees the slot', async (t) => {
  const client = new FakeClient();
  const queue = new ConversionQueue(client, { maxActive: 1 });
  const [a, b] = queue.add([picked('a.png'), picked('b.png')], DEFAULT_SETTINGS);
  await tick();
  queue.remove(a);
  await tick();
  t.same(client.deleted, ['job_1']);
  t.equal(queue.items.length, 1);
  t.equal(b.state, 'queued');
});
