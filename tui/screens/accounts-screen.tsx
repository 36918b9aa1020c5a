import { Box, Text, useInput } from 'ink';
import { useContext, useState } from 'react';
import type { AdminAccount, Allowance, PlanName } from '../../client/admin.js';
import { Confirm } from '../components/confirm.js';
import { LoadError } from '../components/load-error.js';
import { NoticeLine } from '../components/notice-line.js';
import { Picker } from '../components/picker.js';
import { Table, type Column } from '../components/table.js';
import { TextPrompt } from '../components/text-prompt.js';
import { BodyAreaContext } from '../context.js';
import { formatCount, formatDate, formatDateTime, truncate } from '../format.js';
import { useAccounts } from '../hooks/use-accounts.js';
import { useAdmin } from '../hooks/use-admin.js';
import { useListCursor } from '../hooks/use-list-cursor.js';
import { useNotice } from '../hooks/use-notice.js';
import { useScreenKeys } from '../hooks/use-screen-keys.js';
import { usePlans } from '../hooks/use-plans.js';
import { planOptions } from '../plans.js';

type Mode =
  | { kind: 'list' }
  | { kind: 'detail'; accountId: string }
  | { kind: 'plan'; accountId: string; back: 'list' | 'detail' }
  | { kind: 'confirm-plan'; accountId: string; plan: PlanName; back: 'list' | 'detail' }
  | { kind: 'new-name' }
  | { kind: 'new-plan'; name: string };

const COLUMNS: Column[] = [
  { title: 'Account', width: 12, flex: true },
  { title: 'Plan', width: 10 },
  { title: 'Trial', width: 15 },
  { title: 'Monthly', width: 23 },
  { title: 'Resets', width: 10 },
  // acct_ and 20 base62 characters (server/ids.ts): shown whole, never cut.
  { title: 'Id', width: 25, optional: true },
];

/** `2 used · 3 left`: the two numbers an admin checks when someone is near their allowance. */
function allowanceSummary(allowance: Allowance | null): string {
  if (!allowance) return '—';
  return `${formatCount(allowance.used)} used · ${formatCount(allowance.left)} left`;
}

function accountRow(account: AdminAccount) {
  const monthly = account.allowances.monthly;
  const trialSpent = account.allowances.trial.left === 0;
  return {
    key: account.id,
    cells: [
      account.name,
      account.plan,
      allowanceSummary(account.allowances.trial),
      allowanceSummary(monthly),
      monthly ? formatDate(monthly.reset_at) : '—',
      account.id,
    ],
    // A plan with nothing left is the row the admin is looking for.
    hue: monthly?.left === 0 || (!monthly && trialSpent && account.plan === 'trial') ? ('red' as const) : undefined,
  };
}

