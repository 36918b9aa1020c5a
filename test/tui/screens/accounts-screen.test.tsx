import t from 'tap';
import { FakeAdmin } from '../fake-admin.js';
import { KEYS, press, renderApp, waitForFrame, waitForText } from '../helpers.js';

t.test('lists each account with its plan and what is used and left of each allowance', async (t) => {
  const fake = new FakeAdmin();
  fake.addAccount('Trial Co', 'trial', { trial_used: 5 });
  fake.addAccount('Pro Studio', 'pro', { trial_used: 5, period_used: 120 });
  const app = renderApp(fake, 'accounts');
  t.teardown(() => app.unmount());
  const frame = await waitForText(app, 'Pro Studio');
  const trialRow = frame.split('\n').find((line) => line.includes('Trial Co'))!;
  const proRow = frame.split('\n').find((line) => line.includes('Pro Studio'))!;
  t.match(trialRow, /trial\s+5 used · 0 left\s+—/, 'trial account: spent trial, no monthly allowance');
  t.match(proRow, /pro\s+5 used · 0 left\s+120 used · 380 left\s+2025-04-01/, 'pro account: monthly used/left and its reset date');
});

t.test('a plan change, once confirmed, shows in the allowances', async (t) => {
  const fake = new FakeAdmin();
  const account = fake.addAccount('Studio North', 'trial', { trial_used: 3 });
  const app = renderApp(fake, 'accounts');
  t.teardown(() => app.unmount());
  await waitForText(app, 'Studio North');

  await press(app, KEYS.enter);
  let frame = await waitForText(app, 'Allowances');
  t.match(frame, 'Trial: 3 used of 5, 2 left, never renews');
  t.match(frame, 'Monthly: none on this plan');

  await press(app, 'p');
  await waitForText(app, 'Plan for Studio North (now trial)');
  await press(app, 'j', 'j', KEYS.enter); // trial -> lite -> pro
  await waitForText(app, 'Move Studio North from trial to pro?');
  t.same(
    fake.calls.filter((call) => call.startsWith('setPlan')),
    [],
    'nothing changes before the confirmation',
  );
  await press(app, 'y');

  frame = await waitForText(app, 'Monthly: 0 used of 500, 500 left, resets 2025-04-01 00:00 UTC');
  t.match(frame, /Plan\s+pro/);
  t.match(frame, 'Studio North is now on pro.');
  t.same(
    fake.calls.filter((call) => call.startsWith('setPlan')),
    [`setPlan ${account.id} pro`],
  );

  await press(app, KEYS.escape);
  frame = await waitForFrame(app, (f) => !f.includes('Allowances') && f.includes('Studio North'), 'the account list');
  t.match(frame, /pro\s+3 used · 2 left\s+0 used · 500 left/, 'the list shows the new allowance too');
});

t.test('declining the plan change leaves the account alone', async (t) => {
  const fake = new FakeAdmin();
  fake.addAccount('Keep Me', 'studio');
  const app = renderApp(fake, 'accounts');
  t.teardown(() => app.unmount());
  await waitForText(app, 'Keep Me');
  await press(app, 'p');
  await waitForText(app, 'Plan for Keep Me (now studio)');
  await press(app, 'k', KEYS.enter);
  await waitForText(app, 'Move Keep Me from studio to pro?');
  await press(app, 'n');
  await waitForFrame(app, (frame) => !frame.includes('Move Keep Me'), 'the dialog to close');
  t.equal(fake.accounts[0].plan, 'studio');
  t.notOk(fake.calls.some((call) => call.startsWith('setPlan')));
});

t.test('creates an account with a name and a plan', async (t) => {
  const fake = new FakeAdmin();
  const app = renderApp(fake, 'accounts');
  t.teardown(() => app.unmount());
  await waitForText(app, 'No accounts yet');
  await press(app, 'n');
  await waitForText(app, 'Name of the new account');
  await press(app, KEYS.enter);
  t.match(app.lastFrame(), 'Name of the new account', 'an empty name is not submitted');
  await press(app, 'Q', 'u', 'x', KEYS.backspace, 'i', 'p', ' ', '4');
  await waitForText(app, 'Quip 4');
  await press(app, KEYS.enter);
  await waitForText(app, 'Plan for Quip 4');
  await press(app, KEYS.enter);
  const frame = await waitForText(app, 'Created Quip 4');
  t.equal(fake.accounts.length, 1);
  t.equal(fake.accounts[0].name, 'Quip 4');
  t.equal(fake.accounts[0].plan, 'trial', 'the picker starts on trial');
  t.match(frame, /Quip 4\s+trial\s+0 used · 5 left/);
});

t.test('at 100 columns account ids are shown whole', async (t) => {
  const fake = new FakeAdmin();
  const account = fake.addAccount('A studio with a rather long name', 'studio');
  t.equal(account.id.length, 'acct_'.length + 20, 'as long as the server makes them');
  const app = renderApp(fake, 'accounts');
  t.teardown(() => app.unmount());
  const frame = await waitForText(app, 'A studio');
  t.match(frame, account.id);
});
