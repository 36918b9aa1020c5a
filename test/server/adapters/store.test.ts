import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import pg from 'pg';
import type { AccountRecord, Store } from '../../../server/adapters/store.js';
import { openLowdbStore } from '../../../server/adapters/lowdb-store.js';
import { openPostgresStore } from '../../../server/adapters/postgres-store.js';
import { MIGRATIONS } from '../../../server/adapters/postgres-migrations.js';
import { postgresMissing, testPostgres } from '../postgres.js';
import { waitFor } from '../helpers.js';

const missing = postgresMissing();
if (missing) t.comment(`PostgreSQL store tests skipped: ${missing}`);

/** Opens stores on one place (a file, a database); a second open is a restart or a second node. */
type Opener = (t: { teardown(fn: () => unknown): void }) => Promise<() => Promise<Store>>;

const MODES: Array<{ name: string; skip: string | false; opener: Opener }> = [
  {
    name: 'lowdb',
    skip: false,
    async opener(t) {
      const dir = mkdtempSync(join(tmpdir(), 'vectorize-store-'));
      t.teardown(() => rmSync(dir, { recursive: true, force: true }));
      return async () => {
        const store = await openLowdbStore(join(dir, 'db.json'), { writeDelayMs: 1 });
        t.teardown(() => store.close());
        return store;
      };
    },
  },
  {
    name: 'postgres',
    skip: missing ?? false,
    async opener(t) {
      const url = await testPostgres().database();
      return async () => {
        const store = await openPostgresStore(url, { writeDelayMs: 1 });
        t.teardown(() => store.close());
        return store;
      };
    },
  },
];

function account(id: string, trialUsed = 0): AccountRecord {
  return {
    id,
    name: id,
    plan: 'trial',
    created_at: '2025-01-15T12:00:00.000Z',
    billing_anchor_day: 15,
    trial_used: trialUsed,
    period_start: null,
    period_used: 0,
    accepted_at: [],
  };
}

for (const mode of MODES) {
  t.test(`${mode.name}: records survive a reopen in insertion order, with updates and deletes`, { skip: mode.skip }, async (t) => {
    const open = await mode.opener(t);
    const first = await open();
    for (const id of ['acct_c', 'acct_a', 'acct_b']) first.accounts.insert(account(id));
    t.match(first.accounts.update('acct_a', { trial_used: 3 }), { id: 'acct_a', trial_used: 3, name: 'acct_a' });
    t.equal(first.accounts.update('acct_none', { trial_used: 1 }), undefined);
    t.ok(first.accounts.delete('acct_b'));
    t.notOk(first.accounts.delete('acct_b'));
    t.equal(
      first.accounts.count((a) => a.trial_used > 0),
      1,
    );
    await first.close();
    const second = await open();
    t.same(
      second.accounts.all().map((a) => [a.id, a.trial_used]),
      [
        ['acct_c', 0],
        ['acct_a', 3],
      ],
    );
  });

  t.test(`${mode.name}: exclusive sections for one account never interleave their read and write`, { skip: mode.skip }, async (t) => {
    const open = await mode.opener(t);
    // Two nodes on PostgreSQL; lowdb has one process by construction (the data-dir lock).
    const nodes = mode.name === 'postgres' ? [await open(), await open()] : [await open()];
    nodes[0]!.accounts.insert(account('acct_trial'));
    await nodes[0]!.flush();
    const charge = async (store: Store) =>
      store.exclusive('acct_trial', async () => {
        const current = store.accounts.get('acct_trial')!;
        if (current.trial_used >= 5) return false;
        // A pause between the read and the write: without the lock the other node reads the same value.
        await new Promise((resolve) => setTimeout(resolve, 5));
        store.accounts.update('acct_trial', { trial_used: current.trial_used + 1 });
        return true;
      });
    const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => charge(nodes[i % nodes.length]!)));
    t.equal(outcomes.filter(Boolean).length, 5, 'exactly the trial allowance is accepted');
    for (const store of nodes) await waitFor(() => store.accounts.get('acct_trial')?.trial_used === 5, 'every node sees the count');
  });
}

