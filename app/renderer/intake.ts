/**
 * How files come in: the pickers (the browser's inputs, or the app's native dialog over the
 * bridge) and drag and drop anywhere in the window, with the overlay while something is dragged.
 */
import type { DesktopBridge, OpenedFile } from '../bridge.js';
import { $ } from './dom.js';
import { ACCEPT_ATTRIBUTE, filesFromDataTransfer, filesFromList, type PickedFile } from './files.js';

type AddFiles = (files: PickedFile[], skipped?: string[]) => void;

export function fromOpened(files: OpenedFile[]): PickedFile[] {
  return files.map((file) => ({
    file: new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type }),
    name: file.name,
    path: file.path,
  }));
}

/** Wires the pickers and the window's drop; returns the "open" command for menus and shortcuts. */
export function bindIntake(options: {
  bridge: DesktopBridge | undefined;
  add: AddFiles;
  onError: (error: unknown) => void;
}): (folder: boolean) => Promise<void> {
  const { bridge, add, onError } = options;
  const fileInput = $<HTMLInputElement>('file-input');
  const folderInput = $<HTMLInputElement>('folder-input');
  fileInput.accept = ACCEPT_ATTRIBUTE;

  const open = async (folder: boolean): Promise<void> => {
    if (bridge) add(fromOpened(await bridge.openImages({ folder })));
    else (folder ? folderInput : fileInput).click();
  };

  for (const input of [fileInput, folderInput]) {
    input.addEventListener('change', () => {
      if (input.files?.length) {
        const skipped: string[] = [];
        add(filesFromList(input.files, skipped), skipped);
      }
      input.value = '';
    });
  }
  // The label opens the browser's picker by itself; in the app the native dialog replaces it.
  $('dropzone').addEventListener('click', (event) => {
    if (bridge) {
      event.preventDefault();
      void open(false).catch(onError);
    }
  });

  let dragDepth = 0;
  const overlay = $('drop-overlay');
  window.addEventListener('dragenter', (event) => {
    if (!event.dataTransfer?.types.includes('Files')) return;
    event.preventDefault();
    dragDepth += 1;
    overlay.hidden = false;
  });
  window.addEventListener('dragleave', () => {
    dragDepth = Math.max(0, dragDepth - 1);
    if (dragDepth === 0) overlay.hidden = true;
  });
  // Without preventDefault on dragover and drop, a browser (and Electron) navigates to the file.
  window.addEventListener('dragover', (event) => {
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
  });
  window.addEventListener('drop', (event) => {
    event.preventDefault();
    dragDepth = 0;
    overlay.hidden = true;
    const transfer = event.dataTransfer;
    if (!transfer) return;
    const skipped: string[] = [];
    void filesFromDataTransfer(transfer.items, transfer.files, skipped).then((files) => add(files, skipped), onError);
  });
  return open;
}
