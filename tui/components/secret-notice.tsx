import { Box, Text, useInput } from 'ink';
import { useScreenKeys } from '../hooks/use-screen-keys.js';
import { SUCCESS } from '../theme.js';

/**
 * A secret the server returns only at creation (an API key, a webhook signing secret). It is held
 * in the creating screen's state alone and dropped on the next key press or when the screen
 * closes; the secret is never cut, because a truncated secret is useless.
 */
export function SecretNotice(props: { title: string; secret: string; onDismiss: () => void }): React.JSX.Element {
  useScreenKeys([{ keys: 'any key', label: 'hide the secret (it will not be shown again)' }]);
  useInput(() => props.onDismiss());
  return (
    <Box flexDirection="column" borderStyle="double" borderColor={SUCCESS} paddingX={1}>
      <Text bold wrap="truncate-end">
        {props.title}
      </Text>
      <Text bold>{props.secret}</Text>
      <Text wrap="wrap">Copy it now: it is shown this once and cannot be shown again.</Text>
    </Box>
  );
}
