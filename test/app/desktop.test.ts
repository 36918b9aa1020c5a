import t, { type Test } from 'tap';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHANNELS } from '../../app/bridge.js';
import { runDesktopApp } from '../../app/desktop.js';
import type { EmbeddedServerOptions } from '../../app/embedded-server.js';
import { fakeElectron, FakeBrowserWindow } from './helpers/fake-electron.js';

async function userDataDir(t: Test): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'vectorize-desktop-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function fakeServer() {
  const calls = { started: [] as EmbeddedServerOptions[], stopped: 0 };
  const start = async (options: EmbeddedServerOptions) => {
    calls.started.push(options);
    return { url: 'http://127.0.0.1:40001', apiKey: 'service_sk_live_k', accountId: 'acct_x', stop: async () => void (calls.stopped += 1) };
  };
  return { calls, start };
}

t.test('starts the server in the app-data folder, then one hardened window on it', async (t) => {
  const dir = await userDataDir(t);
  const { electron, menu } = fakeElectron(dir);
  const server = fakeServer();
  const desktop = runDesktopApp(electron as never, {
    startServer: server.start,
    preloadPath: '/x/preload.cjs',
    argv: ['electron'],
    env: {},
  });
  t.equal(await desktop.ready, 'started');

  t.equal(server.calls.started.length, 1);
  t.equal(server.calls.started[0].dataDir, join(dir, 'data'), 'data lives under userData');
  t.equal(FakeBrowserWindow.created.length, 1);
  const window = FakeBrowserWindow.created[0];
  t.equal(window.loadedUrl, 'http://127.0.0.1:40001/', 'loads the front end from the embedded server');
  t.match(window.options.webPreferences, {
    preload: '/x/preload.cjs',
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    webviewTag: false,
    devTools: false,
  });
  t.same(window.webContents.windowOpenHandler?.({ url: 'https://x' }), { action: 'deny' }, 'the window itself is hardened');
  let prevented = false;
  window.webContents.emit('will-navigate', { preventDefault: () => (prevented = true) }, 'https://example.com');
  t.ok(prevented);
  t.ok(electron.session.defaultSession.permissionRequestHandler, 'the session is hardened');
  t.ok(electron.session.defaultSession.beforeRequest);
  t.ok(electron.app.listenerCount('web-contents-created') > 0, 'any later web contents is hardened too');

  t.same(
    [...electron.ipcMain.handlers.keys()].sort(),
    [CHANNELS.getApiKey, CHANNELS.openImages, CHANNELS.saveAll, CHANNELS.saveSvg].sort(),
  );
  t.equal(
    await electron.ipcMain.invoke(CHANNELS.getApiKey, 'http://127.0.0.1:40001/'),
    'service_sk_live_k',
    'the bridge hands the page the app key',
  );
  t.ok(menu.applied, 'an application menu is set');
  const labels = (menu.template as Array<{ label?: string }>).map((entry) => entry.label);
  t.ok(labels.includes('&File') && labels.includes('&View') && labels.includes('&Help'));

  const file = (menu.template as Array<{ label?: string; submenu?: Array<{ label?: string; click?: () => void }> }>).find(
    (m) => m.label === '&File',
  )!;
  file.submenu!.find((entry) => entry.label === 'Save SVG…')!.click!();
  t.same(window.webContents.sent.at(-1), [CHANNELS.menuCommand, 'save'], 'menu items run the page commands');

  window.emit('ready-to-show');
  t.ok(window.shown, 'shown once painted, no white flash');
});

t.test('quitting stops the server first, exactly once', async (t) => {
  const { electron } = fakeElectron(await userDataDir(t));
  const server = fakeServer();
  const desktop = runDesktopApp(electron as never, { startServer: server.start, argv: [], env: {} });
  await desktop.ready;
  electron.app.quit();
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(server.calls.stopped, 1);
  t.equal(electron.app.quitCalls, 2, 'quit is held for the stop, then resumed');
  t.equal(desktop.server(), null);
});

t.test('a second instance hands over and quits without starting a server', async (t) => {
  const { electron } = fakeElectron(await userDataDir(t));
  electron.app.lock = false;
  const server = fakeServer();
  const desktop = runDesktopApp(electron as never, { startServer: server.start, argv: [], env: {} });
  t.equal(await desktop.ready, 'second-instance');
  t.equal(server.calls.started.length, 0);
  t.equal(FakeBrowserWindow.created.length, 0);
  t.equal(electron.app.quitCalls, 1);
});

t.test('images given by the OS reach the page: at launch and from a second launch', async (t) => {
  const dir = await userDataDir(t);
  await writeFile(join(dir, 'first.png'), 'png-bytes');
  await writeFile(join(dir, 'second.webp'), 'webp-bytes');
  const { electron } = fakeElectron(dir);
  const desktop = runDesktopApp(electron as never, {
    startServer: fakeServer().start,
    argv: ['vectorize', '--flag', 'first.png'],
    cwd: dir,
    env: {},
  });
  await desktop.ready;
  await new Promise((resolve) => setTimeout(resolve, 50));
  const window = FakeBrowserWindow.created[0];
  const opened = window.webContents.sent.filter(([channel]) => channel === CHANNELS.filesOpened);
  t.equal(opened.length, 1);
  t.match(opened[0][1], [{ name: 'first.png', type: 'image/png' }]);

  electron.app.emit('second-instance', {}, ['vectorize', join(dir, 'second.webp')], dir);
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.ok(window.focused, 'the running window comes forward');
  t.match(window.webContents.sent.at(-1), [CHANNELS.filesOpened, [{ name: 'second.webp', type: 'image/webp' }]]);
});

t.test('a server that cannot start is reported in a dialog and the app exits', async (t) => {
  const { electron } = fakeElectron(await userDataDir(t));
  const desktop = runDesktopApp(electron as never, {
    startServer: async () => {
      throw new Error('data folder locked');
    },
    argv: [],
    env: {},
  });
  await t.rejects(desktop.ready, /locked/);
  t.match(electron.dialog.errors, [['Vectorize could not start', /data folder locked/]]);
  t.equal(electron.app.exitCode, 1);
  t.equal(FakeBrowserWindow.created.length, 0);
});
