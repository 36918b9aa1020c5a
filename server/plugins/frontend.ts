/**
 * GET / and its three assets: the drag-and-drop front end (built by app/renderer/build.ts into
 * dist/renderer/), served without auth (docs/api.md, "Authentication and keys") so a studio's LAN browser can open it;
 * the page asks for a key itself. Only the built files are routed, never a directory, so nothing
 * else under dist/ (server code, source maps) can be fetched through this plugin.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin, ResponseObject } from '@hapi/hapi';
import Inert from '@hapi/inert';
import Joi from 'joi';
import type { AppContext } from '../context.js';

const optionsSchema = Joi.object({
  app: Joi.object(),
  /** Folder holding index.html, app.js, app.css and icon.svg; defaults to the package's dist/renderer. */
  root: Joi.string(),
});

interface FrontendOptions {
  app?: AppContext;
  root?: string;
}

/**
 * The page runs one bundled script and one stylesheet from its own origin and talks only to the
 * /v1 API there. Results are shown as blob: images (an SVG inside <img> runs no script), so
 * blob: is the one extra source. No inline script or style, no frames, no plugins, no forms
 * posting elsewhere. The desktop app enforces the same policy on its window.
 */
export const FRONT_END_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': FRONT_END_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  // Unhashed file names: revalidate (ETag) on every load so an upgraded server is seen at once.
  'cache-control': 'no-cache',
};

/** The files the build writes; each gets its own route so a missing build answers 404 per file. */
const ASSETS: Record<string, string> = {
  '/': 'index.html',
  '/app.js': 'app.js',
  '/app.css': 'app.css',
  '/icon.svg': 'icon.svg',
};

/** dist/renderer of this package, found from this module whether it runs from source or from dist/. */
export function defaultFrontendRoot(from = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'dist', 'renderer');
    const parent = dirname(dir);
    if (parent === dir) return join(from, '..', '..', 'renderer');
    dir = parent;
  }
}

export const frontendPlugin: Plugin<FrontendOptions> = {
  name: 'frontend',
  async register(server, rawOptions) {
    const options = Joi.attempt(rawOptions ?? {}, optionsSchema) as FrontendOptions;
    const root = options.root ?? defaultFrontendRoot();
    // hapi-swagger needs inert as well; `once` lets both register it without a clash.
    await server.register({ plugin: Inert, once: true });
    if (!existsSync(join(root, 'index.html'))) {
      options.app?.log.warn('front end not built; / answers 404 until `npm run build`', { root });
    }
    for (const [path, file] of Object.entries(ASSETS)) {
      server.route({
        method: 'GET',
        path,
        options: {
          auth: false,
          description: 'The drag-and-drop front end (no key needed to load it)',
          // Not tagged 'api', so hapi-swagger leaves it out of the OpenAPI document.
          tags: ['frontend'],
          handler: (_request, h) => {
            const response = h.file(join(root, file), { confine: root, etagMethod: 'hash' }) as ResponseObject;
            for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.header(name, value);
            return response;
          },
        },
      });
    }
  },
};