export function AccountsScreen(): React.JSX.Element {
  const admin = useAdmin();
  const area = useContext(BodyAreaContext);
  const accounts = useAccounts();
  const planChoices = planOptions(usePlans().data);
  const list = accounts.data ?? [];
  const [mode, setMode] = useState<Mode>({ kind: 'list' });
  const [cursor] = useListCursor(list.length, { isActive: mode.kind === 'list' });
  const { notice, setNotice, act } = useNotice();
  const selected = list[cursor];
  const find = (id: string): AdminAccount | undefined => list.find((account) => account.id === id);

  useScreenKeys(
    mode.kind === 'detail'
      ? [
          { keys: 'p', label: 'change plan' },
          { keys: 'Esc', label: 'back' },
        ]
      : [
          { keys: '↑↓/jk', label: 'move' },
          { keys: 'Enter', label: 'allowances' },
          { keys: 'p', label: 'plan' },
          { keys: 'n', label: 'new account' },
        ],
    { active: mode.kind === 'list' || mode.kind === 'detail' },
  );

  useInput(
    (input, key) => {
      if (mode.kind === 'list') {
        if (key.return && selected) setMode({ kind: 'detail', accountId: selected.id });
        else if (input === 'p' && selected) setMode({ kind: 'plan', accountId: selected.id, back: 'list' });
        else if (input === 'n') {
          setNotice(undefined);
          setMode({ kind: 'new-name' });
        }
      } else if (mode.kind === 'detail') {
        if (key.escape) setMode({ kind: 'list' });
        else if (input === 'p') setMode({ kind: 'plan', accountId: mode.accountId, back: 'detail' });
      }
    },
    { isActive: mode.kind === 'list' || mode.kind === 'detail' },
  );

  const backTo = (back: 'list' | 'detail', accountId: string): Mode =>
    back === 'detail' ? { kind: 'detail', accountId } : { kind: 'list' };

  if (accounts.error) return <LoadError error={accounts.error} onRetry={accounts.refresh} />;

  const body = (() => {
    switch (mode.kind) {
      case 'detail': {
        const account = find(mode.accountId);
        if (!account) return <Text dimColor>That account no longer exists.</Text>;
        return <AccountDetail account={account} width={area.width} />;
      }
      case 'plan': {
        const account = find(mode.accountId);
        if (!account) return <Text dimColor>That account no longer exists.</Text>;
        return (
          <Picker
            title={`Plan for ${truncate(account.name, 40)} (now ${account.plan})`}
            options={planChoices}
            width={area.width}
            initialIndex={planChoices.findIndex((option) => option.value === account.plan)}
            onCancel={() => setMode(backTo(mode.back, account.id))}
            onPick={(plan) =>
              plan === account.plan
                ? setMode(backTo(mode.back, account.id))
                : setMode({ kind: 'confirm-plan', accountId: account.id, plan, back: mode.back })
            }
          />
        );
      }
      case 'confirm-plan': {
        const account = find(mode.accountId);
        if (!account) return <Text dimColor>That account no longer exists.</Text>;
        return (
          <Confirm
            question={`Move ${truncate(account.name, 30)} from ${account.plan} to ${mode.plan}?`}
            detail="The new plan's allowance, retention and limits apply from the next request."
            onCancel={() => setMode(backTo(mode.back, account.id))}
            onConfirm={() => {
              const target = mode;
              setMode(backTo(target.back, account.id));
              void act(
                () => admin.setPlan(account.id, target.plan),
                (updated) => `${updated.name} is now on ${updated.plan}.`,
              ).then(() => accounts.refresh());
            }}
          />
        );
      }
      case 'new-name':
        return (
          <TextPrompt
            label="Name of the new account"
            placeholder="e.g. Studio North"
            onCancel={() => setMode({ kind: 'list' })}
            onSubmit={(name) => setMode({ kind: 'new-plan', name })}
          />
        );
      case 'new-plan':
        return (
          <Picker
            title={`Plan for ${truncate(mode.name, 40)} (new accounts usually start on trial)`}
            options={planChoices}
            width={area.width}
            onCancel={() => setMode({ kind: 'list' })}
            onPick={(plan) => {
              const name = mode.name;
              setMode({ kind: 'list' });
              void act(
                () => admin.createAccount({ name, plan }),
                (created) => `Created ${created.name} (${created.id}) on ${created.plan}.`,
              ).then(() => accounts.refresh());
            }}
          />
        );
      case 'list':
        return (
          <Table
            columns={COLUMNS}
            rows={list.map(accountRow)}
            cursor={cursor}
            width={area.width}
            height={area.height - 1}
            empty={accounts.loading ? 'Loading accounts…' : 'No accounts yet. Press n to create one.'}
          />
        );
    }
  })();

  return (
    <Box flexDirection="column">
      {body}
      <NoticeLine notice={notice} />
    </Box>
  );
}

function AccountDetail(props: { account: AdminAccount; width: number }): React.JSX.Element {
  const { account } = props;
  const allowanceLine = (label: string, allowance: Allowance | null, resets: boolean): string => {
    if (!allowance) return `${label}: none on this plan`;
    const limit = allowance.total === null ? 'unlimited' : formatCount(allowance.total);
    const reset = resets ? `, resets ${formatDateTime(allowance.reset_at)} UTC` : ', never renews';
    return `${label}: ${formatCount(allowance.used)} used of ${limit}, ${formatCount(allowance.left)} left${reset}`;
  };
  const lines = [
    `Account  ${account.name}`,
    `Id       ${account.id}`,
    `Plan     ${account.plan}`,
    `Created  ${formatDateTime(account.created_at)} UTC`,
  ];
  return (
    <Box flexDirection="column">
      {lines.map((line) => (
        <Text key={line} wrap="truncate-end">
          {line}
        </Text>
      ))}
      <Text> </Text>
      <Text bold>Allowances</Text>
      <Text wrap="truncate-end">{allowanceLine('Trial', account.allowances.trial, false)}</Text>
      <Text wrap="truncate-end">{allowanceLine('Monthly', account.allowances.monthly, true)}</Text>
    </Box>
  );
}
