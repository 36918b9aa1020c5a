/**
 * Accounts, plans and allowances (docs/api.md, "Plans"). The trial counter (TRIAL_CONVERSIONS, once) is spent first,
 * then the plan's monthly allowance, which resets on the billing anchor day.
 */
import { VectorizeError } from '../http-errors.js';
import type { AccountRecord, Store } from '../adapters/store.js';
import type { Clock } from '../adapters/clock.js';
import type { Config } from '../config.js';
import { newId } from '../ids.js';
import { DAY_MS } from '../limits.js';
import { TRIAL_CONVERSIONS, isPlanName, planTermsView, type PlanLimits, type PlanName } from '../plans.js';

interface Allowances {
  trial: { total: number; used: number; left: number };
  monthly: { total: number | null; used: number; left: number | null; reset_at: string } | null;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** The reset moment of the given month: the anchor day, or the month's last day when shorter. */
function resetIn(year: number, month: number, anchorDay: number): Date {
  return new Date(Date.UTC(year, month, Math.min(anchorDay, daysInMonth(year, month))));
}

/** [start, next reset) of the billing period holding `now`. */
function billingPeriod(anchorDay: number, now: Date): { start: Date; resetAt: Date } {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const thisMonth = resetIn(y, m, anchorDay);
  if (now.getTime() >= thisMonth.getTime()) return { start: thisMonth, resetAt: resetIn(y, m + 1, anchorDay) };
  return { start: resetIn(y, m - 1, anchorDay), resetAt: thisMonth };
}

export function accountService(deps: { store: Store; clock: Clock; config: Readonly<Config> }) {
  const { store, clock, config } = deps;

  const limits = (account: AccountRecord): Readonly<PlanLimits> => config.plans[account.plan];

  /** Monthly use of the current period (a stored count of an older period counts as 0). */
  const periodUse = (account: AccountRecord, now: Date) => {
    const period = billingPeriod(account.billing_anchor_day, now);
    const used = account.period_start === period.start.toISOString() ? account.period_used : 0;
    return { ...period, used };
  };

  return {
    limits,
    billingPeriod,

    create(name: string, plan: PlanName = 'trial'): AccountRecord {
      const trimmed = name.trim();
      if (trimmed === '' || trimmed.length > 128 || /[\u0000-\u001f\u007f]/.test(trimmed)) {
        throw new VectorizeError('invalid_parameter', 'An account name is 1–128 characters without control characters.', { field: 'name' });
      }
      if (!isPlanName(plan)) throw new VectorizeError('invalid_parameter', `Unknown plan ${JSON.stringify(plan)}.`, { field: 'plan' });
      const now = clock.now();
      return store.accounts.insert({
        id: newId('acct'),
        name: trimmed,
        plan,
        created_at: now.toISOString(),
        billing_anchor_day: now.getUTCDate(),
        trial_used: 0,
        period_start: null,
        period_used: 0,
        accepted_at: [],
      });
    },

    get(id: string): AccountRecord {
      const account = store.accounts.get(id);
      if (!account) throw new VectorizeError('not_found', 'No such account.');
      return account;
    },

    list(): AccountRecord[] {
      return store.accounts.all().sort((a, b) => a.created_at.localeCompare(b.created_at));
    },

    /**
     * A plan change starts a new billing period today (the anchor day moves to today). It writes the
     * whole account, so it runs as an admission does (store.exclusive): never over a charge another
     * node made meanwhile.
     */
    async setPlan(id: string, plan: string): Promise<AccountRecord> {
      if (!isPlanName(plan)) throw new VectorizeError('invalid_parameter', `Unknown plan ${JSON.stringify(plan)}.`, { field: 'plan' });
      this.get(id);
      return store.exclusive(id, () => {
        const now = clock.now();
        const period = billingPeriod(now.getUTCDate(), now);
        return store.accounts.update(this.get(id).id, {
          plan,
          billing_anchor_day: now.getUTCDate(),
          period_start: period.start.toISOString(),
          period_used: 0,
        })!;
      });
    },

    allowances(account: AccountRecord): Allowances {
      const now = clock.now();
      const trialUsed = Math.min(account.trial_used, TRIAL_CONVERSIONS);
      const trial = { total: TRIAL_CONVERSIONS, used: trialUsed, left: TRIAL_CONVERSIONS - trialUsed };
      if (account.plan === 'trial') return { trial, monthly: null };
      const total = limits(account).monthlyAllowance;
      const use = periodUse(account, now);
      return {
        trial,
        monthly: {
          total,
          used: use.used,
          left: total === null ? null : Math.max(0, total - use.used),
          reset_at: use.resetAt.toISOString(),
        },
      };
    },

    /**
     * Throws what charge() would throw, taking nothing: 402 quota_exhausted with details.reset_at
     * (null on the trial, which never renews) when neither the trial nor the month has one left.
     */
    assertConversionLeft(account: AccountRecord): void {
      if (account.trial_used < TRIAL_CONVERSIONS) return;
      if (account.plan === 'trial') {
        throw new VectorizeError(
          'quota_exhausted',
          `The ${TRIAL_CONVERSIONS} trial conversions are spent; the trial does not renew. Choose a plan to continue.`,
          {
            reset_at: null,
            allowance: 'trial',
          },
        );
      }
      const total = limits(account).monthlyAllowance;
      const use = periodUse(account, clock.now());
      if (total !== null && use.used >= total) {
        throw new VectorizeError('quota_exhausted', `The monthly allowance of ${total} conversions is spent.`, {
          reset_at: use.resetAt.toISOString(),
          allowance: 'monthly',
          total,
        });
      }
    },

    /**
     * Takes one conversion: the trial first, then the monthly allowance. Throws 402
     * quota_exhausted with details.reset_at (null on the trial, which never renews).
     */
    charge(account: AccountRecord): { charged: 'trial' | 'monthly' | 'none'; period: string | null } {
      this.assertConversionLeft(account);
      if (account.trial_used < TRIAL_CONVERSIONS) {
        store.accounts.update(account.id, { trial_used: account.trial_used + 1 });
        return { charged: 'trial', period: null };
      }
      const total = limits(account).monthlyAllowance;
      const use = periodUse(account, clock.now());
      const start = use.start.toISOString();
      store.accounts.update(account.id, { period_start: start, period_used: use.used + 1 });
      return { charged: total === null ? 'none' : 'monthly', period: start };
    },

    /**
     * Gives a conversion back (a job that failed through no fault of the client's request). The
     * counter is read and written under the account's admission lock (store.exclusive), as a
     * charge is: a refund from this node's memory could otherwise undo another node's charge.
     */
    async refund(accountId: string, charged: 'trial' | 'monthly' | 'none', period: string | null): Promise<void> {
      if (charged === 'none' || !store.accounts.get(accountId)) return;
      await store.exclusive(accountId, () => this.uncharge(accountId, charged, period));
    },

    /**
     * refund()'s work for a caller that already holds the account's admission lock (an admission
     * undoing its own charge): taking the lock again from inside it would wait for itself.
     */
    uncharge(accountId: string, charged: 'trial' | 'monthly' | 'none', period: string | null): void {
      const account = store.accounts.get(accountId);
      if (!account || charged === 'none') return;
      if (charged === 'trial' && account.trial_used > 0) store.accounts.update(account.id, { trial_used: account.trial_used - 1 });
      if (charged === 'monthly' && account.period_start === period && account.period_used > 0) {
        store.accounts.update(account.id, { period_used: account.period_used - 1 });
      }
    },

    /** Accepted submissions in the last 24 h, oldest first (daily fuse). */
    acceptedLastDay(account: AccountRecord): string[] {
      const since = clock.now().getTime() - DAY_MS;
      return account.accepted_at.filter((at) => new Date(at).getTime() > since);
    },

    recordAcceptance(account: AccountRecord): void {
      const recent = this.acceptedLastDay(store.accounts.get(account.id) ?? account);
      store.accounts.update(account.id, { accepted_at: [...recent, clock.now().toISOString()] });
    },

    view(account: AccountRecord) {
      return {
        id: account.id,
        name: account.name,
        plan: account.plan,
        created_at: account.created_at,
        billing_anchor_day: account.billing_anchor_day,
        allowances: this.allowances(account),
        limits: planTermsView(account.plan, limits(account)),
      };
    },
  };
}

export type AccountService = ReturnType<typeof accountService>;
