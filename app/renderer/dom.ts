/** The page's few DOM helpers: element lookup that fails loudly, the toast and the live region. */
import { describeError, toPlainError } from './errors.js';

export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`front end markup lacks #${id}`);
  return element as T;
}

const TOAST_MS = 5_000;

/** Messages to the person: a toast for what went wrong, the live region for what a screen reader should hear. */
export class Notices {
  private toastTimer: ReturnType<typeof setTimeout> | undefined;

  toast(message: string): void {
    const element = $('toast');
    element.textContent = message;
    element.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => (element.hidden = true), TOAST_MS);
  }

  /** Any thrown value, in the same plain words the queue uses. */
  error(error: unknown): void {
    this.toast(describeError(toPlainError(error)));
  }

  announce(message: string): void {
    $('announcer').textContent = message;
  }
}
