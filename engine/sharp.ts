/**
 * sharp, loaded through require rather than `import`, and only when first called. Its ES-module
 * build costs a cold process about twice the CPU of the CommonJS one (Node parses each CommonJS
 * dependency it pulls in for named exports); loading its native library at all costs about a
 * tenth of a second, which a `vectorize convert` of one plain PNG (decode/png.ts) never needs.
 * Both builds drive the same native addon; the engine reaches sharp only through this module.
 */
import { createRequire } from 'node:module';
import type sharpModule from 'sharp';

let loaded: typeof sharpModule | null = null;

export const sharp = ((...args: Parameters<typeof sharpModule>) => {
  loaded ??= createRequire(import.meta.url)('sharp') as typeof sharpModule;
  return loaded(...args);
}) as typeof sharpModule;
