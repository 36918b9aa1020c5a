import { Box, Text } from 'ink';
import type { KeyHint } from '../context.js';

/** The keys of the current screen on one line; cut, not wrapped, when the terminal is narrow. */
export function Footer(props: { hints: KeyHint[]; width: number }): React.JSX.Element {
  return (
    <Box width={props.width}>
      <Text wrap="truncate-end">
        {props.hints.map((hint, index) => (
          <Text key={hint.keys + hint.label}>
            {index > 0 ? <Text dimColor>{'  '}</Text> : null}
            <Text bold>{hint.keys}</Text>
            <Text dimColor>{` ${hint.label}`}</Text>
          </Text>
        ))}
      </Text>
    </Box>
  );
}
