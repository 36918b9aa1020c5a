import { Box, Text, useInput } from 'ink';
import { useScreenKeys } from '../hooks/use-screen-keys.js';
import { DANGER } from '../theme.js';

/** A yes/no question for destructive actions; only `y` confirms, anything else is Esc/n away. */
export function Confirm(props: { question: string; detail?: string; onConfirm: () => void; onCancel: () => void }): React.JSX.Element {
  useScreenKeys([
    { keys: 'y', label: 'confirm' },
    { keys: 'n/Esc', label: 'cancel' },
  ]);
  useInput((input, key) => {
    if (input === 'y' || input === 'Y') props.onConfirm();
    else if (input === 'n' || input === 'N' || key.escape) props.onCancel();
  });
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={DANGER} paddingX={1}>
      <Text bold wrap="truncate-end">
        {props.question}
      </Text>
      {props.detail ? <Text wrap="wrap">{props.detail}</Text> : null}
      <Text dimColor>Press y to confirm, n or Esc to cancel.</Text>
    </Box>
  );
}
