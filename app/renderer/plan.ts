/**
 * The account badge: the plan and what is left of it, in one calm line. The trial's five are spent
 * before the monthly allowance, so a paid plan shows the sum and names the trial part only in the
 * tooltip; the warning colour is kept for an account that has nothing left.
 */
import type { Account } from '../../client/v1.js';
import { formatCount } from './svg-stats.js';

interface PlanSummary {
  text: string;
  detail: string;
  empty: boolean;
}

const plural = (n: number, word: string): string => `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;

export function planSummary(account: Account): PlanSummary {
  const plan = account.plan.charAt(0).toUpperCase() + account.plan.slice(1);
  const trialLeft = account.allowances.trial.left ?? 0;
  const monthly = account.allowances.monthly;
  if (monthly === null) {
    return {
      text: `${plan} · ${trialLeft} of ${account.allowances.trial.total ?? 5} conversions left`,
      detail: 'The trial conversions are given once and do not renew.',
      empty: trialLeft === 0,
    };
  }
  if (monthly.left === null) return { text: `${plan} plan · unlimited conversions`, detail: '', empty: false };
  const left = trialLeft + monthly.left;
  const resets = monthly.reset_at.slice(0, 10);
  const ofMonth = `${formatCount(monthly.left)} of this month's ${formatCount(monthly.total ?? 0)}.`;
  return {
    text: `${plan} plan · ${plural(left, 'conversion')} left · resets ${resets}`,
    detail: trialLeft > 0 ? `${plural(trialLeft, 'trial conversion')} first, then ${ofMonth}` : ofMonth,
    empty: left === 0,
  };
}
