/**
 * The preload: exposes exactly one typed object, `window.vectorizeDesktop` (DesktopBridge), through
 * contextBridge. It hands the page no Electron or Node objects, only functions that invoke fixed
 * channels, and strips the IPC event before a listener sees it (the event carries the sender).
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { BRIDGE_GLOBAL, CHANNELS, MENU_COMMANDS, type DesktopBridge, type MenuCommand, type OpenedFile } from './bridge.js';

function subscribe<T>(channel: string, accept: (value: unknown) => value is T, listener: (value: T) => void): () => void {
  const handler = (_event: IpcRendererEvent, value: unknown): void => {
    if (accept(value)) listener(value);
  };
  ipcRenderer.on(channel, handler);
  return () => {
    ipcRenderer.removeListener(channel, handler);
  };
}

const isMenuCommand = (value: unknown): value is MenuCommand => (MENU_COMMANDS as readonly unknown[]).includes(value);
const isOpenedFiles = (value: unknown): value is OpenedFile[] => Array.isArray(value);

const bridge: DesktopBridge = {
  platform: process.platform,
  getApiKey: () => ipcRenderer.invoke(CHANNELS.getApiKey),
  openImages: (options) => ipcRenderer.invoke(CHANNELS.openImages, { folder: options?.folder === true }),
  saveSvg: (file) => ipcRenderer.invoke(CHANNELS.saveSvg, { name: String(file.name), svg: String(file.svg) }),
  saveAll: (files, mode) =>
    ipcRenderer.invoke(
      CHANNELS.saveAll,
      files.map((file) => ({ name: String(file.name), svg: String(file.svg) })),
      mode === 'each' ? 'each' : 'folder',
    ),
  onFilesOpened: (listener) => subscribe(CHANNELS.filesOpened, isOpenedFiles, listener),
  onMenuCommand: (listener) => subscribe(CHANNELS.menuCommand, isMenuCommand, listener),
};

contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, bridge);
