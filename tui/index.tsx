import { render, type Instance } from 'ink';
import type { AdminApi } from '../client/admin.js';
import { App, type ScreenId } from './app.js';

export { App, SCREENS, type ScreenId } from './app.js';

/** Renders the admin TUI on a terminal; resolves when the user quits. */
export function startTui(options: {
  client: AdminApi;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
  initialScreen?: ScreenId;
}): Instance {
  return render(<App client={options.client} initialScreen={options.initialScreen} />, {
    stdin: options.stdin,
    stdout: options.stdout,
    stderr: options.stderr,
    // The TUI is a full-screen tool: keep the terminal's scrollback clean on exit.
    patchConsole: true,
  });
}