t.test("postgres: a change one node makes reaches the other node's memory", { skip: missing ?? false }, async (t) => {
  const open = await MODES[1]!.opener(t);
  const [a, b] = [await open(), await open()];
  a.accounts.insert(account('acct_1'));
  await a.flush();
  await waitFor(() => b.accounts.get('acct_1') !== undefined, 'insert seen');
  a.accounts.update('acct_1', { name: 'renamed' });
  await a.flush();
  await waitFor(() => b.accounts.get('acct_1')?.name === 'renamed', 'update seen');
  a.accounts.delete('acct_1');
  await a.flush();
  await waitFor(() => b.accounts.get('acct_1') === undefined, 'delete seen');
  t.pass();
});

t.test('postgres: two nodes starting at once apply each migration exactly once', { skip: missing ?? false }, async (t) => {
  const url = await testPostgres().database();
  const stores = await Promise.all([openPostgresStore(url), openPostgresStore(url), openPostgresStore(url)]);
  t.teardown(() => Promise.all(stores.map((store) => store.close())));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  t.teardown(() => client.end());
  const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
  t.same(
    rows.map((row) => row.version),
    MIGRATIONS.map((m) => m.version),
  );
});

// A background batch takes documents when it starts and may commit later; an admission section on the
// same node that committed in between would be overwritten by the batch's older copy of the account.
// The batch is held deterministically: it also writes another account whose row a third session
// locks, listed first, so its one INSERT waits on that row before it reaches the target account.
t.test(
  'postgres: a background write taken before an admission section never overwrites its charge',
  { skip: missing ?? false },
  async (t) => {
    const url = await testPostgres().database();
    const store = await openPostgresStore(url, { writeDelayMs: 1 });
    t.teardown(() => store.close());
    store.accounts.insert(account('acct_blocker'));
    store.accounts.insert(account('acct_target'));
    await store.flush();

    const blocker = new pg.Client({ connectionString: url });
    await blocker.connect();
    t.teardown(() => blocker.end());
    await blocker.query('BEGIN');
    await blocker.query("SELECT 1 FROM accounts WHERE id = 'acct_blocker' FOR UPDATE");
    // pg_stat_activity is read once per transaction, so the wait is watched from a session of its own.
    const watcher = new pg.Client({ connectionString: url });
    await watcher.connect();
    t.teardown(() => watcher.end());

    store.accounts.update('acct_blocker', { name: 'blocked' });
    store.accounts.update('acct_target', { name: 'renamed' });
    const flushed = store.flush();
    await waitFor(async () => {
      const { rows } = await watcher.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO accounts%'",
      );
      return rows[0]!.n === 1;
    }, 'the background batch waits on the locked row');

    let sectionDone = false;
    const section = store
      .exclusive('acct_target', () => {
        const current = store.accounts.get('acct_target')!;
        store.accounts.update('acct_target', { trial_used: current.trial_used + 1 });
      })
      .then(() => (sectionDone = true));
    // Time for a section that does not wait for the batch to read, charge and commit.
    await new Promise((resolve) => setTimeout(resolve, 500));
    t.notOk(sectionDone, 'the section waits for the batch taken before it');

    await blocker.query('COMMIT');
    await Promise.all([flushed, section]);
    await store.flush();
    const { rows } = await blocker.query<{ doc: AccountRecord }>("SELECT doc FROM accounts WHERE id = 'acct_target'");
    t.match(rows[0]!.doc, { name: 'renamed', trial_used: 1 }, 'the database keeps both the rename and the charge');
    t.match(store.accounts.get('acct_target'), { name: 'renamed', trial_used: 1 });
  },
);

/**
 * Holds the reply to one COMMIT sent by `node`'s connections until `release` is called: the
 * transaction is committed in the database, but that node has not heard so (its write has not settled).
 */
