import { Text } from 'ink';
import type { Notice } from '../hooks/use-notice.js';
import { DANGER, SUCCESS } from '../theme.js';

export function NoticeLine(props: { notice: Notice | undefined }): React.JSX.Element | null {
  if (!props.notice) return null;
  return (
    <Text color={props.notice.tone === 'ok' ? SUCCESS : DANGER} wrap="truncate-end">
      {props.notice.text}
    </Text>
  );
}
