/**
 * The pixel ceiling a job is traced under (server/services/jobs.ts): always its plan's
 * maxMegapixels, as configured, never a fallback; the engine's own 50 MP default (for callers
 * without a plan, the CLI) does not apply on the server.
 */
import t from 'tap';
import { harness, plansFile, waitFor } from '../helpers.js';
import { DEFAULT_PLANS, type PlanName } from '../../../server/plans.js';
import { ENGINE_MAX_PIXELS } from '../../../engine/types.js';

async function tracedUnder(t: Parameters<typeof harness>[0], plan: PlanName, env: Record<string, string> = {}): Promise<number> {
  const h = await harness(t, { env });
  const { secret } = await h.account(plan);
  const response = await h.submit(secret);
  const { id } = h.json<{ id: string }>(response);
  await waitFor(() => h.pool.runs.has(id), 'the job to reach the engine');
  return h.pool.runs.get(id)!.task.maxPixels;
}

t.test("a job is traced under its plan's megapixel limit", async (t) => {
  t.equal(await tracedUnder(t, 'trial'), DEFAULT_PLANS.trial.maxMegapixels * 1e6);
  t.equal(await tracedUnder(t, 'studio'), 64_000_000);
  t.equal(await tracedUnder(t, 'enterprise'), 100_000_000, 'above the engine default: the plan rules');
  t.ok(DEFAULT_PLANS.enterprise.maxMegapixels * 1e6 > ENGINE_MAX_PIXELS);
});

t.test('a plans file override is the limit the worker gets', async (t) => {
  const file = plansFile({ pro: { maxMegapixels: 20.5 } });
  t.equal(await tracedUnder(t, 'pro', { VECTORIZE_PLANS_FILE: file }), 20_500_000);
});
