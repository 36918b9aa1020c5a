/**
 * Text helpers for fixed-width terminal rows. Rows are cut to the terminal width here, before Ink
 * sees them, so a narrow or resized terminal shows shorter rows instead of wrapped ones.
 */
const ELLIPSIS = '…';

/** Cuts `text` to `width` columns, marking the cut with an ellipsis. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return '';
  const chars = Array.from(text.replace(/[\r\n\t]+/g, ' '));
  if (chars.length <= width) return chars.join('');
  if (width === 1) return ELLIPSIS;
  return chars.slice(0, width - 1).join('') + ELLIPSIS;
}

/** Truncates then pads to exactly `width` columns. */
export function cell(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const cut = truncate(text, width);
  const pad = ' '.repeat(Math.max(0, width - Array.from(cut).length));
  return align === 'right' ? pad + cut : cut + pad;
}

/** `2025-03-04 17:05` in UTC: admins compare these with server logs, which are UTC. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return date.toISOString().slice(0, 16).replace('T', ' ');
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return date.toISOString().slice(0, 10);
}

/** "3m ago", "2d ago": how long ago, coarse, for last-used columns. */
export function formatAgo(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return 'never';
  const then = new Date(iso).getTime();
  if (Number.isNaN(then)) return '—';
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 60) return `${seconds}s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours}h ago`;
  return `${Math.round(hours / 24)}d ago`;
}

/** Text progress bar: `█████░░░░░`; block characters read on light and dark backgrounds alike. */
export function progressBar(percent: number, width: number): string {
  const clamped = Math.min(100, Math.max(0, Number.isFinite(percent) ? percent : 0));
  const filled = Math.round((clamped / 100) * width);
  return '█'.repeat(filled) + '░'.repeat(Math.max(0, width - filled));
}

/** The masked form of a key as listings show it: prefix, ellipsis, last four (docs/api.md, "Authentication and keys"). */
export function maskedKey(prefix: string, last4: string): string {
  return `${prefix}…${last4}`;
}

export function formatCount(value: number | null | undefined): string {
  if (value === null || value === undefined) return '∞';
  return value.toLocaleString('en-US');
}
