import { render, type Instance } from 'ink';
import type { AdminApi } from '../client/admin.js';
import { App, type ScreenId } from './app.js';

export { App, SCREENS, type ScreenId } from './app.js';

// The terminal's alternate screen, as full-screen tools (less, htop) use it: the shell's
// scrollback is untouched and reappears, unchanged, when the TUI quits.
const ENTER_ALTERNATE_SCREEN = '\u001B[?1049h\u001B[H';
const LEAVE_ALTERNATE_SCREEN = '\u001B[?1049l';

/** Renders the admin TUI on a terminal; the instance's waitUntilExit() resolves when the user quits. */
export function startTui(options: {
  client: AdminApi;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
  initialScreen?: ScreenId;
}): Instance {
  const stdout = options.stdout ?? process.stdout;
  const fullScreen = stdout.isTTY === true;
  if (fullScreen) stdout.write(ENTER_ALTERNATE_SCREEN);
  const instance = render(<App client={options.client} initialScreen={options.initialScreen} />, {
    stdin: options.stdin,
    stdout,
    stderr: options.stderr,
    patchConsole: true,
  });
  if (fullScreen) {
    const leave = (): void => {
      stdout.write(LEAVE_ALTERNATE_SCREEN);
    };
    instance.waitUntilExit().then(leave, leave);
  }
  return instance;
}
