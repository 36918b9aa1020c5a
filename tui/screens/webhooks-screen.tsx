import { Box, Text, useInput } from 'ink';
import { useCallback, useContext, useState } from 'react';
import { FeatureUnavailableError, type AdminWebhook } from '../../client/admin.js';
import { Confirm } from '../components/confirm.js';
import { LoadError } from '../components/load-error.js';
import { NoticeLine } from '../components/notice-line.js';
import { AccountPicker } from '../components/account-picker.js';
import { SecretNotice } from '../components/secret-notice.js';
import { Table, type Column } from '../components/table.js';
import { TextPrompt } from '../components/text-prompt.js';
import { BodyAreaContext } from '../context.js';
import { formatDateTime, truncate } from '../format.js';
import { useAccounts } from '../hooks/use-accounts.js';
import { useAdmin } from '../hooks/use-admin.js';
import { useListCursor } from '../hooks/use-list-cursor.js';
import { useNotice, type Notice } from '../hooks/use-notice.js';
import { useScreenKeys } from '../hooks/use-screen-keys.js';
import { useDeliveries, useWebhooks } from '../hooks/use-webhooks.js';
import { DELIVERY_HUE } from '../theme.js';

type Mode =
  | { kind: 'list' }
  | { kind: 'deliveries'; webhook: AdminWebhook }
  | { kind: 'pick-account' }
  | { kind: 'url'; accountId: string }
  | { kind: 'confirm-delete'; webhook: AdminWebhook }
  // Held in this screen's state only, like a new API key: gone once dismissed or the screen closes.
  | { kind: 'secret'; secret: string; url: string };

const WEBHOOK_COLUMNS: Column[] = [
  { title: 'Endpoint', width: 20, flex: true },
  { title: 'Account', width: 14 },
  { title: 'Created', width: 16 },
  { title: 'Id', width: 22, optional: true },
];

const DELIVERY_COLUMNS: Column[] = [
  { title: 'When (UTC)', width: 11 },
  { title: 'Event', width: 20 },
  { title: 'Status', width: 9 },
  { title: 'Tries', width: 5, align: 'right' },
  { title: 'HTTP', width: 4, align: 'right' },
  { title: 'Last error', width: 10, flex: true },
];
// Shown only while a delivery waits for a retry, so it never takes room from the error.
const NEXT_TRY_COLUMN: Column = { title: 'Next try', width: 8, optional: true };

