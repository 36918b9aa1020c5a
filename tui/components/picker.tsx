import { Box, Text, useInput } from 'ink';
import { useListCursor } from '../hooks/use-list-cursor.js';
import { useScreenKeys } from '../hooks/use-screen-keys.js';
import { truncate } from '../format.js';

export interface PickerOption<T> {
  value: T;
  label: string;
  note?: string;
}

/** Choose one of a few options with ↑/↓ and Enter (a plan, an account). */
export function Picker<T>(props: {
  title: string;
  options: PickerOption<T>[];
  width: number;
  maxRows?: number;
  initialIndex?: number;
  onPick: (value: T) => void;
  onCancel: () => void;
}): React.JSX.Element {
  // Starts on the current value (the account's plan) rather than the top of the list.
  const [cursor] = useListCursor(props.options.length, { initial: props.initialIndex });
  useScreenKeys([
    { keys: '↑↓/jk', label: 'choose' },
    { keys: 'Enter', label: 'select' },
    { keys: 'Esc', label: 'cancel' },
  ]);
  useInput((_input, key) => {
    const option = props.options[cursor];
    if (key.return && option) props.onPick(option.value);
    else if (key.escape) props.onCancel();
  });
  const rows = Math.max(1, props.maxRows ?? props.options.length);
  const start = Math.min(Math.max(0, cursor - rows + 1), Math.max(0, props.options.length - rows));
  const inner = Math.max(10, props.width - 4);
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold wrap="truncate-end">
        {props.title}
      </Text>
      {props.options.slice(start, start + rows).map((option, offset) => (
        <Text key={String(start + offset)} inverse={start + offset === cursor} wrap="truncate-end">
          {truncate(`${option.label}${option.note ? `  ${option.note}` : ''}`, inner)}
        </Text>
      ))}
    </Box>
  );
}
