import { Box, Text, useInput } from 'ink';
import { ApiError, UnreachableError } from '../../client/http.js';
import { FeatureUnavailableError } from '../../client/admin.js';
import { useScreenKeys } from '../hooks/use-screen-keys.js';
import { DANGER } from '../theme.js';

/**
 * Why a screen has nothing to show, in words an admin can act on, with `r` to try again (the
 * screen also keeps polling, so a server that comes back is picked up on its own).
 */
export function LoadError(props: { error: unknown; onRetry: () => void }): React.JSX.Element {
  const { error } = props;
  useScreenKeys([{ keys: 'r', label: 'retry' }]);
  useInput((input) => {
    if (input === 'r') props.onRetry();
  });
  if (error instanceof FeatureUnavailableError) {
    return (
      <Box flexDirection="column" paddingX={1}>
        <Text bold>{error.feature} are not available on this server.</Text>
        <Text dimColor wrap="wrap">
          Its admin API has no routes for them yet; a newer server version adds them.
        </Text>
      </Box>
    );
  }
  let title: string;
  let advice: string;
  if (error instanceof UnreachableError) {
    title = `Cannot reach the Vectorize server at ${error.baseUrl}.`;
    advice = 'Start it on this data dir with `npm start` (or `vectorize serve`), then press r to retry.';
  } else if (error instanceof ApiError && error.status === 401) {
    title = 'The server refused the admin token.';
    advice = 'Point --data-dir at the data dir of the running server (its admin.token), then press r.';
  } else if (error instanceof ApiError && error.status === 403) {
    title = 'The server accepts admin calls from its own machine only.';
    advice = 'Run `vectorize tui` on the server itself (for example over SSH).';
  } else {
    title = 'The server answered with an error.';
    advice = error instanceof Error ? error.message : String(error);
  }
  return (
    <Box flexDirection="column" paddingX={1}>
      <Text bold color={DANGER}>
        {title}
      </Text>
      <Text wrap="wrap">{advice}</Text>
    </Box>
  );
}
