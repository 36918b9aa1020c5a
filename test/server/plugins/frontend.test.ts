import t from 'tap';
import Hapi from '@hapi/hapi';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FRONT_END_CSP, defaultFrontendRoot, frontendPlugin } from '../../../server/plugins/frontend.js';

async function serverWith(root: string) {
  const server = Hapi.server();
  await server.register({ plugin: frontendPlugin, options: { root } });
  return server;
}

t.test('serves the built page and its assets without a key, with a strict CSP', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'vectorize-frontend-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  await writeFile(join(root, 'index.html'), '<!doctype html><title>Vectorize</title>');
  await writeFile(join(root, 'app.js'), 'console.log(1)');
  await writeFile(join(root, 'app.css'), 'body{}');
  await writeFile(join(root, 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(join(root, 'secret.txt'), 'not routed');
  const server = await serverWith(root);

  const page = await server.inject('/');
  t.equal(page.statusCode, 200);
  t.match(page.headers['content-type'], /text\/html/);
  t.match(page.payload, /<title>Vectorize<\/title>/);
  const csp = String(page.headers['content-security-policy']);
  t.equal(csp, FRONT_END_CSP);
  t.match(csp, /default-src 'none'/);
  t.match(csp, /script-src 'self'(;|$)/, 'scripts only from the page origin, nothing inline');
  t.notMatch(csp, /unsafe-inline|unsafe-eval|\*/);
  t.match(csp, /connect-src 'self'/, 'the page talks only to its own API');
  t.match(csp, /frame-ancestors 'none'/);
  t.equal(page.headers['x-content-type-options'], 'nosniff');

  for (const [path, type] of [
    ['/app.js', /javascript/],
    ['/app.css', /text\/css/],
    ['/icon.svg', /image\/svg\+xml/],
  ] as const) {
    const response = await server.inject(path);
    t.equal(response.statusCode, 200, path);
    t.match(response.headers['content-type'], type, path);
    t.equal(response.headers['content-security-policy'], FRONT_END_CSP, `${path} carries the CSP`);
  }
});

t.test('routes only the built files: no directory listing, no traversal', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'vectorize-frontend-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  await writeFile(join(root, 'index.html'), 'x');
  await writeFile(join(root, 'secret.txt'), 'not routed');
  const server = await serverWith(root);
  for (const path of ['/secret.txt', '/../package.json', '/%2e%2e/package.json', '/app.js.map', '/index.html/']) {
    const response = await server.inject(path);
    t.equal(response.statusCode, 404, path);
    t.notMatch(response.payload, /not routed/);
  }
});

t.test('a missing build answers 404 for the page instead of crashing the server', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'vectorize-frontend-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const server = await serverWith(root);
  t.equal((await server.inject('/')).statusCode, 404);
});

t.test('registers alongside another user of inert (hapi-swagger) and validates its options', async (t) => {
  const server = Hapi.server();
  const Inert = (await import('@hapi/inert')).default;
  await server.register(Inert);
  await t.resolves(server.register({ plugin: frontendPlugin, options: { root: tmpdir() } }));
  await t.rejects(Hapi.server().register({ plugin: frontendPlugin, options: { root: 42 } as never }), /root/);
});

t.test('the default root is the package dist/renderer', async (t) => {
  t.match(defaultFrontendRoot(), /dist[\\/]renderer$/);
});
