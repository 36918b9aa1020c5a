import { useContext, useEffect } from 'react';
import { ChromeContext, type KeyHint } from '../context.js';

/**
 * Shows `hints` in the footer while the calling component is mounted and `active`. A screen passes
 * `active: false` while one of its dialogs is open, so the dialog's hints (pushed by the dialog
 * itself) are the ones shown, and the screen's come back when it closes. `captureText` keeps the
 * shell's global keys (q, 1-5, Tab) away from a text prompt.
 */
export function useScreenKeys(hints: KeyHint[], options: { captureText?: boolean; active?: boolean } = {}): void {
  const chrome = useContext(ChromeContext);
  const active = options.active ?? true;
  const captureText = options.captureText ?? false;
  // `hints` is a fresh array each render; its content is what matters.
  const signature = JSON.stringify(hints);
  useEffect(() => {
    if (!active) return undefined;
    return chrome.pushLayer({ hints: JSON.parse(signature) as KeyHint[], captureText });
  }, [chrome, signature, captureText, active]);
}
