/**
 * Everything that keeps the desktop window a plain page over the local API: the web preferences
 * of every window, what its web contents may do (navigate, open windows, attach webviews) and
 * what its session allows (permissions, requests, downloads, the CSP). Kept apart from the rest of
 * the main process so a reviewer reads the whole policy in one file and the tests pin each flag.
 */
import type { Session, WebContents, WebPreferences } from 'electron';
import { FRONT_END_CSP } from '../server/plugins/frontend.js';

export { FRONT_END_CSP };

/**
 * The page runs untrusted-by-default content (dropped images, SVG the engine wrote), so it gets
 * no Node, no Electron, and a sandboxed renderer; its only reach into the app is the preload's
 * one bridge, in an isolated world.
 */
export function secureWebPreferences(preload: string, options: { devTools?: boolean } = {}): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webviewTag: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    // A file dropped outside the drop handler must not replace the app with a file:// page.
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
    devTools: options.devTools ?? false,
  };
}

/** Same origin as the embedded server (scheme, host and port), nothing else. */
export function isAppUrl(url: string, appOrigin: string): boolean {
  try {
    return new URL(url).origin === new URL(appOrigin).origin;
  } catch {
    return false;
  }
}

type ContentsLike = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

/**
 * No navigation away from the app (a link in a result, a dropped file, a script), no new windows,
 * no webviews. A reload of the app itself stays allowed.
 */
export function hardenWebContents(contents: ContentsLike, appOrigin: string): void {
  const stayHome = (event: { preventDefault(): void }, url: string): void => {
    if (!isAppUrl(url, appOrigin)) event.preventDefault();
  };
  contents.on('will-navigate', (event, url) => stayHome(event, url));
  contents.on('will-redirect', (event, url) => stayHome(event, url));
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

type SessionLike = Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'on'> & {
  webRequest: Pick<Session['webRequest'], 'onHeadersReceived' | 'onBeforeRequest'>;
};

/**
 * The session denies every permission (camera, notifications, clipboard-read …: the app needs
 * none), cancels any request that is not to the embedded server, refuses downloads (saving goes
 * through the native save dialog) and stamps the CSP on every response even if the server forgot.
 */
export function hardenSession(session: SessionLike, appOrigin: string): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.webRequest.onBeforeRequest({ urls: ['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*'] }, (details, callback) => {
    callback({ cancel: !isAppUrl(details.url, appOrigin) });
  });
  session.webRequest.onHeadersReceived((details, callback) => {
    const headers = { ...(details.responseHeaders ?? {}) };
    for (const name of Object.keys(headers)) {
      if (name.toLowerCase() === 'content-security-policy') delete headers[name];
    }
    headers['Content-Security-Policy'] = [FRONT_END_CSP];
    callback({ responseHeaders: headers });
  });
  session.on('will-download', (event) => event.preventDefault());
}
