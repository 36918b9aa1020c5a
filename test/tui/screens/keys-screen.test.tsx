import t from 'tap';
import type { PlanName } from '../../../client/admin.js';
import { FakeAdmin } from '../fake-admin.js';
import { KEYS, press, renderApp, settle, waitForFrame, waitForText } from '../helpers.js';

/** A fresh keys screen for one account, `name` on `plan`, with the new key's name prompt open. */
async function atNamePrompt(t: { teardown(fn: () => unknown): void }, name: string, plan: PlanName) {
  const fake = new FakeAdmin();
  fake.addAccount(name, plan);
  const app = renderApp(fake, 'keys');
  t.teardown(() => app.unmount());
  await waitForText(app, 'No keys yet');
  await press(app, 'n');
  await waitForText(app, `Name for the new key of ${name}`);
  return { fake, app };
}

t.test('a created key is shown whole once, then never again', async (t) => {
  const { fake, app } = await atNamePrompt(t, 'Studio North', 'pro');
  await press(app, 'c', 'i', KEYS.enter);
  await waitForText(app, 'Scope of the new key of Studio North');
  await press(app, KEYS.enter);
  const shown = await waitForText(app, 'shown this once');
  const secret = fake.calls.includes('createKey') ? /service_sk_live_\S+/.exec(shown)?.[0] : undefined;
  t.ok(secret, 'the frame carries the whole secret');
  t.equal(secret!.length, 'service_sk_live_'.length + 32, 'not truncated');

  // Any key hides it; the listing then shows only the masked form.
  await press(app, ' ');
  const listed = await waitForFrame(app, (frame) => frame.includes('ci') && !frame.includes('shown this once'), 'the key list');
  t.notOk(listed.includes(secret!), 'the secret is gone after dismissing');
  t.match(listed, `service_sk_live_…${secret!.slice(-4)}`, 'the list shows prefix and last four');

  // Leaving the screen and coming back does not bring it back either.
  await press(app, '1');
  await waitForText(app, 'Studio North');
  await press(app, '2');
  const back = await waitForText(app, `…${secret!.slice(-4)}`);
  t.notOk(back.includes(secret!), 'still gone after navigating away and back');
  t.notOk(
    app.frames.slice(app.frames.indexOf(listed)).some((frame) => frame.includes(secret!)),
    'no later frame showed it',
  );
});

t.test('a secret is dropped when the admin leaves the screen without dismissing it', async (t) => {
  const { app } = await atNamePrompt(t, 'Solo', 'studio');
  await press(app, KEYS.enter);
  await waitForText(app, 'Scope of the new key');
  await press(app, KEYS.enter);
  const shown = await waitForText(app, 'shown this once');
  const secret = /service_sk_live_\S+/.exec(shown)![0];
  await press(app, KEYS.tab);
  await waitForText(app, 'Endpoint');
  await press(app, KEYS.shiftTab);
  const back = await waitForText(app, `…${secret.slice(-4)}`);
  t.notOk(back.includes(secret), 'leaving the screen dropped the secret');
});

t.test('with several accounts the admin picks the owner first', async (t) => {
  const fake = new FakeAdmin();
  fake.addAccount('Alpha', 'pro');
  const beta = fake.addAccount('Beta', 'agency');
  const app = renderApp(fake, 'keys');
  t.teardown(() => app.unmount());
  await waitForText(app, 'No keys yet');
  await press(app, 'n');
  await waitForText(app, 'New key for which account?');
  await press(app, 'j', KEYS.enter);
  await waitForText(app, 'Name for the new key of Beta');
  await press(app, 'q', '2', KEYS.enter); // typed into the prompt, not quitting or switching
  await waitForText(app, 'Scope of the new key of Beta');
  await press(app, KEYS.enter);
  await waitForText(app, 'shown this once');
  t.equal(fake.keys[0].account_id, beta.id);
  t.equal(fake.keys[0].name, 'q2');
});

/** A fresh keys screen for one account of `plan`, walked to the scope picker with an empty name. */
async function atScopePicker(t: { teardown(fn: () => unknown): void }, plan: 'lite' | 'pro') {
  const { fake, app } = await atNamePrompt(t, `${plan} shop`, plan);
  await press(app, KEYS.enter);
  return { fake, app, picker: await waitForText(app, `Scope of the new key of ${plan} shop`) };
}

t.test('the scope: api by default, app first for a Lite account (its api keys are refused)', async (t) => {
  const lite = await atScopePicker(t, 'lite');
  t.match(lite.picker, /refused on the Lite plan/);
  await press(lite.app, KEYS.enter);
  await waitForText(lite.app, 'shown this once');
  t.equal(lite.fake.keys[0].scope, 'app', 'Enter on the Lite default makes an app key');

  const pro = await atScopePicker(t, 'pro');
  t.notMatch(pro.picker, /refused/);
  await press(pro.app, 'j', KEYS.enter);
  await waitForText(pro.app, 'shown this once');
  t.equal(pro.fake.keys[0].scope, 'app', 'chosen with ↓');
});

t.test('a pasted name followed at once by Enter is kept', async (t) => {
  for (const [how, chunks] of [
    ['paste, then Enter in the same tick', ['ci-uploader', KEYS.enter]],
    ['paste and Enter in one chunk', [`ci-uploader${KEYS.enter}`]],
  ] as const) {
    const { fake, app } = await atNamePrompt(t, 'Studio North', 'pro');
    await settle(); // the prompt is listening, as it is long before a person pastes
    for (const chunk of chunks) app.stdin.write(chunk);
    await waitForText(app, 'Scope of the new key');
    await press(app, KEYS.enter);
    await waitForText(app, 'shown this once');
    t.equal(fake.keys[0].name, 'ci-uploader', how);
  }
});

t.test('revoke asks first and only `y` revokes', async (t) => {
  const fake = new FakeAdmin();
  const account = fake.addAccount('Studio North', 'pro');
  await fake.createKey({ accountId: account.id, name: 'uploader' });
  await fake.createKey({ accountId: account.id, name: 'backup-job' });
  const [first, second] = fake.keys;
  const app = renderApp(fake, 'keys');
  t.teardown(() => app.unmount());
  await waitForText(app, 'backup-job');

  await press(app, 'x');
  await waitForText(app, `Revoke service_sk_live_…${first.last4} (uploader)?`);
  await press(app, 'n');
  await waitForFrame(app, (frame) => !frame.includes('Revoke service_sk_live_'), 'the confirmation to close');
  t.equal(fake.keys.length, 2, 'n cancels');

  await press(app, 'j', 'x');
  await waitForText(app, `Revoke service_sk_live_…${second.last4} (backup-job)?`);
  await press(app, KEYS.escape);
  await waitForFrame(app, (frame) => !frame.includes('Revoke service_sk_live_'), 'the confirmation to close');
  t.equal(fake.keys.length, 2, 'Esc cancels');

  await press(app, 'x', 'y');
  const after = await waitForText(app, `Revoked service_sk_live_…${second.last4}.`);
  t.same(
    fake.calls.filter((call) => call.startsWith('revokeKey')),
    [`revokeKey ${second.id}`],
  );
  await waitForFrame(app, (frame) => !frame.includes('backup-job'), 'the revoked key to leave the list');
  t.match(after, 'uploader');
});
