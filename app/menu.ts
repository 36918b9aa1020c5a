/**
 * The application menu. Its commands are the page's own (MenuCommand), sent over the bridge, so
 * menu, toolbar and keyboard shortcut all run the same code in the page.
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { MenuCommand } from './bridge.js';

export function menuTemplate(
  send: (command: MenuCommand) => void,
  options: { platform: string; appName: string; devTools: boolean },
): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const item = (label: string, command: MenuCommand, accelerator?: string): MenuItemConstructorOptions => ({
    label,
    accelerator,
    click: () => send(command),
  });
  const template: MenuItemConstructorOptions[] = [];
  if (mac) {
    template.push({
      label: options.appName,
      submenu: [
        { role: 'about' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  }
  template.push(
    {
      label: '&File',
      submenu: [
        item('Open Images…', 'open', 'CmdOrCtrl+O'),
        item('Open Folder…', 'open-folder', 'CmdOrCtrl+Shift+O'),
        { type: 'separator' },
        item('Save SVG…', 'save', 'CmdOrCtrl+S'),
        item('Save All to Folder…', 'save-all', 'CmdOrCtrl+Shift+S'),
        item('Save All One by One…', 'save-all-each'),
        ...(mac ? [] : [{ type: 'separator' } as const, { role: 'quit' } as const]),
      ],
    },
    // Standard roles so copy and paste work in the key field and the menus read as on any app.
    {
      label: '&Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
      ],
    },
    {
      label: '&View',
      submenu: [
        item('Re-run Selected', 'rerun', 'CmdOrCtrl+R'),
        { type: 'separator' },
        item('Zoom In', 'zoom-in', 'CmdOrCtrl+='),
        item('Zoom Out', 'zoom-out', 'CmdOrCtrl+-'),
        item('Fit', 'zoom-fit', 'CmdOrCtrl+0'),
        { type: 'separator' },
        // No accelerators here: arrows and ? belong to the page (and to its text fields).
        item('Next File', 'next'),
        item('Previous File', 'previous'),
        { type: 'separator' },
        { role: 'togglefullscreen' },
        ...(options.devTools ? [{ role: 'toggleDevTools' } as const] : []),
      ],
    },
    ...(mac ? [{ role: 'windowMenu' } as const] : []),
    { label: '&Help', submenu: [item('Keyboard Shortcuts', 'help'), ...(mac ? [] : [{ role: 'about' } as const])] },
  );
  return template;
}
