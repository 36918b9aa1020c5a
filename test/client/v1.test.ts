import t from 'tap';
import { ApiError, HttpClient } from '../../client/http.js';
import { V1Client, conversionsLeft, type Account, type Job } from '../../client/v1.js';

interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: BodyInit | null;
}

function fakeFetch(answer: (seen: Seen) => Response): { fetch: typeof fetch; seen: Seen[] } {
  const seen: Seen[] = [];
  const fn = (async (input: string | URL | Request, init?: RequestInit) => {
    const entry = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: init?.body,
    };
    seen.push(entry);
    return answer(entry);
  }) as typeof fetch;
  return { fetch: fn, seen };
}

const job = (over: Partial<Job> = {}): Job => ({
  id: 'job_abcdefghijklmnop',
  status: 'queued',
  progress: 0,
  queue_position: 1,
  retention: '24h',
  megapixels: 0.1,
  created_at: '2025-01-01T00:00:00.000Z',
  ...over,
});

t.test('vectorize posts multipart with the contract field names, the key and the idempotency header', async (t) => {
  const { fetch, seen } = fakeFetch(() => new Response(JSON.stringify(job()), { status: 202 }));
  const client = new V1Client({ baseUrl: 'http://127.0.0.1:9/', token: 'service_sk_live_x', fetch });
  const answer = await client.vectorize(
    new Blob([new Uint8Array([137, 80, 78, 71])]),
    'logo.png',
    { smoothing: 'off', close_seams: false, detail: 40 },
    { idempotencyKey: 'k-1' },
  );
  t.equal(answer.status, 'queued');
  t.equal(seen[0].url, 'http://127.0.0.1:9/v1/vectorize');
  t.equal(seen[0].method, 'POST');
  t.equal(seen[0].headers.authorization, 'Bearer service_sk_live_x');
  t.equal(seen[0].headers['idempotency-key'], 'k-1');
  const form = seen[0].body as FormData;
  t.equal(form.get('smoothing'), 'off');
  t.equal(form.get('close_seams'), 'false');
  t.equal(form.get('detail'), '40');
  t.equal(form.has('gradients'), false, 'unset fields are not sent, so the server applies its defaults');
  t.equal((form.get('file') as File).name, 'logo.png');
  t.same([...form.keys()].at(-1), 'file', 'the file goes last');
});

t.test("render posts the output controls to the job's render route; a palette list goes comma-separated", async (t) => {
  const { fetch, seen } = fakeFetch(
    () => new Response(JSON.stringify(job({ id: 'job_render0000000000', source: 'render' })), { status: 202 }),
  );
  const client = new V1Client({ baseUrl: 'http://127.0.0.1:9', token: 'service_sk_live_x', fetch });
  const answer = await client.render(
    'job_abc/def',
    { palette: ['#112233', '#ffffff'], group_by: 'color', width: 100, unit: 'mm', max_colors: undefined },
    { idempotencyKey: 'r-1' },
  );
  t.equal(answer.source, 'render');
  t.equal(seen[0].url, 'http://127.0.0.1:9/v1/jobs/job_abc%2Fdef/render', 'the id is one path segment');
  t.equal(seen[0].method, 'POST');
  t.equal(seen[0].headers['idempotency-key'], 'r-1');
  const form = seen[0].body as FormData;
  t.equal(form.get('palette'), '#112233,#ffffff');
  t.equal(form.get('group_by'), 'color');
  t.equal(form.get('width'), '100');
  t.equal(form.get('unit'), 'mm');
  t.equal(form.has('max_colors'), false);
  t.equal(form.has('file'), false, 'nothing is uploaded');
});

t.test('errors come back as ApiError with the contract code', async (t) => {
  const { fetch } = fakeFetch(
    () =>
      new Response(JSON.stringify({ error: { code: 'quota_exhausted', message: 'spent', details: { reset_at: null } } }), { status: 402 }),
  );
  const client = new V1Client({ baseUrl: 'http://127.0.0.1:9', fetch });
  const error = await client.vectorize(new Blob(['x']), 'a.png').catch((e: unknown) => e);
  t.ok(error instanceof ApiError);
  t.match(error, { status: 402, code: 'quota_exhausted', details: { reset_at: null } });
});

