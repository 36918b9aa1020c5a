import { useInput } from 'ink';
import { useEffect, useState } from 'react';

/**
 * The selected row of a list: ↑/↓ or k/j move it, Home/End (g/G) jump; kept in range when the
 * list shrinks (a revoked key, a finished job).
 */
export function useListCursor(length: number, options: { isActive?: boolean; initial?: number } = {}): [number, (index: number) => void] {
  const [index, setIndex] = useState(options.initial ?? 0);
  useEffect(() => {
    if (index > 0 && index >= length) setIndex(Math.max(0, length - 1));
  }, [index, length]);
  useInput(
    (input, key) => {
      if (length === 0) return;
      if (key.upArrow || input === 'k') setIndex((value) => Math.max(0, value - 1));
      else if (key.downArrow || input === 'j') setIndex((value) => Math.min(length - 1, value + 1));
      else if (key.pageUp) setIndex((value) => Math.max(0, value - 10));
      else if (key.pageDown) setIndex((value) => Math.min(length - 1, value + 10));
      else if (key.home || input === 'g') setIndex(0);
      else if (key.end || input === 'G') setIndex(length - 1);
    },
    { isActive: options.isActive ?? true },
  );
  return [Math.min(index, Math.max(0, length - 1)), setIndex];
}
