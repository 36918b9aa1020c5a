import t from 'tap';
import { FakeAdmin } from './fake-admin.js';
import { render } from 'ink';
import { PassThrough } from 'node:stream';
import { createElement } from 'react';
import { App } from '../../tui/app.js';
import { KEYS, press, renderApp, settle, waitForFrame, waitForText } from './helpers.js';

t.test('an unreachable server gets a clear message, how to start it, and a retry', async (t) => {
  const fake = new FakeAdmin();
  fake.addAccount('Studio North', 'pro');
  fake.reachable = false;
  const app = renderApp(fake, 'accounts');
  t.teardown(() => app.unmount());
  const frame = await waitForText(app, 'Cannot reach the Vectorize server at http://127.0.0.1:8080.');
  t.match(frame, '`npm start`', 'says how to start one');
  t.match(frame, '○ unreachable', 'the header shows it too');
  await waitForFrame(app, (f) => /r retry/.test(f.split('\n').at(-1) ?? ''), 'the footer to offer r retry');

  fake.reachable = true;
  const calls = fake.calls.length;
  await press(app, 'r');
  const back = await waitForText(app, 'Studio North');
  t.ok(fake.calls.slice(calls).includes('listAccounts'), 'r asks again');
  t.notMatch(back, 'Cannot reach');
});

t.test('number keys, Tab and Shift-Tab move between the five screens; the footer follows', async (t) => {
  const fake = new FakeAdmin();
  const app = renderApp(fake);
  t.teardown(() => app.unmount());
  const footer = () => (app.lastFrame() ?? '').split('\n').at(-1) ?? '';
  await waitForText(app, 'No accounts yet');
  t.match(footer(), /new account.*1-5\/Tab screens.*q quit/);

  await press(app, '2');
  await waitForText(app, 'No keys yet');
  t.match(footer(), /n new key\s+x revoke/);
  await press(app, KEYS.tab);
  await waitForText(app, 'No webhook endpoints');
  await press(app, KEYS.tab);
  await waitForText(app, 'The queue is empty.');
  t.match(footer(), /f filter: all\s+c cancel job/);
  await press(app, KEYS.tab);
  await waitForText(app, 'No reports');
  await press(app, KEYS.tab);
  await waitForText(app, 'No accounts yet');
  await press(app, KEYS.shiftTab);
  await waitForText(app, 'No reports');
  await press(app, '4');
  await waitForText(app, 'The queue is empty.');
});

t.test('a text prompt keeps q and digits; its footer lists its own keys', async (t) => {
  const fake = new FakeAdmin();
  const app = renderApp(fake);
  t.teardown(() => app.unmount());
  await waitForText(app, 'No accounts yet');
  await press(app, 'n');
  await waitForText(app, 'Name of the new account');
  const footer = (app.lastFrame() ?? '').split('\n').at(-1) ?? '';
  t.match(footer, /Enter done\s+Esc cancel/);
  t.notMatch(footer, 'q quit', 'q is text here');
  await press(app, 'q', '3', KEYS.tab);
  const frame = await waitForText(app, 'q3');
  t.match(frame, 'Name of the new account', 'still on the prompt');
  await press(app, KEYS.escape);
  await waitForText(app, 'No accounts yet');
});

t.test('q quits', async (t) => {
  // ink-testing-library hides the Ink instance, so render directly to see the app exit.
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode: () => undefined,
    ref: () => undefined,
    unref: () => undefined,
  });
  const stdout = Object.assign(new PassThrough(), { columns: 80, rows: 24 });
  let output = '';
  stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const instance = render(createElement(App, { client: new FakeAdmin() }), {
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
    debug: true,
    patchConsole: false,
  });
  t.teardown(() => instance.unmount());
  let exited = false;
  void instance.waitUntilExit().then(() => {
    exited = true;
  });
  const deadline = Date.now() + 3000;
  while (!output.includes('No accounts yet') && Date.now() < deadline) await settle();
  t.match(output, 'No accounts yet');
  stdin.write('q');
  while (!exited && Date.now() < deadline) await settle();
  t.ok(exited, 'the app exited on q');
});