t.test('downloadSvg returns the body text with the bearer key; not_ready is an error', async (t) => {
  let ready = false;
  const { fetch, seen } = fakeFetch(() =>
    ready
      ? new Response('<svg xmlns="http://www.w3.org/2000/svg"/>', { status: 200, headers: { 'content-type': 'image/svg+xml' } })
      : new Response(JSON.stringify({ error: { code: 'not_ready', message: 'no', details: {} } }), { status: 409 }),
  );
  const client = new V1Client(new HttpClient({ baseUrl: 'http://127.0.0.1:9', token: () => 'service_sk_live_y', fetch }));
  await t.rejects(client.downloadSvg('job_1'), { code: 'not_ready' });
  ready = true;
  t.match(await client.downloadSvg('job_1'), /^<svg/);
  t.equal(seen[1].url, 'http://127.0.0.1:9/v1/jobs/job_1/download');
  t.equal(seen[1].headers.authorization, 'Bearer service_sk_live_y');
});

t.test('waitForJob reports each change once and stops at an end state', async (t) => {
  const answers = [
    job(),
    job({ queue_position: 1 }),
    job({ status: 'processing', progress: 40, queue_position: undefined }),
    job({ status: 'completed', progress: 100 }),
  ];
  let call = 0;
  const { fetch } = fakeFetch(() => new Response(JSON.stringify(answers[Math.min(call++, answers.length - 1)])));
  const client = new V1Client({ baseUrl: 'http://127.0.0.1:9', fetch });
  const updates: string[] = [];
  const delays: number[] = [];
  const done = await client.waitForJob('job_1', {
    intervalMs: 10,
    onUpdate: (update) => updates.push(`${update.status}:${update.progress}`),
    sleep: async (ms) => {
      delays.push(ms);
    },
  });
  t.equal(done.status, 'completed');
  t.same(updates, ['queued:0', 'processing:40', 'completed:100'], 'an unchanged poll is not reported again');
  t.same(delays, [10, 15, 10], 'backs off while nothing changes, resets on change');
});

t.test('waitForJob stops when aborted', async (t) => {
  const { fetch } = fakeFetch(() => new Response(JSON.stringify(job())));
  const client = new V1Client({ baseUrl: 'http://127.0.0.1:9', fetch });
  const controller = new AbortController();
  const waiting = client.waitForJob('job_1', { intervalMs: 5, signal: controller.signal });
  setTimeout(() => controller.abort(new Error('stop')), 20);
  await t.rejects(waiting, /stop/);
});

t.test("reportJob posts the reason and message as JSON to the job's report route", async (t) => {
  const report = { id: 'rpt_1', job_id: 'job_a/b', reason: 'artifacts', message: 'stray dots', created_at: '2025-01-01T00:00:00.000Z' };
  const { fetch, seen } = fakeFetch(() => new Response(JSON.stringify(report), { status: 201 }));
  const client = new V1Client({ baseUrl: 'http://127.0.0.1:9', token: 'service_sk_live_x', fetch });
  t.same(await client.reportJob('job_a/b', { reason: 'artifacts', message: 'stray dots' }), report);
  t.equal(seen[0].url, 'http://127.0.0.1:9/v1/jobs/job_a%2Fb/report', 'the id cannot reach another route');
  t.equal(seen[0].method, 'POST');
  t.equal(seen[0].headers['content-type'], 'application/json');
  t.same(JSON.parse(String(seen[0].body)), { reason: 'artifacts', message: 'stray dots' });
  await client.reportJob('job_x', { reason: 'other' });
  t.same(JSON.parse(String(seen[1].body)), { reason: 'other', message: '' });
});

t.test('conversionsLeft reads the trial first, then the monthly allowance', async (t) => {
  const base: Account = { id: 'acct_1', name: 'a', plan: 'trial', allowances: { trial: { total: 5, used: 2, left: 3 }, monthly: null } };
  t.same(conversionsLeft(base), { source: 'trial', left: 3 });
  t.same(conversionsLeft({ ...base, allowances: { trial: { total: 5, used: 5, left: 0 }, monthly: null } }), { source: 'trial', left: 0 });
  const pro: Account = {
    ...base,
    plan: 'pro',
    allowances: {
      trial: { total: 5, used: 5, left: 0 },
      monthly: { total: 500, used: 10, left: 490, reset_at: '2025-02-01T00:00:00.000Z' },
    },
  };
  t.same(conversionsLeft(pro), { source: 'monthly', left: 490, resetAt: '2025-02-01T00:00:00.000Z' });
  t.same(conversionsLeft({ ...pro, allowances: { ...pro.allowances, trial: { total: 5, used: 1, left: 4 } } }).source, 'trial');
});