export function WebhooksScreen(): React.JSX.Element {
  const admin = useAdmin();
  const area = useContext(BodyAreaContext);
  const webhooks = useWebhooks();
  const accounts = useAccounts();
  const names = new Map((accounts.data ?? []).map((account) => [account.id, account.name]));
  const list = webhooks.data ?? [];
  const [mode, setMode] = useState<Mode>({ kind: 'list' });
  const [cursor] = useListCursor(list.length, { isActive: mode.kind === 'list' });
  const { notice, setNotice, act } = useNotice();
  const selected = list[cursor];
  const unavailable = webhooks.error instanceof FeatureUnavailableError;

  const toList = useCallback(() => setMode({ kind: 'list' }), []);
  const toUrl = useCallback((accountId: string) => setMode({ kind: 'url', accountId }), []);
  const noAccounts = useCallback(() => {
    setMode({ kind: 'list' });
    setNotice({ tone: 'error', text: 'Create an account first (screen 1, n).' });
  }, [setNotice]);

  const sendTest = (webhook: AdminWebhook): void => {
    void act(
      () => admin.sendTestEvent(webhook.id),
      () => `Test event sent to ${truncate(webhook.url, 50)}; watch its delivery below.`,
    );
  };

  useScreenKeys(
    [
      { keys: '↑↓/jk', label: 'move' },
      { keys: 'Enter', label: 'deliveries' },
      { keys: 'n', label: 'new' },
      { keys: 't', label: 'test' },
      { keys: 'x', label: 'delete' },
    ],
    { active: mode.kind === 'list' && !unavailable },
  );

  useInput(
    (input, key) => {
      if (input === 'n') {
        setNotice(undefined);
        setMode({ kind: 'pick-account' });
      } else if (!selected) return;
      else if (key.return) {
        setNotice(undefined);
        setMode({ kind: 'deliveries', webhook: selected });
      } else if (input === 't') sendTest(selected);
      else if (input === 'x' || input === 'd') setMode({ kind: 'confirm-delete', webhook: selected });
    },
    { isActive: mode.kind === 'list' && !unavailable },
  );

  if (webhooks.error) return <LoadError error={webhooks.error} onRetry={webhooks.refresh} />;

  const body = (() => {
    switch (mode.kind) {
      case 'deliveries':
        return (
          <DeliveriesView
            webhook={mode.webhook}
            notice={notice}
            onTest={() => sendTest(mode.webhook)}
            onBack={() => {
              setNotice(undefined);
              setMode({ kind: 'list' });
            }}
          />
        );
      case 'pick-account':
        return (
          <AccountPicker
            title="New webhook endpoint for which account?"
            accounts={accounts.data}
            width={area.width}
            maxRows={Math.max(3, area.height - 4)}
            onCancel={toList}
            onNone={noAccounts}
            onPick={toUrl}
          />
        );
      case 'url':
        return (
          <TextPrompt
            label={`Endpoint URL for ${truncate(names.get(mode.accountId) ?? mode.accountId, 40)}`}
            placeholder="https://hooks.example.com/vectorize"
            onCancel={() => setMode({ kind: 'list' })}
            onSubmit={(url) => {
              const accountId = mode.accountId;
              setMode({ kind: 'list' });
              void act(
                () => admin.createWebhook({ accountId, url }),
                (created) => `Registered ${truncate(created.webhook.url, 50)}.`,
              ).then((created) => {
                if (created) setMode({ kind: 'secret', secret: created.secret, url: created.webhook.url });
                webhooks.refresh();
              });
            }}
          />
        );
      case 'secret':
        return (
          <SecretNotice
            title={`Signing secret for ${truncate(mode.url, 50)}`}
            secret={mode.secret}
            onDismiss={() => setMode({ kind: 'list' })}
          />
        );
      case 'confirm-delete': {
        const webhook = mode.webhook;
        return (
          <Confirm
            question={`Delete the endpoint ${truncate(webhook.url, 50)}?`}
            detail={`${names.get(webhook.account_id) ?? webhook.account_id} stops receiving events there; pending retries are dropped.`}
            onCancel={() => setMode({ kind: 'list' })}
            onConfirm={() => {
              setMode({ kind: 'list' });
              void act(
                () => admin.deleteWebhook(webhook.id),
                () => `Deleted ${truncate(webhook.url, 50)}.`,
              ).then(() => webhooks.refresh());
            }}
          />
        );
      }
      case 'list':
        return (
          <Table
            columns={WEBHOOK_COLUMNS}
            cursor={cursor}
            width={area.width}
            height={area.height - 1}
            empty={webhooks.loading ? 'Loading webhooks…' : 'No webhook endpoints. Press n to register one.'}
            rows={list.map((webhook) => ({
              key: webhook.id,
              cells: [webhook.url, names.get(webhook.account_id) ?? webhook.account_id, formatDateTime(webhook.created_at), webhook.id],
            }))}
          />
        );
    }
  })();

  return (
    <Box flexDirection="column">
      {body}
      {mode.kind === 'secret' || mode.kind === 'deliveries' ? null : <NoticeLine notice={notice} />}
    </Box>
  );
}

/** Recent deliveries of one endpoint: failed ones with how many attempts they took and why. */
function DeliveriesView(props: {
  webhook: AdminWebhook;
  notice: Notice | undefined;
  onTest: () => void;
  onBack: () => void;
}): React.JSX.Element {
  const area = useContext(BodyAreaContext);
  const deliveries = useDeliveries(props.webhook.id);
  const list = deliveries.data ?? [];
  const [cursor] = useListCursor(list.length);
  useScreenKeys([
    { keys: '↑↓/jk', label: 'move' },
    { keys: 't', label: 'send test event' },
    { keys: 'Esc', label: 'back' },
  ]);
  useInput((input, key) => {
    if (key.escape) props.onBack();
    else if (input === 't') props.onTest();
  });
  const failed = list.filter((delivery) => delivery.status === 'failed').length;
  const retrying = list.some((delivery) => delivery.status === 'pending' && delivery.next_attempt_at);
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {`Deliveries to ${props.webhook.url}`}
      </Text>
      <Text dimColor wrap="truncate-end">
        {`${list.length} recent, ${failed} failed · retried 3 times with backoff after the first try`}
      </Text>
      {deliveries.error ? (
        <LoadError error={deliveries.error} onRetry={deliveries.refresh} />
      ) : (
        <Table
          columns={retrying ? [...DELIVERY_COLUMNS, NEXT_TRY_COLUMN] : DELIVERY_COLUMNS}
          cursor={cursor}
          width={area.width}
          height={area.height - 3}
          empty={deliveries.loading ? 'Loading deliveries…' : 'No deliveries yet. Press t to send a test event.'}
          rows={list.map((delivery) => ({
            key: delivery.id,
            hue: DELIVERY_HUE[delivery.status],
            cells: [
              formatDateTime(delivery.created_at).slice(5),
              delivery.event,
              delivery.status,
              String(delivery.attempts),
              delivery.last_status_code === null ? '—' : String(delivery.last_status_code),
              delivery.last_error ?? '',
              delivery.next_attempt_at && delivery.status === 'pending' ? formatDateTime(delivery.next_attempt_at).slice(11) : '',
            ],
          }))}
        />
      )}
      <NoticeLine notice={props.notice} />
    </Box>
  );
}
