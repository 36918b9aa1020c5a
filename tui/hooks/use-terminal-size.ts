import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

interface TerminalSize {
  columns: number;
  rows: number;
}

// 80×24 is the smallest terminal the TUI is laid out for; a stream that reports no size
// (a pipe, a test double) is treated as that.
const FALLBACK: TerminalSize = { columns: 80, rows: 24 };

function read(stdout: NodeJS.WriteStream): TerminalSize {
  return { columns: stdout.columns || FALLBACK.columns, rows: stdout.rows || FALLBACK.rows };
}

/** The terminal's size, updated on resize. */
export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => read(stdout));
  useEffect(() => {
    const onResize = (): void => setSize(read(stdout));
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
