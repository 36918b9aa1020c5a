/**
 * The PostgreSQL schema, as numbered migrations applied in order at start. A migration is never
 * edited once released: a change is a new entry. migrate() runs them under a transaction-scoped
 * advisory lock, so two nodes starting at once apply each migration exactly once (the second
 * waits, then finds nothing left to do).
 */
import type pg from 'pg';
import { COLLECTIONS } from './store.js';

/** Any fixed 64-bit number unique to this application's migrations. */
const MIGRATION_LOCK = 7_160_442_015;

export const CHANGE_CHANNEL = 'vectorize_changes';

interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Each collection is a table of JSON documents keyed by id; `pos` keeps insertion order (listings
 * and the lowdb file's order). Columns the database must enforce or search on are generated from
 * the document. A trigger announces every change on CHANGE_CHANNEL with the writer's node id, so
 * the other nodes refresh the record in their memory.
 */
const collectionTables = COLLECTIONS.map(
  (name) => `
CREATE TABLE ${name} (
  pos bigserial,
  id text PRIMARY KEY,
  doc jsonb NOT NULL
);
CREATE INDEX ${name}_pos ON ${name} (pos);
CREATE TRIGGER ${name}_changed AFTER INSERT OR UPDATE OR DELETE ON ${name}
  FOR EACH ROW EXECUTE FUNCTION vectorize_announce_change();`,
).join('\n');

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'collections as JSON documents, with a change feed',
    sql: `
CREATE FUNCTION vectorize_announce_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('${CHANGE_CHANNEL}', json_build_object(
    'table', TG_TABLE_NAME,
    'id', CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END,
    'op', TG_OP,
    'node', current_setting('vectorize.node', true))::text);
  RETURN NULL;
END $$;
${collectionTables}
-- What an account's admission reads under its lock (postgres-store.ts exclusive()).
ALTER TABLE jobs ADD COLUMN account_id text GENERATED ALWAYS AS (doc->>'account_id') STORED;
ALTER TABLE jobs ADD COLUMN status text GENERATED ALWAYS AS (doc->>'status') STORED;
CREATE INDEX jobs_account_status ON jobs (account_id, status);
ALTER TABLE idempotency ADD COLUMN account_id text GENERATED ALWAYS AS (doc->>'account_id') STORED;
CREATE INDEX idempotency_account ON idempotency (account_id);
`,
  },
  {
    version: 2,
    name: 'the durable queue: acceptance numbers, worker heartbeats and claims',
    sql: `
-- jobs.seq across every API node (adapters/pg-boss-queue.ts nextSeq).
CREATE SEQUENCE job_seq;
SELECT setval('job_seq', COALESCE((SELECT max((doc->>'seq')::bigint) FROM jobs), 0) + 1, false);
-- Each node's last sign of life, and which pg-boss entries it runs: a claim whose node went
-- silent is handed out again.
CREATE TABLE queue_workers (id text PRIMARY KEY, seen_at timestamptz NOT NULL);
CREATE TABLE queue_claims (
  queue_job_id uuid PRIMARY KEY,
  job_id text NOT NULL,
  worker text NOT NULL,
  claimed_at timestamptz NOT NULL DEFAULT now()
);
`,
  },
];

/** Applies the migrations not applied yet; returns the versions it applied. */
export async function migrate(pool: pg.Pool, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations ' +
        '(version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((row) => row.version));
    const applied: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      applied.push(migration.version);
    }
    return applied;
  });
}

/** Runs `work` on one pooled connection inside BEGIN … COMMIT; any error rolls it back and is rethrown. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
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
