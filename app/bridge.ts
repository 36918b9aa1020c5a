/**
 * The one typed bridge between the desktop app's main process and the front end. The preload
 * exposes exactly `DesktopBridge` as `window.vectorizeDesktop`; the front end checks for it to
 * know it runs inside the app. Channel names live here so main and preload cannot drift apart.
 */
export const BRIDGE_GLOBAL = 'vectorizeDesktop';

export const CHANNELS = {
  getApiKey: 'vectorize:get-api-key',
  openImages: 'vectorize:open-images',
  saveSvg: 'vectorize:save-svg',
  saveAll: 'vectorize:save-all',
  filesOpened: 'vectorize:files-opened',
  menuCommand: 'vectorize:menu-command',
} as const;

export interface OpenedFile {
  name: string;
  /** Relative to the folder the user picked, or the bare name for single files. */
  path: string;
  type: string;
  bytes: Uint8Array;
}

export interface SvgFile {
  /** Suggested file name; the main process keeps only its base name and forces `.svg`. */
  name: string;
  svg: string;
}

export type SaveResult = { saved: string[]; canceled: boolean };

export type SaveAllMode = 'folder' | 'each';

export const MENU_COMMANDS = [
  'open',
  'open-folder',
  'save',
  'save-all',
  'save-all-each',
  'rerun',
  'zoom-in',
  'zoom-out',
  'zoom-fit',
  'help',
  'next',
  'previous',
] as const;
export type MenuCommand = (typeof MENU_COMMANDS)[number];

export interface DesktopBridge {
  readonly platform: string;
  /** The app-scoped key the app made for itself on first run. */
  getApiKey(): Promise<string>;
  /** Native open dialog (files or a folder); images only, already read. */
  openImages(options?: { folder?: boolean }): Promise<OpenedFile[]>;
  /** Native save dialog for one SVG. */
  saveSvg(file: SvgFile): Promise<SaveResult>;
  /** 'folder': pick a folder once and write every file there; 'each': one save dialog per file. */
  saveAll(files: SvgFile[], mode: SaveAllMode): Promise<SaveResult>;
  /** Files given to the app by the OS (dropped on its icon, "Open with", a second launch). */
  onFilesOpened(listener: (files: OpenedFile[]) => void): () => void;
  onMenuCommand(listener: (command: MenuCommand) => void): () => void;
}
