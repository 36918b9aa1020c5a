import { PLAN_NAMES, type AdminPlans, type PlanName } from '../client/admin.js';
import type { PickerOption } from './components/picker.js';
import { formatCount } from './format.js';

/**
 * One-line reminder of what a plan means, so the admin moving an account sees it: written from the
 * terms the server reports (VECTORIZE_PLANS_FILE may change any of them), never from a copy here.
 */
export function planNote(plan: PlanName, terms: AdminPlans): string {
  const reported = terms.plans.find((entry) => entry.name === plan);
  if (!reported) return '';
  // The trial has no month: it lives on the one-time conversions every account gets.
  if (plan === 'trial')
    return `${formatCount(terms.trial_conversions)} conversions once${reported.api ? ', API until spent' : ', app only'}`;
  const allowance = reported.monthly_allowance === null ? 'not metered monthly' : `${formatCount(reported.monthly_allowance)} a month`;
  return `${allowance}, ${reported.api ? 'API' : 'browser/desktop app only, no API'}`;
}

/** The plan picker's rows; without the server's terms (still loading) the notes are left blank. */
export function planOptions(terms: AdminPlans | undefined): PickerOption<PlanName>[] {
  return PLAN_NAMES.map((plan) => ({ value: plan, label: plan.padEnd(11), note: terms ? planNote(plan, terms) : '' }));
}
