/**
 * sharp, loaded through require rather than `import`. Its ES-module build costs a cold process
 * about twice the CPU of the CommonJS one (Node parses each CommonJS dependency it pulls in for
 * named exports), and every `vectorize convert` of one image pays that before its first pixel.
 * Both builds drive the same native addon; the engine reaches sharp only through this module.
 */
import { createRequire } from 'node:module';
import type sharpModule from 'sharp';

export const sharp: typeof sharpModule = createRequire(import.meta.url)('sharp');
