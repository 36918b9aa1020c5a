import { Box, Text } from 'ink';
import type { Hue } from '../theme.js';
import { cell } from '../format.js';

export interface Column {
  title: string;
  width: number;
  align?: 'left' | 'right';
  /** Takes the width left over by the fixed columns. */
  flex?: boolean;
  /** Dropped (last first) when the terminal is too narrow for every column. */
  optional?: boolean;
}

interface TableRow {
  key: string;
  cells: string[];
  hue?: Hue;
  dim?: boolean;
}

const GAP = 1;

/** Fits the columns to `width`: drops optional ones from the right, then sizes the flex column. */
function layoutColumns(columns: Column[], width: number): { column: Column; index: number; width: number }[] {
  let kept = columns.map((column, index) => ({ column, index, width: column.width }));
  const total = (list: typeof kept): number => list.reduce((sum, entry) => sum + entry.width, 0) + GAP * Math.max(0, list.length - 1);
  for (let i = kept.length - 1; i >= 0 && total(kept) > width; i -= 1) {
    if (kept[i].column.optional) kept = kept.filter((_, keep) => keep !== i);
  }
  const flex = kept.find((entry) => entry.column.flex);
  if (flex) flex.width = Math.max(flex.column.width, flex.width + (width - total(kept)));
  return kept;
}

/**
 * Rows of fixed-width cells, one terminal line each, scrolled so the cursor row stays visible
 * within `height` lines (the header line included). The cursor row is drawn inverse.
 */
export function Table(props: {
  columns: Column[];
  rows: TableRow[];
  cursor?: number;
  width: number;
  height: number;
  empty?: string;
}): React.JSX.Element {
  const { columns, rows, cursor = -1, width, height } = props;
  const layout = layoutColumns(columns, width);
  const line = (cells: string[]): string =>
    layout.map((entry) => cell(cells[entry.index] ?? '', entry.width, entry.column.align)).join(' '.repeat(GAP));
  const visible = Math.max(1, height - 1);
  const start = Math.min(Math.max(0, cursor - visible + 1), Math.max(0, rows.length - visible));
  const shown = rows.slice(start, start + visible);
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {line(columns.map((column) => column.title))}
      </Text>
      {rows.length === 0 ? (
        <Text dimColor wrap="truncate-end">
          {props.empty ?? 'Nothing here yet.'}
        </Text>
      ) : (
        shown.map((row, offset) => (
          <Text key={row.key} wrap="truncate-end" inverse={start + offset === cursor} color={row.hue} dimColor={row.dim}>
            {line(row.cells)}
          </Text>
        ))
      )}
    </Box>
  );
}
