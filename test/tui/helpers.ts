import { render } from 'ink-testing-library';
import { createElement } from 'react';
import type { AdminApi } from '../../client/admin.js';
import { App, type ScreenId } from '../../tui/app.js';

export const KEYS = {
  up: '\u001B[A',
  down: '\u001B[B',
  enter: '\r',
  escape: '\u001B',
  tab: '\t',
  shiftTab: '\u001B[Z',
  backspace: '\u007F',
};

type Rendered = ReturnType<typeof render>;

export function renderApp(client: AdminApi, initialScreen?: ScreenId): Rendered {
  return render(createElement(App, { client, initialScreen }));
}

/**
 * Waits until the last frame satisfies `predicate` (bounded, so a broken screen fails the test
 * with the frame it showed instead of hanging).
 */
export async function waitForFrame(app: Rendered, predicate: (frame: string) => boolean, what = 'the expected frame'): Promise<string> {
  const deadline = Date.now() + 3000;
  for (;;) {
    const frame = app.lastFrame() ?? '';
    if (predicate(frame)) return frame;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}. Last frame:\n${frame}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const waitForText = (app: Rendered, text: string): Promise<string> =>
  waitForFrame(app, (frame) => frame.includes(text), JSON.stringify(text));

/**
 * Lets React finish what a commit scheduled. Ink writes a frame during the commit, but a newly
 * shown dialog subscribes to keys in a passive effect that React runs a macrotask later; a key
 * written in between would reach the previous screen's handler, which no person typing could do.
 */
export async function settle(): Promise<void> {
  for (let turn = 0; turn < 3; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Types keys one at a time, letting Ink and React settle between them like a person typing. */
export async function press(app: Rendered, ...inputs: string[]): Promise<void> {
  for (const input of inputs) {
    await settle();
    app.stdin.write(input);
  }
  await settle();
}
