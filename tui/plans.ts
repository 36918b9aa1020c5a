import { PLAN_NAMES, type PlanName } from '../client/admin.js';
import type { PickerOption } from './components/picker.js';

/** One-line reminders of decisions.md §2, so the admin moving an account sees what a plan means. */
const PLAN_NOTES: Record<PlanName, string> = {
  trial: '5 conversions once, API until spent',
  lite: 'browser/desktop app only, no API',
  pro: '500 a month, API',
  studio: '2,000 a month, API',
  agency: '5,000 a month, API',
  enterprise: 'unlimited unless configured',
};

export const PLAN_OPTIONS: PickerOption<PlanName>[] = PLAN_NAMES.map((plan) => ({ value: plan, label: plan.padEnd(11), note: PLAN_NOTES[plan] }));
