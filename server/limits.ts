/**
 * The API's size and time units, written once. Dependency-free so the desktop app and the page can
 * import the same numbers (docs/api.md, "Limits").
 */

/** `POST /v1/vectorize` refuses a larger file with 413 file_too_large. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
/**
 * The limit as messages and the page write it: binary units, with the exact bytes. The thousands
 * are grouped by hand: toLocaleString loads ICU's locale data, a few hundredths of a second of
 * every process that imports this file (`vectorize convert` does, for the plans' pixel limit).
 */
export const MAX_UPLOAD_TEXT = `${MAX_UPLOAD_BYTES / 2 ** 20} MiB (${String(MAX_UPLOAD_BYTES).replace(/\B(?=(\d{3})+$)/g, ',')} bytes)`;

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
