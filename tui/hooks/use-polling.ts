import { useCallback, useEffect, useRef, useState } from 'react';

export interface Polled<T> {
  data: T | undefined;
  error: unknown;
  /** True until the first answer (or failure) arrives. */
  loading: boolean;
  /** Loads again now and restarts the interval. */
  refresh: () => void;
}

/**
 * Loads `load()` now and again every `intervalMs` (none when omitted). The next load is scheduled
 * only after the previous one settled, so a slow server never gets overlapping requests; the
 * timer dies with the component.
 */
export function usePolling<T>(load: () => Promise<T>, options: { intervalMs?: number; key?: string } = {}): Polled<T> {
  const { intervalMs, key = '' } = options;
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    let alive = true;
    let timer: NodeJS.Timeout | undefined;
    const tick = async (): Promise<void> => {
      try {
        const data = await loadRef.current();
        if (alive) setState({ data, error: undefined, loading: false });
      } catch (error) {
        if (alive) setState((previous) => ({ data: previous.data, error, loading: false }));
      }
      if (alive && intervalMs !== undefined) timer = setTimeout(() => void tick(), intervalMs);
    };
    void tick();
    return () => {
      alive = false;
      if (timer) clearTimeout(timer);
    };
  }, [intervalMs, key, generation]);

  const refresh = useCallback(() => setGeneration((value) => value + 1), []);
  return { ...state, refresh };
}
