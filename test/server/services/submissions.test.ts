import t from 'tap';
import { harness, plansFile, waitFor, type Harness } from '../helpers.js';
import { postgresMissing, testPostgres } from '../postgres.js';

// Two API nodes on one PostgreSQL database, each with its own data dir and engine pool.
const missing = postgresMissing();
if (missing) t.comment(`cross-node admission tests skipped: ${missing}`);

async function twoNodes(t: Parameters<typeof harness>[0], env: Record<string, string> = {}) {
  const databaseUrl = await testPostgres().database();
  const a = await harness(t, { databaseUrl, env });
  const b = await harness(t, { databaseUrl, env });
  return [a, b] as const;
}

/** An account and key made on `origin`, once every node has them in memory. */
async function accountOnAll(origin: Harness, nodes: readonly Harness[], plan: Parameters<Harness['account']>[0]) {
  const made = await origin.account(plan);
  await origin.app.context.store.flush();
  await waitFor(
    () =>
      nodes.every(
        (node) => node.app.context.store.accounts.get(made.id) && node.app.context.store.keys.count((k) => k.account_id === made.id) > 0,
      ),
    'the account on every node',
  );
  return made;
}

// todo while a known race stands: run 4 at once on a loaded 2-core box, 1 run in 4 accepted 6 (issue #15).
const RACE_OPEN = 'known race: under heavy load one run in four accepts 6 of 8 (issue #15)';
t.test(
  'a trial account hit with 8 concurrent submissions across two nodes accepts exactly 5',
  { skip: missing ?? false, todo: RACE_OPEN },
  async (t) => {
    // Room for all 8 at once, so the trial allowance is the only limit in play.
    const nodes = await twoNodes(t, { VECTORIZE_PLANS_FILE: plansFile({ trial: { activeJobs: 10, dailyFuse: 100 } }) });
    const { secret } = await accountOnAll(nodes[0], nodes, 'trial');
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => nodes[i % 2]!.submit(secret)));
    const codes = answers.map((answer) => answer.statusCode).sort();
    t.same(codes, [202, 202, 202, 202, 202, 402, 402, 402]);
  },
);

t.test('one Idempotency-Key sent to both nodes at once makes one job', { skip: missing ?? false }, async (t) => {
  const nodes = await twoNodes(t);
  const { secret } = await accountOnAll(nodes[0], nodes, 'pro');
  const headers = { 'idempotency-key': 'order-7781' };
  const answers = await Promise.all(nodes.map((node) => node.submit(secret, {}, undefined, headers)));
  t.same(
    answers.map((answer) => answer.statusCode),
    [202, 202],
  );
  const ids = answers.map((answer) => nodes[0].json<{ id: string }>(answer).id);
  t.equal(ids[0], ids[1], 'both answers name the same job');
  await nodes[0].app.context.store.flush();
  await nodes[1].app.context.store.flush();
  t.equal(nodes[0].app.context.store.jobs.count(), 1);
});
