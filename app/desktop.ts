/**
 * The desktop app, with Electron handed in (app/main.ts passes the real module, tests a fake):
 * one instance, the embedded server on loopback with its data in the OS app-data folder, one
 * hardened window that loads the front end from that server, the bridge, the menu, and files the
 * OS gives the app. Stops the server before quitting so the database is flushed.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { App, BrowserWindow, BrowserWindowConstructorOptions, Dialog, IpcMain, Menu, SafeStorage, Session } from 'electron';
import { CHANNELS, type MenuCommand, type OpenedFile } from './bridge.js';
import { startEmbeddedServer, type EmbeddedServer, type EmbeddedServerOptions } from './embedded-server.js';
import { registerBridgeHandlers } from './ipc.js';
import { fileKeyVault } from './key-vault.js';
import { menuTemplate } from './menu.js';
import { pathsFromArgv, readImages } from './open-files.js';
import { hardenSession, hardenWebContents, secureWebPreferences } from './security.js';

interface ElectronApi {
  app: Pick<App, 'requestSingleInstanceLock' | 'quit' | 'exit' | 'on' | 'whenReady' | 'getPath' | 'getName' | 'isPackaged'>;
  BrowserWindow: { new (options: BrowserWindowConstructorOptions): BrowserWindow; getAllWindows(): BrowserWindow[] };
  dialog: Pick<Dialog, 'showOpenDialog' | 'showSaveDialog' | 'showErrorBox'>;
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>;
  Menu: Pick<typeof Menu, 'buildFromTemplate' | 'setApplicationMenu'>;
  session: { defaultSession: Session };
  safeStorage?: Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'>;
}

interface DesktopOptions {
  /** Replaced in tests; defaults to the real embedded server. */
  startServer?: (options: EmbeddedServerOptions) => Promise<EmbeddedServer>;
  /** Where the built preload is; defaults to dist/app/preload.cjs beside this module. */
  preloadPath?: string;
  argv?: readonly string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

interface DesktopApp {
  /** Resolves once the window is loading (or the app quit because another instance runs). */
  ready: Promise<'started' | 'second-instance'>;
  window(): BrowserWindow | null;
  server(): EmbeddedServer | null;
}

function windowOptions(preload: string, devTools: boolean): BrowserWindowConstructorOptions {
  return {
    width: 1360,
    height: 860,
    minWidth: 880,
    minHeight: 560,
    title: 'Vectorize',
    show: false,
    backgroundColor: '#18181b',
    webPreferences: secureWebPreferences(preload, { devTools }),
  };
}

export function runDesktopApp(electron: ElectronApi, options: DesktopOptions = {}): DesktopApp {
  const { app } = electron;
  const env = options.env ?? process.env;
  const devTools = !app.isPackaged || env.VECTORIZE_DEVTOOLS === '1';
  const preload = options.preloadPath ?? join(dirname(fileURLToPath(import.meta.url)), 'preload.cjs');
  let mainWindow: BrowserWindow | null = null;
  let server: EmbeddedServer | null = null;
  /** Files the OS handed over before the page could take them. */
  let pending: string[] = pathsFromArgv(options.argv ?? process.argv, options.cwd ?? process.cwd());

  if (!app.requestSingleInstanceLock()) {
    // Another Vectorize window owns the data folder; it gets our files via 'second-instance'.
    app.quit();
    return { ready: Promise.resolve('second-instance'), window: () => null, server: () => null };
  }

  const deliver = async (paths: string[]): Promise<void> => {
    if (paths.length === 0) return;
    if (!mainWindow || mainWindow.webContents.isLoading()) {
      pending.push(...paths);
      return;
    }
    const files: OpenedFile[] = await readImages(paths);
    if (files.length) mainWindow.webContents.send(CHANNELS.filesOpened, files);
  };

  app.on('second-instance', (_event, argv, cwd) => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
    }
    void deliver(pathsFromArgv(argv, cwd));
  });
  // macOS: a file dropped on the Dock icon or opened with the app.
  app.on('open-file', (event, path) => {
    event.preventDefault();
    void deliver([path]);
  });

  let stopping = false;
  app.on('before-quit', (event) => {
    if (!server || stopping) return;
    // Hold the quit until the server has flushed its database and released its lock.
    event.preventDefault();
    stopping = true;
    void server.stop().finally(() => {
      server = null;
      app.quit();
    });
  });
  app.on('window-all-closed', () => app.quit());

  const ready = (async (): Promise<'started'> => {
    await app.whenReady();
    const userData = app.getPath('userData');
    try {
      server = await (options.startServer ?? startEmbeddedServer)({
        dataDir: join(userData, 'data'),
        vault: fileKeyVault(join(userData, 'app-key.json'), electron.safeStorage),
        env: { VECTORIZE_PLANS_FILE: env.VECTORIZE_PLANS_FILE, VECTORIZE_LOG_LEVEL: env.VECTORIZE_LOG_LEVEL },
        log: process.stderr,
      });
    } catch (error) {
      electron.dialog.showErrorBox('Vectorize could not start', `The built-in server did not start: ${(error as Error).message}`);
      app.exit(1);
      throw error;
    }
    const origin = server.url;
    hardenSession(electron.session.defaultSession, origin);
    app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, origin));

    registerBridgeHandlers({
      ipcMain: electron.ipcMain,
      dialog: electron.dialog,
      window: () => mainWindow,
      appOrigin: origin,
      apiKey: server.apiKey,
      defaultSaveDir: app.getPath('downloads'),
    });

    const send = (command: MenuCommand): void => mainWindow?.webContents.send(CHANNELS.menuCommand, command);
    electron.Menu.setApplicationMenu(
      electron.Menu.buildFromTemplate(menuTemplate(send, { platform: process.platform, appName: app.getName(), devTools })),
    );

    mainWindow = new electron.BrowserWindow(windowOptions(preload, devTools));
    hardenWebContents(mainWindow.webContents, origin);
    mainWindow.once('ready-to-show', () => mainWindow?.show());
    mainWindow.on('closed', () => {
      mainWindow = null;
    });
    mainWindow.webContents.once('did-finish-load', () => {
      const paths = pending;
      pending = [];
      void deliver(paths);
    });
    await mainWindow.loadURL(`${origin}/`);
    return 'started';
  })();

  return { ready, window: () => mainWindow, server: () => server };
}