function holdNextCommitReply(node: string): { release: () => void; restore: () => void } {
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const realQuery = prototype.query;
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  let armed = true;
  prototype.query = function (this: { connectionParameters?: { options?: string } }, ...args: unknown[]) {
    const result = realQuery.apply(this, args);
    if (armed && args[0] === 'COMMIT' && this.connectionParameters?.options?.includes(node)) {
      armed = false;
      return (result as Promise<unknown>).then(async (value) => {
        await gate;
        return value;
      });
    }
    return result;
  };
  return { release, restore: () => (prototype.query = realQuery) };
}

/** Two nodes on a fresh database, with one account that both hold in memory. */
async function twoNodesWith(t: { teardown(fn: () => unknown): void }, accountId: string) {
  const url = await testPostgres().database();
  const [a, b] = await Promise.all([openPostgresStore(url, { writeDelayMs: 1 }), openPostgresStore(url, { writeDelayMs: 1 })]);
  t.teardown(() => Promise.all([a.close(), b.close()]));
  a.accounts.insert(account(accountId));
  await a.flush();
  await waitFor(() => b.accounts.get(accountId) !== undefined, 'the account reached the second node');
  return { a, b, url };
}

// A node's own charge may settle after another node charged on top of it and after this node's next
// section read the account under the lock: that read is the newest, and memory must take it.
t.test(
  "postgres: an admission section reads the account as committed, though this node's own last charge has not settled",
  { skip: missing ?? false },
  async (t) => {
    const { a, b } = await twoNodesWith(t, 'acct_trial');
    const charge = (store: Store) =>
      store.exclusive('acct_trial', () => {
        const current = store.accounts.get('acct_trial')!;
        store.accounts.update('acct_trial', { trial_used: current.trial_used + 1 });
        return current.trial_used;
      });
    const held = holdNextCommitReply(b.node);
    t.teardown(held.restore);
    const first = charge(b);
    const countOnFirstNode = () => a.exclusive('acct_trial', () => a.accounts.get('acct_trial')!.trial_used);
    await waitFor(async () => (await countOnFirstNode()) === 1, "the second node's first charge is committed");
    t.equal(await charge(a), 1, 'the first node charges on top of it');
    t.equal(await charge(b), 2, "the second node's next section sees both charges, not its own unsettled copy");
    held.release();
    t.equal(await first, 0);
    t.equal(await countOnFirstNode(), 3, 'three charges counted');
    await waitFor(() => b.accounts.get('acct_trial')?.trial_used === 3, 'the second node ends with the count');
  },
);

// Another node's change announced while this node's own write to the record is unsettled cannot be
// taken then (the read may predate that write), and there may be no later announcement to bring it.
t.test(
  "postgres: another node's change announced while this node's write is unsettled still reaches memory",
  { skip: missing ?? false },
  async (t) => {
    const { a, b, url } = await twoNodesWith(t, 'acct_1');
    const reader = new pg.Client({ connectionString: url });
    await reader.connect();
    t.teardown(() => reader.end());
    const nameInDatabase = async () =>
      (await reader.query<{ doc: AccountRecord }>("SELECT doc FROM accounts WHERE id = 'acct_1'")).rows[0]?.doc.name;

    const held = holdNextCommitReply(b.node);
    t.teardown(held.restore);
    b.accounts.update('acct_1', { name: 'from b' });
    const bFlushed = b.flush();
    await waitFor(async () => (await nameInDatabase()) === 'from b', "the second node's write is committed");
    a.accounts.update('acct_1', { name: 'from a' });
    await a.flush();
    // Time for the announcement to reach the second node while its own write is unsettled.
    await new Promise((resolve) => setTimeout(resolve, 300));
    t.equal(b.accounts.get('acct_1')?.name, 'from b', 'not taken while its own write is unsettled');
    held.release();
    await bFlushed;
    await waitFor(() => b.accounts.get('acct_1')?.name === 'from a', "the other node's later change arrives");
    t.equal(await nameInDatabase(), 'from a');
  },
);
