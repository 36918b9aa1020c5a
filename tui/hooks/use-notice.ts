import { useCallback, useState } from 'react';

export interface Notice {
  tone: 'ok' | 'error';
  text: string;
}

/**
 * A one-line outcome of the last action ("Revoked key …", or why it failed), and `act` to run an
 * action with its outcome reported there.
 */
export function useNotice(): {
  notice: Notice | undefined;
  setNotice: (notice: Notice | undefined) => void;
  act: <T>(work: () => Promise<T>, success: (result: T) => string) => Promise<T | undefined>;
} {
  const [notice, setNotice] = useState<Notice | undefined>();
  const act = useCallback(async <T>(work: () => Promise<T>, success: (result: T) => string): Promise<T | undefined> => {
    try {
      const result = await work();
      setNotice({ tone: 'ok', text: success(result) });
      return result;
    } catch (error) {
      setNotice({ tone: 'error', text: describeError(error) });
      return undefined;
    }
  }, []);
  return { notice, setNotice, act };
}

function describeError(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && 'message' in error) {
    return `${String((error as { message: unknown }).message)} (${String((error as { code: unknown }).code)})`;
  }
  return error instanceof Error ? error.message : String(error);
}
