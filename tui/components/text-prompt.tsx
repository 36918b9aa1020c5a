import { Box, Text, useInput } from 'ink';
import { useRef, useState } from 'react';
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
  const [value, setValueState] = useState(props.initial ?? '');
  // The text as typed so far, read by Enter: a paste followed at once by Enter arrives before
  // React has re-rendered, when `value` in this closure is still the text before the paste.
  const current = useRef(value);
  const setValue = (update: (previous: string) => string): void => {
    current.current = update(current.current);
    setValueState(current.current);
  };
  const submit = (): void => {
    const text = current.current.trim();
    if (text !== '' || props.allowEmpty) props.onSubmit(text);
  };
  useScreenKeys(
    [
      { keys: 'Enter', label: 'done' },
      { keys: 'Esc', label: 'cancel' },
    ],
    { captureText: true },
  );
  useInput((input, key) => {
    if (key.escape) props.onCancel();
    else if (key.return) submit();
    else if (key.backspace || key.delete) setValue((text) => Array.from(text).slice(0, -1).join(''));
    else if (!key.ctrl && !key.meta && !key.tab && !key.upArrow && !key.downArrow && !key.leftArrow && !key.rightArrow && input) {
      // Pasted text arrives as one chunk, sometimes with the Enter that followed it inside;
      // control characters never belong in a name or URL.
      const line = /^([^\r\n]*)[\r\n]/.exec(input);
      setValue((text) => text + (line ? line[1] : input).replace(/[\u0000-\u001f\u007f]/g, ''));
      if (line) submit();
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
