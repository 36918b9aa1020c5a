/**
 * PostgreSQL implementation of the store (VECTORIZE_DATABASE_URL). The services read synchronously,
 * so each node keeps every record in memory, loaded at open; its writes go to the database behind
 * it (adapters/write-behind.ts: one transaction per coalesced batch, awaited by flush()), and the
 * database announces every change (postgres-migrations.ts), so a change one node makes reaches the
 * others' memory within milliseconds. Two nodes writing the same record: the later write wins.
 * What must hold across nodes under races runs in exclusive(): a transaction holding the
 * account's advisory lock, its records re-read first and its writes committed before the lock goes.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { COLLECTIONS, type Store, type StoreTransaction } from './store.js';
import { CHANGE_CHANNEL, inTransaction, migrate } from './postgres-migrations.js';
import { MapCollection, writeBehind, type ChangeKind } from './write-behind.js';

type CollectionName = (typeof COLLECTIONS)[number];

interface PostgresStoreOptions {
  /** Coalescing window for writes, ms. */
  writeDelayMs?: number;
  /** Connections in the pool (one more is held for the change feed). */
  poolSize?: number;
}

export interface PostgresStore extends Store {
  /** This node's id in change announcements (its own are ignored). */
  readonly node: string;
  /** Reads one record from the database into memory now, rather than when the change feed brings it. */
  reload(name: CollectionName, id: string): Promise<void>;
}

const ACCOUNT_LOCK_NAMESPACE = 'vectorize:account:';

