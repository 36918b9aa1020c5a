import t from 'tap';
import { ApiError } from '../../../client/http.js';
import type { Job, OutputFields, VectorizeFields, WaitOptions } from '../../../client/v1.js';
import { ConversionQueue, DEFAULT_SETTINGS, canRerun, describeState, type QueueItem } from '../../../app/renderer/queue.js';

const picked = (name: string) => ({ file: new Blob([name]), name, path: name });

function job(id: string, over: Partial<Job> = {}): Job {
  return { id, status: 'queued', progress: 0, queue_position: 3, retention: '24h', megapixels: 0.01, created_at: '', ...over };
}

/** A fake /v1 client whose jobs the test finishes by hand, to see the queue between steps. */
class FakeClient {
  submitted: Array<{ name: string; fields: VectorizeFields }> = [];
  rendered: Array<{ of: string; fields: OutputFields }> = [];
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
  async render(of: string, fields: OutputFields): Promise<Job> {
    const refusal = this.refuse.shift();
    if (refusal) throw refusal;
    this.rendered.push({ of, fields });
    return job(`render_${this.rendered.length}`, { source: 'render', render_of: of });
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
  result(id: string, svg: string): void {
    this.results.set(id, svg);
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
  t.same(
    items.map((i) => i.state),
    ['queued', 'queued', 'waiting', 'waiting'],
  );
  t.same(
    items.slice(2).map((i) => i.queuePosition),
    [4, 5],
    "waiting files are numbered after this page's jobs queued on the server (#3)",
  );
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
  t.same(items[0].stats, { bytes: svg.length, paths: 1, nodes: 4 });
  t.equal(client.submitted.length, 3, 'a finished job frees a slot for the next file');
  t.equal(items[3].queuePosition, 4);
});

t.test('a waiting file never shows the same place in line as a queued one', async (t) => {
  const client = new FakeClient();
  const queue = new ConversionQueue(client, { maxActive: 1 });
  const [a, b] = queue.add([picked('a.png'), picked('b.png')], DEFAULT_SETTINGS);
  await tick();
  client.progress('job_1', { status: 'queued', queue_position: 1 });
  t.equal(describeState(a), 'Queued · #1 in line');
  t.equal(describeState(b), 'Waiting · #2 in line');
});

t.test('a file over 50 MiB is refused at once, never uploaded', async (t) => {
  const client = new FakeClient();
  const queue = new ConversionQueue(client);
  const big = { file: { size: 50 * 1024 * 1024 + 1 } as Blob, name: 'big.png', path: 'big.png' };
  const [item, small] = queue.add([big, picked('a.png')], DEFAULT_SETTINGS);
  await tick();
  t.equal(item.state, 'failed');
  t.equal(item.error?.code, 'file_too_large');
  t.match(describeState(item), /50 MiB/);
  t.same(
    client.submitted.map((s) => s.name),
    ['a.png'],
    'only the small file went to the server',
  );
  t.equal(small.state, 'queued');
});

t.test('jobs listed by the server come back after a reload: results fetched, running ones followed', async (t) => {
  const client = new FakeClient();
  const queue = new ConversionQueue(client);
  client.result('job_done', '<svg><path d="M0 0L1 1Z"/></svg>');
  const listed = [
    job('job_run', { status: 'processing', progress: 40, file_name: 'b.png' }),
    job('job_done', {
      status: 'completed',
      progress: 100,
      file_name: 'a.png',
      width: 64,
      height: 32,
      options: { smoothing: 'off' },
    } as Partial<Job>),
    job('job_gone', { status: 'canceled', file_name: 'c.png' }),
    job('job_once', { status: 'completed', retention: 'none', file_name: 'd.png' }),
  ];
  const restored = queue.restore(listed);
  t.same(
    restored.map((i) => i.name),
    ['a.png', 'b.png'],
    'oldest first; canceled jobs and one-download results are left out',
  );
  await tick();
  await tick();
  const [done, running] = restored;
  t.equal(done.state, 'completed');
  t.equal(done.stats?.nodes, 3);
  t.same([done.width, done.height], [64, 32]);
  t.equal(done.settings.smoothing, 'off', "the job's own settings");
  t.equal(running.state, 'processing');
  t.notOk(canRerun(done), 'no file in the page: no re-run');
  t.same(queue.restore(listed), [], 'a second listing adds nothing twice');
});

t.test('re-run: not for a file the server cannot read; a new result keeps the previous one', async (t) => {
  const client = new FakeClient();
  const queue = new ConversionQueue(client);
  const [bad, good] = queue.add([picked('bad.png'), picked('good.png')], DEFAULT_SETTINGS);
  await tick();
  client.finish('job_1', { status: 'failed', error: { code: 'unsupported_format', message: '' } });
  client.finish('job_2', { status: 'completed' }, '<svg>first</svg>');
  await tick();
  await tick();
  t.notOk(canRerun(bad), 'unsupported_format: the same bytes would fail again');
  queue.rerun(bad, DEFAULT_SETTINGS);
  t.equal(client.submitted.length, 2, 'rerun() refuses it too');
  t.ok(canRerun(good));
  queue.rerun(good, { ...DEFAULT_SETTINGS, smoothing: 'off' });
  await tick();
  client.finish('job_3', { status: 'completed' }, '<svg>second</svg>');
  await tick();
  await tick();
  t.equal(good.svg, '<svg>second</svg>');
  t.equal(good.previous?.svg, '<svg>first</svg>');
  t.equal(good.previous?.settings.smoothing, 'strong', 'with the settings it was made with');
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

t.test('a re-run that changes only the output controls draws the job again: no upload, no conversion', async (t) => {
  const client = new FakeClient();
  let spent = 0;
  const queue = new ConversionQueue(client, { onSpent: () => spent++ });
  const [item] = queue.add([picked('a.png')], { ...DEFAULT_SETTINGS, group_by: 'color' });
  await tick();
  t.equal(client.submitted[0].fields.group_by, 'color', 'output controls travel with the upload');
  t.notOk('unit' in client.submitted[0].fields, 'controls left as traced are not sent');
  client.finish('job_1', { status: 'completed', progress: 100 }, '<svg/>');
  await tick();
  await tick();
  t.equal(spent, 1);

  queue.rerun(item, { ...DEFAULT_SETTINGS, palette: '#000000,#ffffff', width: 100, unit: 'mm' });
  await tick();
  t.equal(client.submitted.length, 1, 'no second upload');
  t.equal(client.rendered.length, 1);
  t.equal(client.rendered[0].of, 'job_1');
  t.same(
    client.rendered[0].fields,
    {
      max_colors: '',
      palette: '#000000,#ffffff',
      background: '',
      group_by: '',
      width: 100,
      height: '',
      unit: 'mm',
      dpi: '',
      stroke_order: '',
    },
    'every control is sent, the ones left as traced empty, so nothing of the old drawing stays',
  );
  t.equal(item.jobId, 'render_1');
  client.finish('render_1', { status: 'completed', progress: 100 }, '<svg width="100mm"/>');
  await tick();
  await tick();
  t.equal(item.state, 'completed');
  t.equal(item.previous?.svg, '<svg/>', 'the drawing it replaced is kept to compare');
  t.equal(spent, 1, 'a re-render spends no conversion');

  queue.rerun(item, { ...DEFAULT_SETTINGS, palette: '#000000,#ffffff', width: 100, unit: 'mm', smoothing: 'off' });
  await tick();
  t.equal(client.submitted.length, 2, 'a tracing setting changed: traced again');
  t.equal(client.rendered.length, 1);
});

t.test('a re-render the server can no longer draw falls back to tracing the file', async (t) => {
  const client = new FakeClient();
  const queue = new ConversionQueue(client);
  const [item] = queue.add([picked('a.png')], DEFAULT_SETTINGS);
  await tick();
  client.finish('job_1', { status: 'completed', progress: 100 }, '<svg/>');
  await tick();
  await tick();
  client.refuse.push(new ApiError(410, { code: 'result_expired', message: 'gone', details: {} }));
  queue.rerun(item, { ...DEFAULT_SETTINGS, group_by: 'color' });
  await tick();
  await tick();
  t.equal(client.rendered.length, 0);
  t.equal(client.submitted.length, 2, 'uploaded again');
  t.equal(client.submitted[1].fields.group_by, 'color');
  t.equal(item.jobId, 'job_2');
  t.equal(item.runs, 2);
});
