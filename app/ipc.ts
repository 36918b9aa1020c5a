/**
 * The main-process side of the preload bridge: one handler per DesktopBridge method. Every call
 * is checked to come from the app's own page (a frame of another origin gets nothing, not even
 * the key) and every argument is checked before it touches a dialog or the disk.
 */
import { writeFile, access } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { BrowserWindow, Dialog, IpcMain, IpcMainInvokeEvent } from 'electron';
import { CHANNELS, type OpenedFile, type SaveResult, type SvgFile } from './bridge.js';
import { readImages } from './open-files.js';
import { isAppUrl } from './security.js';

interface BridgeDeps {
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>;
  dialog: Pick<Dialog, 'showOpenDialog' | 'showSaveDialog'>;
  window: () => BrowserWindow | null;
  appOrigin: string;
  apiKey: string;
  /** Folder the save dialogs start in (the user's Downloads); the last used one afterwards. */
  defaultSaveDir: string;
  readImages?: (paths: string[]) => Promise<OpenedFile[]>;
  writeFile?: (path: string, data: string) => Promise<void>;
  exists?: (path: string) => Promise<boolean>;
}

/** An SVG the engine writes for a 100 MP photo stays far below this; anything larger is not ours. */
const MAX_SVG_CHARS = 512 * 1024 * 1024;
const MAX_FILES_PER_SAVE = 2_000;

function assertFromApp(event: Pick<IpcMainInvokeEvent, 'senderFrame'>, appOrigin: string): void {
  const url = event.senderFrame?.url ?? '';
  if (!isAppUrl(url, appOrigin)) throw new Error('bridge call from outside the app refused');
}

/** A name the user will see in a save dialog: base name only, no control or reserved characters, `.svg`. */
export function safeSvgName(name: string): string {
  const base = basename(name.replace(/\\/g, '/'))
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, '_')
    .replace(/^\.+/, '')
    .trim();
  const stem = base.replace(/\.[^.]*$/, '').slice(0, 120) || 'image';
  return `${stem}.svg`;
}

function checkFile(value: unknown): SvgFile {
  const file = value as SvgFile;
  if (!file || typeof file.name !== 'string' || typeof file.svg !== 'string' || file.svg.length > MAX_SVG_CHARS) {
    throw new Error('saveSvg needs { name: string, svg: string }');
  }
  return { name: safeSvgName(file.name), svg: file.svg };
}

export function registerBridgeHandlers(deps: BridgeDeps): () => void {
  const read = deps.readImages ?? readImages;
  const write = deps.writeFile ?? ((path: string, data: string) => writeFile(path, data, 'utf8'));
  const exists =
    deps.exists ??
    ((path: string) =>
      access(path).then(
        () => true,
        () => false,
      ));
  let saveDir = deps.defaultSaveDir;

  const handle = (channel: string, handler: (...args: unknown[]) => unknown): void => {
    deps.ipcMain.handle(channel, (event, ...args) => {
      assertFromApp(event, deps.appOrigin);
      return handler(...args);
    });
  };

  /** "logo.svg" → "logo (2).svg" when the folder already has one; never overwrites in a batch save. */
  const freePath = async (dir: string, name: string, taken: Set<string>): Promise<string> => {
    const stem = name.slice(0, -extname(name).length);
    for (let n = 1; ; n++) {
      const candidate = join(dir, n === 1 ? name : `${stem} (${n}).svg`);
      if (!taken.has(candidate) && !(await exists(candidate))) {
        taken.add(candidate);
        return candidate;
      }
    }
  };

  const saveOne = async (file: SvgFile): Promise<string | null> => {
    const window = deps.window();
    const options = { title: 'Save SVG', defaultPath: join(saveDir, file.name), filters: [{ name: 'SVG image', extensions: ['svg'] }] };
    const result = window ? await deps.dialog.showSaveDialog(window, options) : await deps.dialog.showSaveDialog(options);
    if (result.canceled || !result.filePath) return null;
    const path = extname(result.filePath).toLowerCase() === '.svg' ? result.filePath : `${result.filePath}.svg`;
    await write(path, file.svg);
    saveDir = join(path, '..');
    return path;
  };

  handle(CHANNELS.getApiKey, () => deps.apiKey);

  handle(CHANNELS.openImages, async (options) => {
    const folder = (options as { folder?: unknown } | undefined)?.folder === true;
    const window = deps.window();
    const dialogOptions = {
      title: folder ? 'Open a folder of images' : 'Open images',
      properties: folder ? (['openDirectory'] as const) : (['openFile', 'multiSelections'] as const),
      filters: folder ? undefined : [{ name: 'Images', extensions: ['png', 'jpg', 'jpeg', 'webp', 'avif', 'bmp'] }],
    };
    const result = window
      ? await deps.dialog.showOpenDialog(window, { ...dialogOptions, properties: [...dialogOptions.properties] })
      : await deps.dialog.showOpenDialog({ ...dialogOptions, properties: [...dialogOptions.properties] });
    if (result.canceled) return [];
    return read(result.filePaths);
  });

  handle(CHANNELS.saveSvg, async (file): Promise<SaveResult> => {
    const path = await saveOne(checkFile(file));
    return path ? { saved: [path], canceled: false } : { saved: [], canceled: true };
  });

  handle(CHANNELS.saveAll, async (files, mode): Promise<SaveResult> => {
    if (!Array.isArray(files) || files.length > MAX_FILES_PER_SAVE) throw new Error('saveAll needs a list of files');
    const checked = files.map(checkFile);
    const saved: string[] = [];
    if (mode === 'each') {
      for (const file of checked) {
        const path = await saveOne(file);
        if (!path) return { saved, canceled: true };
        saved.push(path);
      }
      return { saved, canceled: false };
    }
    const window = deps.window();
    const options = {
      title: 'Save all SVGs into a folder',
      defaultPath: saveDir,
      properties: ['openDirectory' as const, 'createDirectory' as const],
    };
    const result = window ? await deps.dialog.showOpenDialog(window, options) : await deps.dialog.showOpenDialog(options);
    const dir = result.filePaths[0];
    if (result.canceled || !dir) return { saved, canceled: true };
    const taken = new Set<string>();
    for (const file of checked) {
      const path = await freePath(dir, file.name, taken);
      await write(path, file.svg);
      saved.push(path);
    }
    saveDir = dir;
    return { saved, canceled: false };
  });

  return () => {
    for (const channel of [CHANNELS.getApiKey, CHANNELS.openImages, CHANNELS.saveSvg, CHANNELS.saveAll])
      deps.ipcMain.removeHandler(channel);
  };
}
