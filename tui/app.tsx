import { Box, Text, useApp, useInput } from 'ink';
import { useCallback, useMemo, useRef, useState } from 'react';
import type { AdminApi } from '../client/admin.js';
import { Footer } from './components/footer.js';
import { Tabs } from './components/tabs.js';
import { AdminApiContext, BodyAreaContext, ChromeContext, type Chrome, type HintLayer, type KeyHint } from './context.js';
import { truncate } from './format.js';
import { useServer } from './hooks/use-server.js';
import { useTerminalSize } from './hooks/use-terminal-size.js';
import { AccountsScreen } from './screens/accounts-screen.js';
import { JobsScreen } from './screens/jobs-screen.js';
import { KeysScreen } from './screens/keys-screen.js';
import { ReportsScreen } from './screens/reports-screen.js';
import { WebhooksScreen } from './screens/webhooks-screen.js';
import { DANGER, SUCCESS } from './theme.js';

export const SCREENS = [
  { id: 'accounts', title: 'Accounts', Screen: AccountsScreen },
  { id: 'keys', title: 'Keys', Screen: KeysScreen },
  { id: 'webhooks', title: 'Webhooks', Screen: WebhooksScreen },
  { id: 'jobs', title: 'Jobs', Screen: JobsScreen },
  { id: 'reports', title: 'Reports', Screen: ReportsScreen },
] as const;

export type ScreenId = (typeof SCREENS)[number]['id'];

const GLOBAL_HINTS: KeyHint[] = [
  { keys: '1-5/Tab', label: 'screens' },
  { keys: 'q', label: 'quit' },
];

// Header, tabs, a spacer and the footer; one more line stays free because Ink redraws the whole
// screen (and flickers) once its output is as tall as the terminal.
const CHROME_ROWS = 5;

/**
 * The shell: header with the server's state, tabs, the current screen, and a footer listing the
 * keys that work right now. Only the current screen is mounted, so leaving a screen drops its
 * state (a new key's secret included).
 */
export function App(props: { client: AdminApi; initialScreen?: ScreenId }): React.JSX.Element {
  return (
    <AdminApiContext.Provider value={props.client}>
      <Shell initialScreen={props.initialScreen ?? 'accounts'} />
    </AdminApiContext.Provider>
  );
}

function Shell(props: { initialScreen: ScreenId }): React.JSX.Element {
  const { exit } = useApp();
  const { columns, rows } = useTerminalSize();
  const [screenIndex, setScreenIndex] = useState(() =>
    Math.max(
      0,
      SCREENS.findIndex((screen) => screen.id === props.initialScreen),
    ),
  );
  const layers = useRef<HintLayer[]>([]);
  const [topLayer, setTopLayer] = useState<HintLayer | undefined>();
  const chrome = useMemo<Chrome>(
    () => ({
      pushLayer(layer) {
        layers.current = [...layers.current, layer];
        setTopLayer(layer);
        return () => {
          layers.current = layers.current.filter((entry) => entry !== layer);
          setTopLayer(layers.current.at(-1));
        };
      },
    }),
    [],
  );

  const go = useCallback((index: number) => setScreenIndex((index + SCREENS.length) % SCREENS.length), []);
  useInput((input, key) => {
    if (topLayer?.captureText) return;
    if (key.tab) go(screenIndex + (key.shift ? -1 : 1));
    else if (/^[1-5]$/.test(input)) go(Number(input) - 1);
    else if (input === 'q') exit();
  });

  const width = Math.max(20, columns);
  const body = { width, height: Math.max(3, rows - CHROME_ROWS) };
  const { Screen } = SCREENS[screenIndex];
  return (
    <ChromeContext.Provider value={chrome}>
      <Box flexDirection="column" width={width}>
        <Header width={width} />
        <Tabs tabs={SCREENS} active={SCREENS[screenIndex].id} width={width} />
        <Box height={body.height + 1} flexDirection="column" overflow="hidden" paddingTop={1}>
          <BodyAreaContext.Provider value={body}>
            <Screen />
          </BodyAreaContext.Provider>
        </Box>
        <Footer hints={[...(topLayer?.hints ?? []), ...(topLayer?.captureText ? [] : GLOBAL_HINTS)]} width={width} />
      </Box>
    </ChromeContext.Provider>
  );
}

function Header(props: { width: number }): React.JSX.Element {
  const server = useServer();
  const online = server.data !== undefined && server.error === undefined;
  const state = server.loading ? 'connecting…' : online ? '● online' : '○ unreachable';
  const queue = online && server.data ? ` · ${server.data.queue_length} queued, ${server.data.processing} running` : '';
  const title = 'Vectorize admin';
  const rest = truncate(` ${server.baseUrl}${queue}`, Math.max(0, props.width - title.length - state.length - 2));
  return (
    <Box width={props.width} justifyContent="space-between">
      <Text wrap="truncate-end">
        <Text bold>{title}</Text>
        <Text dimColor>{rest}</Text>
      </Text>
      <Text color={server.loading ? undefined : online ? SUCCESS : DANGER}>{state}</Text>
    </Box>
  );
}
