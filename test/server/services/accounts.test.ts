/**
 * The quota check (server/services/accounts.ts): assertConversionLeft() refuses exactly when
 * charge() would, with the same answer, and takes nothing either way.
 */
import t from 'tap';
import { harness } from '../helpers.js';
import { TRIAL_CONVERSIONS } from '../../../server/plans.js';

function refusal(attempt: () => unknown): { code: string; details: Record<string, unknown> } | undefined {
  try {
    attempt();
  } catch (error) {
    return error as { code: string; details: Record<string, unknown> };
  }
  return undefined;
}

t.test('the trial: refused once its conversions are spent, never renewing', async (t) => {
  const h = await harness(t);
  const { accounts } = h.app.services;
  const account = accounts.create('Trial Co', 'trial');
  accounts.assertConversionLeft(account);
  t.equal(accounts.get(account.id).trial_used, 0, 'the check takes nothing');
  h.app.context.store.accounts.update(account.id, { trial_used: TRIAL_CONVERSIONS });
  const spent = accounts.get(account.id);
  const checked = refusal(() => accounts.assertConversionLeft(spent));
  t.match(checked, { code: 'quota_exhausted', details: { reset_at: null, allowance: 'trial' } });
  t.same(
    refusal(() => accounts.charge(spent)),
    checked,
    'charge() answers the same',
  );
  t.equal(accounts.get(account.id).trial_used, TRIAL_CONVERSIONS);
});

t.test('a monthly plan: refused at its allowance until the period resets', async (t) => {
  const h = await harness(t);
  const { accounts } = h.app.services;
  const account = accounts.create('Pro Co', 'pro');
  const period = accounts.allowances(account).monthly!;
  h.app.context.store.accounts.update(account.id, { trial_used: TRIAL_CONVERSIONS });
  accounts.charge(accounts.get(account.id)); // opens this month's period
  h.app.context.store.accounts.update(account.id, { period_used: 499 });
  const almost = accounts.get(account.id);
  accounts.assertConversionLeft(almost);
  t.equal(accounts.get(account.id).period_used, 499, 'the check takes nothing');
  accounts.charge(almost);
  const spent = accounts.get(account.id);
  t.equal(spent.period_used, 500);
  const checked = refusal(() => accounts.assertConversionLeft(spent));
  t.match(checked, { code: 'quota_exhausted', details: { allowance: 'monthly', total: 500, reset_at: period.reset_at } });
  t.same(
    refusal(() => accounts.charge(spent)),
    checked,
    'charge() answers the same',
  );
  h.clock.set(period.reset_at);
  t.equal(
    refusal(() => accounts.assertConversionLeft(accounts.get(account.id))),
    undefined,
    'a new period has room again',
  );
});