export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const node = randomUUID();
  // Every session carries this node's id, so the change feed can tell its writes from other nodes'.
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 4, options: `-c vectorize.node=${node}` });
  await migrate(pool);

  const collections = {} as Record<CollectionName, MapCollection<{ id: string }>>;
  const pending = new Map<CollectionName, Map<string, ChangeKind>>(COLLECTIONS.map((name) => [name, new Map()]));

  // A read of the database is stale for a record this node is still writing, or finished writing
  // after the read was sent: putting it in memory would undo this node's own change (a job's upload
  // path, an account's charge). Each record's writes are counted while in flight, and stamped with
  // a tick of `writeClock` when they settle; a read remembers the tick it was sent at.
  let writeClock = 0;
  const inFlight = new Map<string, number>();
  const settledAt = new Map<string, number>();
  let readsOpen = 0;
  const rereadAfterSettle = new Map<string, { name: CollectionName; id: string }>();
  const recordKey = (name: CollectionName, id: string) => `${name}\u0000${id}`;

  interface Batch {
    writes: Array<{ name: CollectionName; upserts: string[]; docs: string[]; deletes: string[] }>;
    changes: Array<[CollectionName, Map<string, ChangeKind>]>;
  }

  /** Takes what is pending, documents as they are now, in one synchronous step. */
  function takePending(): Batch {
    const batch: Batch = { writes: [], changes: [] };
    for (const [name, changes] of pending) {
      if (changes.size === 0) continue;
      const taken = new Map(changes);
      changes.clear();
      const write = { name, upserts: [] as string[], docs: [] as string[], deletes: [] as string[] };
      for (const [id, kind] of taken) {
        const record = collections[name].get(id);
        if (kind === 'upsert' && record) {
          write.upserts.push(id);
          write.docs.push(JSON.stringify(record));
        } else {
          write.deletes.push(id);
        }
        const key = recordKey(name, id);
        inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
      }
      batch.writes.push(write);
      batch.changes.push([name, taken]);
    }
    return batch;
  }

  async function writeBatch(client: pg.PoolClient, batch: Batch): Promise<void> {
    for (const { name, upserts, docs, deletes } of batch.writes) {
      if (upserts.length) {
        await client.query(
          `INSERT INTO ${name} (id, doc) SELECT * FROM unnest($1::text[], $2::jsonb[]) ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc`,
          [upserts, docs],
        );
      }
      if (deletes.length) await client.query(`DELETE FROM ${name} WHERE id = ANY($1::text[])`, [deletes]);
    }
  }

  /** After the batch's transaction ended: a failed batch's changes wait for the next write (newer ones win). */
  function settle(batch: Batch, committed: boolean): void {
    const tick = ++writeClock;
    for (const [name, changes] of batch.changes) {
      const now = pending.get(name)!;
      for (const [id, kind] of changes) {
        const key = recordKey(name, id);
        const left = inFlight.get(key)! - 1;
        if (left > 0) inFlight.set(key, left);
        else inFlight.delete(key);
        settledAt.set(key, tick);
        if (!committed && !now.has(id)) now.set(id, kind);
        if (left <= 0 && rereadAfterSettle.has(key)) reread(name, id);
      }
    }
    if (readsOpen === 0) settledAt.clear();
    if (!committed) writer.changed();
  }

  /** Runs `read` and returns its rows with the tick it was sent at, for refresh(). */
  async function stampedRead<T>(read: () => Promise<T>): Promise<{ rows: T; sentAt: number }> {
    const sentAt = writeClock;
    readsOpen++;
    try {
      return { rows: await read(), sentAt };
    } finally {
      readsOpen--;
    }
  }

  /** Writes `batch` in `client`'s open transaction, then commits it and settles it either way. */
  async function writeAndSettle<T>(work: (client: pg.PoolClient) => Promise<{ batch: Batch; result: T }>): Promise<T> {
    let taken: Batch | null = null;
    try {
      const result = await inTransaction(pool, async (client) => {
        const out = await work(client);
        taken = out.batch;
        await writeBatch(client, out.batch);
        return out.result;
      });
      if (taken) settle(taken, true);
      return result;
    } catch (error) {
      if (taken) settle(taken, false);
      throw error;
    }
  }

  // A section's changes must reach the database in its own transaction, before its lock goes: a
  // background write that took them would commit after the lock is released, and another node's
  // admission would read the account from before the charge. So the background writer takes
  // nothing while a section runs (from its call to its own take); it waits before it asks the
  // pool for a connection, so the waiting holds none, and checks again once it has one.
  // The other way round too: a background batch takes documents as they are when it is taken; a
  // section that committed before that batch would be overwritten by the batch's older copy of the
  // same record (an account before its charge). So a section waits for a batch already taken to
  // settle before it reads, and counts as running from its call, not from its reads.
  let sectionsRunning = 0;
  let sectionsDone: Array<() => void> = [];
  let batchInFlight: Promise<void> | null = null;
  const sectionsIdle = async () => {
    while (sectionsRunning > 0) await new Promise<void>((resolve) => sectionsDone.push(resolve));
  };
  const writer = writeBehind(options.writeDelayMs ?? 20, async () => {
    await sectionsIdle();
    let settled = () => {};
    try {
      await writeAndSettle(async () => {
        // Checked in the step that takes the batch: a section may start while a wait resumes.
        while (sectionsRunning > 0) await sectionsIdle();
        batchInFlight = new Promise<void>((resolve) => (settled = resolve));
        return { batch: takePending(), result: undefined };
      });
    } finally {
      batchInFlight = null;
      settled();
    }
  });

  for (const name of COLLECTIONS) {
    const { rows } = await pool.query<{ doc: { id: string } }>(`SELECT doc FROM ${name} ORDER BY pos`);
    collections[name] = new MapCollection(
      (id, kind) => {
        pending.get(name)!.set(id, kind);
        writer.changed();
      },
      rows.map((row) => row.doc),
    );
  }

  /**
   * Puts the database's version of records into memory, unless this node's own is newer (see
   * writeClock). A read under the account's lock (`sentAt` null) is newer than every write of this
   * node that is not pending: same-account sections commit before the lock passes on, and no
   * background batch is in flight while a section runs; only the stamps would be wrong there, since
   * a write that committed before the lock was granted may settle after the read was sent.
   * A read refused for a write in flight or settled after it was sent may still hold another node's
   * newer change: the record is read again once this node's writes to it have settled.
   */
  function refresh(name: CollectionName, rows: Array<{ id: string; doc: { id: string } | null }>, sentAt: number | null): void {
    for (const { id, doc } of rows) {
      const key = recordKey(name, id);
      if (pending.get(name)!.has(id)) continue;
      if (sentAt !== null && (inFlight.has(key) || (settledAt.get(key) ?? -1) > sentAt)) {
        rereadAfterSettle.set(key, { name, id });
        continue;
      }
      rereadAfterSettle.delete(key);
      if (doc) collections[name].records.set(id, doc);
      else collections[name].records.delete(id);
    }
  }

  // A dropped connection (a database restart, a network cut) must not end the process: an idle
  // pooled one is replaced on the next query; the change feed's cannot be, since the changes
  // announced while it was gone are lost, so this node reports itself not ready (ping) until restarted.
  pool.on('error', () => undefined);
  const feed = await pool.connect();
  let feedLost: Error | null = null;
  feed.on('error', (error) => {
    feedLost ??= error;
  });
  let feedChain = Promise.resolve();
  /** Reads one record into memory, after the reads queued before it: an older read never lands after a newer one. */
  function reread(name: CollectionName, id: string): void {
    feedChain = feedChain
      .then(async () => {
        const { rows, sentAt } = await stampedRead(
          async () => (await pool.query<{ doc: { id: string } }>(`SELECT doc FROM ${name} WHERE id = $1`, [id])).rows,
        );
        refresh(name, [{ id, doc: rows[0]?.doc ?? null }], sentAt);
      })
      .catch(() => undefined);
  }
  feed.on('notification', (message) => {
    const change = JSON.parse(message.payload ?? '{}') as { table: CollectionName; id: string; op: string; node: string | null };
    if (change.node === node || !(COLLECTIONS as readonly string[]).includes(change.table)) return;
    if (change.op === 'DELETE') {
      feedChain = feedChain.then(() => refresh(change.table, [{ id: change.id, doc: null }], writeClock));
    } else {
      reread(change.table, change.id);
    }
  });
  await feed.query(`LISTEN ${CHANGE_CHANNEL}`);

  /** One admission section: the account's lock, fresh reads of its records, the section, its writes, one transaction. */
  function runSection<T>(accountId: string, section: (tx: StoreTransaction | null) => T | Promise<T>): Promise<T> {
    return writeAndSettle(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [ACCOUNT_LOCK_NAMESPACE + accountId]);
      const read = async (name: CollectionName, where: string, parameter: unknown = accountId) =>
        (await client.query<{ id: string; doc: { id: string } }>(`SELECT id, doc FROM ${name} WHERE ${where}`, [parameter])).rows;
      // Every read first, then every refresh and the section with no await between them: a change
      // feed read that started before another node's commit must not land between the refresh and
      // the section and hand it a stale account (a lost charge).
      const account = await read('accounts', 'id = $1');
      const activeHere = collections.jobs.filter(
        (job) =>
          (job as { account_id?: string }).account_id === accountId &&
          ['queued', 'processing'].includes((job as { status?: string }).status ?? ''),
      );
      const jobs = await read('jobs', "account_id = $1 AND status IN ('queued', 'processing')");
      // Jobs this node thinks active that ended elsewhere are re-read too.
      const seen = new Set(jobs.map((row) => row.id));
      const ended = activeHere.filter((job) => !seen.has(job.id)).map((job) => job.id);
      const endedRows: Array<{ id: string; doc: { id: string } | null }> = [];
      if (ended.length) {
        endedRows.push(...(await read('jobs', 'id = ANY($1::text[])', ended)));
        const found = new Set(endedRows.map((row) => row.id));
        endedRows.push(...ended.filter((id) => !found.has(id)).map((id) => ({ id, doc: null })));
      }
      const idempotency = await read('idempotency', 'account_id = $1');
      refresh('accounts', account, null);
      refresh('jobs', [...endedRows, ...jobs], null);
      refresh('idempotency', idempotency, null);
      const result = await section(client);
      return { result, batch: takePending() };
    });
  }

  let closed = false;
  return {
    ...(collections as unknown as Omit<Store, 'flush' | 'close' | 'exclusive' | 'ping'>),
    node,
    flush: () => writer.flush(),
    async reload(name: CollectionName, id: string): Promise<void> {
      const { rows, sentAt } = await stampedRead(
        async () => (await pool.query<{ doc: { id: string } }>(`SELECT doc FROM ${name} WHERE id = $1`, [id])).rows,
      );
      refresh(name, [{ id, doc: rows[0]?.doc ?? null }], sentAt);
    },
    async ping() {
      if (feedLost) throw new Error(`the change feed from PostgreSQL was cut (${feedLost.message}); restart this node`);
      await pool.query('SELECT 1');
    },
    async exclusive<T>(accountId: string, section: (tx: StoreTransaction | null) => T | Promise<T>): Promise<T> {
      sectionsRunning++;
      try {
        while (batchInFlight) await batchInFlight;
        return await runSection(accountId, section);
      } finally {
        if (--sectionsRunning === 0) {
          const waiting = sectionsDone;
          sectionsDone = [];
          for (const wake of waiting) wake();
        }
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await writer.close();
      await feedChain;
      feed.release(feedLost ?? undefined);
      await pool.end();
    },
  };
}
