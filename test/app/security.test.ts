import t from 'tap';
import { FRONT_END_CSP, hardenSession, hardenWebContents, isAppUrl, secureWebPreferences } from '../../app/security.js';
import { FakeSession, FakeWebContents } from './helpers/fake-electron.js';

const ORIGIN = 'http://127.0.0.1:43123';

t.test('every window runs sandboxed and isolated, with no Node and no webviews', async (t) => {
  const prefs = secureWebPreferences('/app/dist/app/preload.cjs');
  t.same(prefs, {
    preload: '/app/dist/app/preload.cjs',
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webviewTag: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
    devTools: false,
  });
  t.equal(secureWebPreferences('/p', { devTools: true }).devTools, true, 'dev tools only when asked (development)');
});

t.test('navigation away from the embedded server and new windows are blocked', async (t) => {
  const contents = new FakeWebContents();
  hardenWebContents(contents as never, ORIGIN);
  const attempt = (event: string, url?: string): boolean => {
    let prevented = false;
    contents.emit(event, { preventDefault: () => (prevented = true) }, url);
    return prevented;
  };
  t.equal(attempt('will-navigate', 'https://example.com/'), true);
  t.equal(attempt('will-navigate', 'file:///etc/passwd'), true, 'a dropped file never replaces the app');
  t.equal(attempt('will-navigate', 'http://127.0.0.1:43124/'), true, 'another local port is another origin');
  t.equal(attempt('will-navigate', 'http://localhost:43123/'), true);
  t.equal(attempt('will-navigate', `${ORIGIN}/`), false, 'reloading the app itself is fine');
  t.equal(attempt('will-redirect', 'https://example.com/'), true);
  t.equal(attempt('will-attach-webview'), true);
  t.same(contents.windowOpenHandler?.({ url: `${ORIGIN}/` }), { action: 'deny' });
  t.same(contents.windowOpenHandler?.({ url: 'https://example.com' }), { action: 'deny' });
});

t.test('the session denies permissions, reaches only the embedded server, refuses downloads, stamps the CSP', async (t) => {
  const session = new FakeSession();
  hardenSession(session as never, ORIGIN);
  for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
    let granted: boolean | undefined;
    session.permissionRequestHandler?.({}, permission, (value) => (granted = value));
    t.equal(granted, false, permission);
  }
  t.equal(session.permissionCheckHandler?.({}, 'clipboard-read'), false);

  const cancel = (url: string): boolean => {
    let answer: boolean | undefined;
    session.beforeRequest?.listener({ url }, (response) => (answer = response.cancel));
    return answer!;
  };
  t.equal(cancel(`${ORIGIN}/v1/account`), false);
  t.equal(cancel('https://fonts.example.com/font.woff2'), true, 'the app talks only to the local API');
  t.equal(cancel('http://127.0.0.1:9999/v1/account'), true);
  t.same(session.beforeRequest?.filter.urls.sort(), ['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*']);

  let headers: Record<string, string[]> | undefined;
  session.headersReceived?.(
    { responseHeaders: { 'content-security-policy': ['default-src *'], 'Content-Type': ['text/html'] } },
    (r) => (headers = r.responseHeaders),
  );
  t.same(
    headers,
    { 'Content-Type': ['text/html'], 'Content-Security-Policy': [FRONT_END_CSP] },
    'a looser policy from anywhere is replaced',
  );

  let prevented = false;
  session.emit('will-download', { preventDefault: () => (prevented = true) });
  t.equal(prevented, true);
});

t.test('isAppUrl compares whole origins and survives garbage', async (t) => {
  t.ok(isAppUrl(`${ORIGIN}/x?y`, ORIGIN));
  t.notOk(isAppUrl('https://127.0.0.1:43123/', ORIGIN));
  t.notOk(isAppUrl('not a url', ORIGIN));
  t.notOk(isAppUrl(`${ORIGIN}.evil.com/`, ORIGIN));
});
