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
import { CHANGE_CHANNEL, migrate } from './postgres-migrations.js';
import { MapCollection, writeBehind, type ChangeKind } from './write-behind.js';

type CollectionName = (typeof COLLECTIONS)[number];

export interface PostgresStoreOptions {
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

  /** Takes what is pending and writes it on `client` (inside the caller's transaction). */
  async function writePending(client: pg.PoolClient): Promise<void> {
    const batch = [...pending].map(([name, changes]) => [name, new Map(changes)] as const);
    for (const [, changes] of pending) changes.clear();
    try {
      for (const [name, changes] of batch) {
        const upserts: string[] = [];
        const docs: string[] = [];
        const deletes: string[] = [];
        for (const [id, kind] of changes) {
          const record = collections[name].get(id);
          if (kind === 'upsert' && record) {
            upserts.push(id);
            docs.push(JSON.stringify(record));
          } else {
            deletes.push(id);
          }
        }
        if (upserts.length) {
          await client.query(
            `INSERT INTO ${name} (id, doc) SELECT * FROM unnest($1::text[], $2::jsonb[]) ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc`,
            [upserts, docs],
          );
        }
        if (deletes.length) await client.query(`DELETE FROM ${name} WHERE id = ANY($1::text[])`, [deletes]);
      }
    } catch (error) {
      // Nothing was written: the changes go back to wait for the next flush (newer ones win).
      for (const [name, changes] of batch) {
        const now = pending.get(name)!;
        for (const [id, kind] of changes) if (!now.has(id)) now.set(id, kind);
      }
      writer.changed();
      throw error;
    }
  }

  async function inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  // A section's changes must reach the database in its own transaction, before its lock goes: a
  // background write that took them would commit after the lock is released, and another node's
  // admission would read the account from before the charge. So while a section runs (from its call
  // to its write taking the batch) the background writer waits; check and batch are one synchronous step.
  let sectionsRunning = 0;
  let sectionsDone: Array<() => void> = [];
  const writer = writeBehind(options.writeDelayMs ?? 20, () =>
    inTransaction(async (client) => {
      while (sectionsRunning > 0) await new Promise<void>((resolve) => sectionsDone.push(resolve));
      await writePending(client);
    }),
  );

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

  /** Puts the database's version of records into memory, unless this node has a newer one pending. */
  function refresh(name: CollectionName, rows: Array<{ id: string; doc: { id: string } | null }>): void {
    for (const { id, doc } of rows) {
      if (pending.get(name)!.has(id)) continue;
      if (doc) collections[name].records.set(id, doc);
      else collections[name].records.delete(id);
    }
  }

  const feed = await pool.connect();
  let feedChain = Promise.resolve();
  feed.on('notification', (message) => {
    const change = JSON.parse(message.payload ?? '{}') as { table: CollectionName; id: string; op: string; node: string | null };
    if (change.node === node || !(COLLECTIONS as readonly string[]).includes(change.table)) return;
    // In order, one at a time, so an older read never lands after a newer one.
    feedChain = feedChain
      .then(async () => {
        if (change.op === 'DELETE') return refresh(change.table, [{ id: change.id, doc: null }]);
        const { rows } = await pool.query<{ doc: { id: string } }>(`SELECT doc FROM ${change.table} WHERE id = $1`, [change.id]);
        refresh(change.table, [{ id: change.id, doc: rows[0]?.doc ?? null }]);
      })
      .catch(() => undefined);
  });
  await feed.query(`LISTEN ${CHANGE_CHANNEL}`);

  let closed = false;
  return {
    ...(collections as unknown as Omit<Store, 'flush' | 'close' | 'exclusive'>),
    node,
    flush: () => writer.flush(),
    async reload(name: CollectionName, id: string): Promise<void> {
      const { rows } = await pool.query<{ doc: { id: string } }>(`SELECT doc FROM ${name} WHERE id = $1`, [id]);
      refresh(name, [{ id, doc: rows[0]?.doc ?? null }]);
    },
    async exclusive<T>(accountId: string, section: (tx: StoreTransaction | null) => T | Promise<T>): Promise<T> {
      return inTransaction(async (client) => {
        await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [ACCOUNT_LOCK_NAMESPACE + accountId]);
        const read = async (name: CollectionName, where: string) => {
          const { rows } = await client.query<{ id: string; doc: { id: string } }>(`SELECT id, doc FROM ${name} WHERE ${where}`, [
            accountId,
          ]);
          return rows;
        };
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
        let endedRows: Array<{ id: string; doc: { id: string } | null }> = [];
        if (ended.length) {
          const { rows } = await client.query<{ id: string; doc: { id: string } }>('SELECT id, doc FROM jobs WHERE id = ANY($1::text[])', [
            ended,
          ]);
          const found = new Set(rows.map((row) => row.id));
          endedRows = [...rows, ...ended.filter((id) => !found.has(id)).map((id) => ({ id, doc: null }))];
        }
        const idempotency = await read('idempotency', 'account_id = $1');
        refresh('accounts', account);
        refresh('jobs', endedRows);
        refresh('jobs', jobs);
        refresh('idempotency', idempotency);
        sectionsRunning++;
        let written: Promise<void>;
        let result: T;
        try {
          result = await section(client);
          written = writePending(client);
        } finally {
          if (--sectionsRunning === 0) {
            const waiting = sectionsDone;
            sectionsDone = [];
            for (const wake of waiting) wake();
          }
        }
        await written;
        return result;
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      await writer.close();
      await feedChain;
      feed.release();
      await pool.end();
    },
  };
}
