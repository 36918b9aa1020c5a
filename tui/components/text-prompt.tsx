import { Box, Text, useInput } from 'ink';
import { useState } from 'react';
import { useScreenKeys } from '../hooks/use-screen-keys.js';

/**
 * A one-line text field. While it is open the shell's global keys are off, so `q` or `2` type
 * themselves instead of quitting or switching screens.
 */
export function TextPrompt(props: {
  label: string;
  placeholder?: string;
  initial?: string;
  allowEmpty?: boolean;
  onSubmit: (value: string) => void;
  onCancel: () => void;
}): React.JSX.Element {
  const [value, setValue] = useState(props.initial ?? '');
  useScreenKeys(
    [
      { keys: 'Enter', label: 'done' },
      { keys: 'Esc', label: 'cancel' },
    ],
    { captureText: true },
  );
  useInput((input, key) => {
    if (key.escape) props.onCancel();
    else if (key.return) {
      if (value.trim() !== '' || props.allowEmpty) props.onSubmit(value.trim());
    } else if (key.backspace || key.delete) setValue((current) => Array.from(current).slice(0, -1).join(''));
    else if (!key.ctrl && !key.meta && !key.tab && !key.upArrow && !key.downArrow && !key.leftArrow && !key.rightArrow && input) {
      // Pasted text arrives as one chunk; control characters never belong in a name or URL.
      setValue((current) => current + input.replace(/[\u0000-\u001f\u007f]/g, ''));
    }
  });
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>{props.label}</Text>
      <Text wrap="truncate-start">
        {value === '' && props.placeholder ? <Text dimColor>{props.placeholder}</Text> : value}
        <Text inverse> </Text>
      </Text>
    </Box>
  );
}
