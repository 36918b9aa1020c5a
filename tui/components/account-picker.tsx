import { Text, useInput } from 'ink';
import { useEffect } from 'react';
import type { AdminAccount } from '../../client/admin.js';
import { useScreenKeys } from '../hooks/use-screen-keys.js';
import { Picker } from './picker.js';

/**
 * "For which account?" before creating a key or a webhook. Waits for the account list when it is
 * still loading, and skips the question when there is only one account to choose.
 */
export function AccountPicker(props: {
  title: string;
  accounts: AdminAccount[] | undefined;
  width: number;
  maxRows: number;
  onPick: (accountId: string) => void;
  onNone: () => void;
  onCancel: () => void;
}): React.JSX.Element {
  const { accounts, onPick, onNone } = props;
  const only = accounts?.length === 1 ? accounts[0].id : undefined;
  const none = accounts?.length === 0;
  useEffect(() => {
    if (only) onPick(only);
    else if (none) onNone();
  }, [only, none, onPick, onNone]);
  if (accounts === undefined) return <Loading onCancel={props.onCancel} />;
  return (
    <Picker
      title={props.title}
      options={accounts.map((account) => ({ value: account.id, label: account.name, note: account.plan }))}
      width={props.width}
      maxRows={props.maxRows}
      onCancel={props.onCancel}
      onPick={onPick}
    />
  );
}

function Loading(props: { onCancel: () => void }): React.JSX.Element {
  useScreenKeys([{ keys: 'Esc', label: 'cancel' }]);
  useInput((_input, key) => {
    if (key.escape) props.onCancel();
  });
  return <Text dimColor>Loading accounts…</Text>;
}
