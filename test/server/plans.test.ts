/**
 * server/plans.ts is the one plan table: docs/api.md's table says the same numbers, and the terms
 * the server reports are read from it.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { DEFAULT_PLANS, PLAN_NAMES, TRIAL_CONVERSIONS, planTermsView } from '../../server/plans.js';

const number = (cell: string): number => Number(cell.replace(/,/g, ''));

t.test("docs/api.md's plan table is DEFAULT_PLANS", async (t) => {
  const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  const rows = [...doc.matchAll(/^\| (trial|lite|pro|studio|agency|enterprise) \|(.*)\|$/gm)];
  t.same(
    rows.map((row) => row[1]),
    [...PLAN_NAMES],
    'one row per plan, in order',
  );
  for (const [, plan, rest] of rows) {
    const [, allowance, retention, group, megapixels, active, fuse] = rest.split('|').map((cell) => cell.trim());
    const limits = DEFAULT_PLANS[plan as (typeof PLAN_NAMES)[number]];
    t.equal(retention, limits.maxRetention, `${plan} max retention`);
    t.same(
      [number(group), number(megapixels), number(active), number(fuse)],
      [limits.batchGroup, limits.maxMegapixels, limits.activeJobs, limits.dailyFuse],
      `${plan} limits`,
    );
    const monthly = /^([\d,]+) a month$/.exec(allowance);
    if (plan === 'trial') t.match(allowance, `${TRIAL_CONVERSIONS} conversions, once`);
    else if (monthly) t.equal(number(monthly[1]), limits.monthlyAllowance, `${plan} allowance`);
    else t.equal(limits.monthlyAllowance, null, `${plan} is not metered monthly`);
  }
});

t.test('the terms a client reads say where manual settings apply', async (t) => {
  t.equal(planTermsView('trial', DEFAULT_PLANS.trial).manual_settings, false);
  t.equal(planTermsView('lite', DEFAULT_PLANS.lite).manual_settings, false);
  t.equal(planTermsView('pro', DEFAULT_PLANS.pro).manual_settings, true);
  t.equal(
    planTermsView('studio', { ...DEFAULT_PLANS.studio, monthlyAllowance: 800 }).monthly_allowance,
    800,
    'an override shows as configured',
  );
});
