/**
 * A stand-in for the parts of Electron the main process uses, recording what it was asked to do.
 * Electron is installed without its binary here (and CI has no display), so the main process is
 * tested by handing it this object instead of the real module.
 */
import { EventEmitter } from 'node:events';

export class FakeWebContents extends EventEmitter {
  sent: Array<[string, unknown]> = [];
  windowOpenHandler?: (details: { url: string }) => { action: string };
  loading = false;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  send(channel: string, value: unknown): void {
    this.sent.push([channel, value]);
  }
  isLoading(): boolean {
    return this.loading;
  }
}

export class FakeBrowserWindow extends EventEmitter {
  static created: FakeBrowserWindow[] = [];
  static getAllWindows(): FakeBrowserWindow[] {
    return FakeBrowserWindow.created;
  }
  readonly webContents = new FakeWebContents();
  loadedUrl?: string;
  shown = false;
  focused = false;
  constructor(readonly options: Record<string, any>) {
    super();
    FakeBrowserWindow.created.push(this);
  }
  async loadURL(url: string): Promise<void> {
    this.loadedUrl = url;
    this.webContents.emit('did-finish-load');
  }
  show(): void {
    this.shown = true;
  }
  isMinimized(): boolean {
    return false;
  }
  restore(): void {}
  focus(): void {
    this.focused = true;
  }
}

export class FakeSession extends EventEmitter {
  permissionRequestHandler?: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void;
  permissionCheckHandler?: (...args: unknown[]) => boolean;
  beforeRequest?: {
    filter: { urls: string[] };
    listener: (details: { url: string }, callback: (response: { cancel: boolean }) => void) => void;
  };
  headersReceived?: (
    details: { responseHeaders?: Record<string, string[]> },
    callback: (response: { responseHeaders: Record<string, string[]> }) => void,
  ) => void;
  setPermissionRequestHandler(handler: FakeSession['permissionRequestHandler']): void {
    this.permissionRequestHandler = handler;
  }
  setPermissionCheckHandler(handler: FakeSession['permissionCheckHandler']): void {
    this.permissionCheckHandler = handler;
  }
  webRequest = {
    onBeforeRequest: (filter: { urls: string[] }, listener: NonNullable<FakeSession['beforeRequest']>['listener']) => {
      this.beforeRequest = { filter, listener };
    },
    onHeadersReceived: (listener: NonNullable<FakeSession['headersReceived']>) => {
      this.headersReceived = listener;
    },
  };
}

class FakeApp extends EventEmitter {
  lock = true;
  quitCalls = 0;
  exitCode?: number;
  isPackaged = true;
  constructor(readonly userData: string) {
    super();
  }
  requestSingleInstanceLock(): boolean {
    return this.lock;
  }
  quit(): void {
    this.quitCalls += 1;
    // Like Electron: quitting asks 'before-quit' listeners, who may hold it.
    const event = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    this.emit('before-quit', event);
  }
  exit(code: number): void {
    this.exitCode = code;
  }
  async whenReady(): Promise<void> {}
  getPath(name: string): string {
    return name === 'userData' ? this.userData : `${this.userData}/${name}`;
  }
  getName(): string {
    return 'Vectorize';
  }
}

export class FakeIpcMain {
  handlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
  handle(channel: string, handler: (event: unknown, ...args: unknown[]) => unknown): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, handler);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** Calls a handler as if from a frame at `url`. */
  invoke(channel: string, url: string, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return Promise.resolve().then(() => handler({ senderFrame: { url } }, ...args));
  }
}

export class FakeDialog {
  openAnswers: Array<{ canceled: boolean; filePaths: string[] }> = [];
  saveAnswers: Array<{ canceled: boolean; filePath?: string }> = [];
  openCalls: unknown[] = [];
  saveCalls: unknown[] = [];
  errors: Array<[string, string]> = [];
  async showOpenDialog(...args: unknown[]) {
    this.openCalls.push(args.at(-1));
    return this.openAnswers.shift() ?? { canceled: true, filePaths: [] };
  }
  async showSaveDialog(...args: unknown[]) {
    this.saveCalls.push(args.at(-1));
    return this.saveAnswers.shift() ?? { canceled: true };
  }
  showErrorBox(title: string, content: string): void {
    this.errors.push([title, content]);
  }
}

export function fakeElectron(userData: string) {
  FakeBrowserWindow.created = [];
  const menu = { template: undefined as unknown, applied: undefined as unknown };
  const electron = {
    app: new FakeApp(userData),
    BrowserWindow: FakeBrowserWindow,
    dialog: new FakeDialog(),
    ipcMain: new FakeIpcMain(),
    Menu: {
      buildFromTemplate: (template: unknown) => {
        menu.template = template;
        return { template };
      },
      setApplicationMenu: (built: unknown) => {
        menu.applied = built;
      },
    },
    session: { defaultSession: new FakeSession() },
  };
  return { electron, menu };
}
