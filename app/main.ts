/**
 * Electron entry (package.json "main": dist/app/main.js). Thin on purpose: everything it does is
 * in desktop.ts with Electron handed in, where the tests can reach it.
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, safeStorage, session } from 'electron';
import { runDesktopApp } from './desktop.js';

app.setName('Vectorize');

runDesktopApp({ app, BrowserWindow, dialog, ipcMain, Menu, safeStorage, session }).ready.catch((error: Error) => {
  process.stderr.write(`vectorize desktop: ${error.stack ?? error.message}\n`);
});
