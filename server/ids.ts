import { randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform base62 from the CSPRNG (randomInt avoids the modulo bias of byte % 62). */
export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

export type IdPrefix = 'job' | 'acct' | 'key' | 'whk' | 'fld' | 'rpt' | 'evt' | 'dlv';

/** docs/api.md, "Resources and ids": prefix, underscore, at least 16 random base62 characters. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(20)}`;
}
