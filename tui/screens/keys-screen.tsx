import { Box, useInput } from 'ink';
import { useCallback, useContext, useState } from 'react';
import type { AdminKey, KeyScope } from '../../client/admin.js';
import { Confirm } from '../components/confirm.js';
import { Picker } from '../components/picker.js';
import { LoadError } from '../components/load-error.js';
import { NoticeLine } from '../components/notice-line.js';
import { AccountPicker } from '../components/account-picker.js';
import { SecretNotice } from '../components/secret-notice.js';
import { Table, type Column } from '../components/table.js';
import { TextPrompt } from '../components/text-prompt.js';
import { BodyAreaContext } from '../context.js';
import { formatAgo, formatDate, maskedKey, truncate } from '../format.js';
import { useAccounts } from '../hooks/use-accounts.js';
import { useAdmin } from '../hooks/use-admin.js';
import { useKeys } from '../hooks/use-keys.js';
import { useListCursor } from '../hooks/use-list-cursor.js';
import { useNotice } from '../hooks/use-notice.js';
import { useScreenKeys } from '../hooks/use-screen-keys.js';

type Mode =
  | { kind: 'list' }
  | { kind: 'pick-account' }
  | { kind: 'name'; accountId: string }
  | { kind: 'scope'; accountId: string; name: string }
  | { kind: 'confirm-revoke'; key: AdminKey }
  // The secret lives here, in this screen's state only: dismissing it or leaving the screen drops it.
  | { kind: 'secret'; secret: string; label: string };

const COLUMNS: Column[] = [
  { title: 'Key', width: 21 },
  { title: 'Name', width: 10, flex: true },
  { title: 'Account', width: 14 },
  { title: 'Last used', width: 9 },
  { title: 'State', width: 7 },
  { title: 'Created', width: 10, optional: true },
  { title: 'Scope', width: 5, optional: true },
];

export function KeysScreen(): React.JSX.Element {
  const admin = useAdmin();
  const area = useContext(BodyAreaContext);
  const keys = useKeys();
  const accounts = useAccounts();
  const names = new Map((accounts.data ?? []).map((account) => [account.id, account.name]));
  const plans = new Map((accounts.data ?? []).map((account) => [account.id, account.plan]));
  // Live keys first: revoked ones stay listed (greyed) so an admin can see what was cut off.
  const list = [...(keys.data ?? [])].sort((a, b) => Number(Boolean(a.revoked_at)) - Number(Boolean(b.revoked_at)));
  const [mode, setMode] = useState<Mode>({ kind: 'list' });
  const [cursor] = useListCursor(list.length, { isActive: mode.kind === 'list' });
  const { notice, setNotice, act } = useNotice();
  const selected = list[cursor];

  useScreenKeys(
    [
      { keys: '↑↓/jk', label: 'move' },
      { keys: 'n', label: 'new key' },
      { keys: 'x', label: 'revoke' },
    ],
    { active: mode.kind === 'list' },
  );

  const toList = useCallback(() => setMode({ kind: 'list' }), []);
  const toName = useCallback((accountId: string) => setMode({ kind: 'name', accountId }), []);
  const noAccounts = useCallback(() => {
    setMode({ kind: 'list' });
    setNotice({ tone: 'error', text: 'Create an account first (screen 1, n).' });
  }, [setNotice]);

  useInput(
    (input) => {
      if (input === 'n') {
        setNotice(undefined);
        setMode({ kind: 'pick-account' });
      } else if ((input === 'x' || input === 'd') && selected) {
        if (selected.revoked_at) setNotice({ tone: 'error', text: 'That key is already revoked.' });
        else {
          setNotice(undefined);
          setMode({ kind: 'confirm-revoke', key: selected });
        }
      }
    },
    { isActive: mode.kind === 'list' },
  );

  if (keys.error) return <LoadError error={keys.error} onRetry={keys.refresh} />;

  const body = (() => {
    switch (mode.kind) {
      case 'pick-account':
        return (
          <AccountPicker
            title="New key for which account?"
            accounts={accounts.data}
            width={area.width}
            maxRows={Math.max(3, area.height - 4)}
            onCancel={toList}
            onNone={noAccounts}
            onPick={toName}
          />
        );
      case 'name':
        return (
          <TextPrompt
            label={`Name for the new key of ${truncate(names.get(mode.accountId) ?? mode.accountId, 40)} (optional)`}
            placeholder="e.g. ci-uploader; Enter to skip"
            allowEmpty
            onCancel={() => setMode({ kind: 'list' })}
            onSubmit={(name) => setMode({ kind: 'scope', accountId: mode.accountId, name })}
          />
        );
      case 'scope': {
        // A Lite account's api keys are refused on every /v1 call: offer app first there.
        const lite = plans.get(mode.accountId) === 'lite';
        const options: { value: KeyScope; label: string; note: string }[] = [
          { value: 'api', label: 'api', note: lite ? 'refused on the Lite plan (403)' : 'scripts and integrations' },
          { value: 'app', label: 'app', note: 'the desktop app and the page at /' },
        ];
        return (
          <Picker
            title={`Scope of the new key of ${truncate(names.get(mode.accountId) ?? mode.accountId, 40)}`}
            options={options}
            width={area.width}
            initialIndex={lite ? 1 : 0}
            onCancel={toList}
            onPick={(scope) => {
              const { accountId, name } = mode;
              setMode({ kind: 'list' });
              void act(
                () => admin.createKey({ accountId, name: name || undefined, scope }),
                (created) => `Created ${scope} key ${maskedKey(created.key.prefix, created.key.last4)}.`,
              ).then((created) => {
                if (created) setMode({ kind: 'secret', secret: created.secret, label: names.get(accountId) ?? accountId });
                keys.refresh();
              });
            }}
          />
        );
      }
      case 'secret':
        return (
          <SecretNotice
            title={`New API key for ${truncate(mode.label, 40)}`}
            secret={mode.secret}
            onDismiss={() => setMode({ kind: 'list' })}
          />
        );
      case 'confirm-revoke': {
        const key = mode.key;
        return (
          <Confirm
            question={`Revoke ${maskedKey(key.prefix, key.last4)}${key.name ? ` (${truncate(key.name, 20)})` : ''}?`}
            detail={
              `Every client of ${names.get(key.account_id) ?? key.account_id} using this key is refused from the next request. ` +
              'This cannot be undone.'
            }
            onCancel={() => setMode({ kind: 'list' })}
            onConfirm={() => {
              setMode({ kind: 'list' });
              void act(
                () => admin.revokeKey(key.id),
                () => `Revoked ${maskedKey(key.prefix, key.last4)}.`,
              ).then(() => keys.refresh());
            }}
          />
        );
      }
      case 'list':
        return (
          <Table
            columns={COLUMNS}
            cursor={cursor}
            width={area.width}
            height={area.height - 1}
            empty={keys.loading ? 'Loading keys…' : 'No keys yet. Press n to create one.'}
            rows={list.map((key) => ({
              key: key.id,
              dim: Boolean(key.revoked_at),
              cells: [
                maskedKey(key.prefix, key.last4),
                key.name,
                names.get(key.account_id) ?? key.account_id,
                formatAgo(key.last_used_at),
                key.revoked_at ? 'revoked' : 'active',
                formatDate(key.created_at),
                key.scope,
              ],
            }))}
          />
        );
    }
  })();

  return (
    <Box flexDirection="column">
      {body}
      {mode.kind === 'secret' ? null : <NoticeLine notice={notice} />}
    </Box>
  );
}
