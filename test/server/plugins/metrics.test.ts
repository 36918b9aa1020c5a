/**
 * GET /metrics (server/plugins/metrics.ts): Prometheus' text format, checked line by line as a
 * scraper parses it, and the numbers after jobs moved.
 */
import t, { type Test } from 'tap';
import { harness, settle, statusOf, waitFor, type Harness } from '../helpers.js';

const ADMIN = 'admin-token-for-the-metrics-test';

async function scrape(h: Harness): Promise<string> {
  const res = await h.app.server.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${ADMIN}` } });
  if (res.statusCode !== 200) throw new Error(`/metrics answered ${res.statusCode}: ${res.payload}`);
  return res.payload;
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the exposition, failing on anything a Prometheus scraper would refuse. */
function parse(t: Test, text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const helped = new Set<string>();
  const samples: Sample[] = [];
  t.ok(text.endsWith('\n'), 'the exposition ends with a newline');
  for (const line of text.slice(0, -1).split('\n')) {
    const comment = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.+)$/.exec(line);
    if (comment) {
      if (comment[1] === 'HELP') helped.add(comment[2]!);
      else {
        t.ok(['gauge', 'counter', 'histogram', 'summary', 'untyped'].includes(comment[3]!), `a known type: ${line}`);
        t.notOk(types.has(comment[2]!), `one TYPE line for ${comment[2]}`);
        types.set(comment[2]!, comment[3]!);
      }
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*",?)*)\})? (\S+)$/.exec(line);
    if (!sample) {
      t.fail(`not a sample line: ${JSON.stringify(line)}`);
      continue;
    }
    const labels: Record<string, string> = {};
    for (const [, key, value] of (sample[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!;
    const value = sample[3] === '+Inf' ? Infinity : Number(sample[3]);
    if (Number.isNaN(value)) t.fail(`not a number: ${line}`);
    const family = sample[1]!.replace(/_(bucket|sum|count)$/, '');
    t.ok(types.has(sample[1]!) || types.get(family) === 'histogram', `${sample[1]} comes after its TYPE line`);
    t.ok(helped.has(sample[1]!) || helped.has(family), `${sample[1]} has a HELP line`);
    samples.push({ name: sample[1]!, labels, value });
  }
  return { types, samples };
}

function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

t.test('the exposition parses and its numbers follow the jobs', async (t) => {
  const h = await harness(t, { workers: 1, adminToken: ADMIN });
  const res = await h.app.server.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${ADMIN}` } });
  t.match(res.headers['content-type'], /^text\/plain; version=0\.0\.4; charset=utf-8$/);
  const before = parse(t, res.payload);
  t.equal(before.types.get('vectorize_trace_seconds'), 'histogram');
  t.equal(before.types.get('vectorize_jobs'), 'gauge');
  for (const state of ['queued', 'processing', 'completed', 'failed', 'canceled', 'expired'])
    t.equal(value(before.samples, 'vectorize_jobs', { state }), 0, `no ${state} jobs yet`);
  for (const imageClass of ['clipart', 'photo', 'scan', 'blueprint'])
    t.equal(
      value(before.samples, 'vectorize_trace_seconds_count', { class: imageClass }),
      0,
      `an empty ${imageClass} series from the start`,
    );
  t.equal(value(before.samples, 'vectorize_webhook_deliveries', { outcome: 'pending' }), 0);
  t.ok((value(before.samples, 'vectorize_event_loop_delay_seconds', { stat: 'max' }) ?? -1) >= 0, 'the event-loop delay is reported');

  const { secret } = await h.account('pro');
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push(h.json<{ id: string }>(await h.submit(secret)).id);
  await settle();
  const busy = parse(t, await scrape(h)).samples;
  t.equal(value(busy, 'vectorize_queue_depth'), 2, 'one worker: two jobs wait');
  t.equal(value(busy, 'vectorize_processing'), 1);
  t.equal(value(busy, 'vectorize_jobs', { state: 'queued' }), 2);
  t.equal(value(busy, 'vectorize_jobs', { state: 'processing' }), 1);

  // The fake engine reports clip art; 3 s of the manual clock pass between start and completion.
  h.clock.advance(3000);
  h.pool.complete(ids[0]!);
  await waitFor(() => statusOf(h, ids[0]!) === 'completed', 'the first job to complete');
  const done = parse(t, await scrape(h)).samples;
  t.equal(value(done, 'vectorize_jobs', { state: 'completed' }), 1);
  t.equal(value(done, 'vectorize_trace_seconds_count', { class: 'clipart' }), 1);
  t.equal(value(done, 'vectorize_trace_seconds_sum', { class: 'clipart' }), 3);
  t.equal(value(done, 'vectorize_trace_seconds_bucket', { class: 'clipart', le: '2.5' }), 0, 'not under 2.5 s');
  t.equal(value(done, 'vectorize_trace_seconds_bucket', { class: 'clipart', le: '5' }), 1, 'under 5 s');
  t.equal(value(done, 'vectorize_trace_seconds_bucket', { class: 'clipart', le: '+Inf' }), 1);
  const buckets = done.filter((s) => s.name === 'vectorize_trace_seconds_bucket' && s.labels.class === 'clipart').map((s) => s.value);
  t.same(
    buckets,
    [...buckets].sort((a, b) => a - b),
    'buckets are cumulative',
  );
  t.equal(value(done, 'vectorize_trace_seconds_count', { class: 'photo' }), 0);
});
