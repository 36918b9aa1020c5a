/**
 * What the lowdb and PostgreSQL stores share: records held in memory (Maps in insertion order, so
 * the services' synchronous reads stay synchronous) and writes coalesced behind them. A change
 * schedules one write a few ms later; callers that answer "created" await flush() first so what
 * they promised is stored.
 */
import type { Collection } from './store.js';

export type ChangeKind = 'upsert' | 'delete';

export class MapCollection<T extends { id: string }> implements Collection<T> {
  readonly records = new Map<string, T>();
  constructor(
    private readonly changed: (id: string, kind: ChangeKind) => void,
    initial: T[],
  ) {
    for (const record of initial) this.records.set(record.id, record);
  }
  get(id: string) {
    return this.records.get(id);
  }
  all() {
    return [...this.records.values()];
  }
  find(predicate: (record: T) => boolean) {
    for (const record of this.records.values()) if (predicate(record)) return record;
    return undefined;
  }
  filter(predicate: (record: T) => boolean) {
    return this.all().filter(predicate);
  }
  count(predicate?: (record: T) => boolean) {
    if (!predicate) return this.records.size;
    let n = 0;
    for (const record of this.records.values()) if (predicate(record)) n++;
    return n;
  }
  insert(record: T) {
    this.records.set(record.id, record);
    this.changed(record.id, 'upsert');
    return record;
  }
  update(id: string, patch: Partial<T>) {
    const current = this.records.get(id);
    if (!current) return undefined;
    const next = { ...current, ...patch };
    this.records.set(id, next);
    this.changed(id, 'upsert');
    return next;
  }
  delete(id: string) {
    const existed = this.records.delete(id);
    if (existed) this.changed(id, 'delete');
    return existed;
  }
}

interface WriteBehind {
  /** Marks the store dirty and schedules a write. */
  changed(): void;
  /** Resolves once every change made so far is written. */
  flush(): Promise<void>;
  /** Flushes, then ignores further changes. */
  close(): Promise<void>;
}

/**
 * At most one write runs and at most one waits behind it; every caller arriving meanwhile joins
 * the waiting one, whose snapshot is taken when it starts, so a burst of 20 accepts costs two
 * writes, not twenty.
 */
export function writeBehind(delayMs: number, writeNow: () => Promise<void>): WriteBehind {
  let timer: NodeJS.Timeout | null = null;
  let dirty = false;
  let closed = false;
  let inFlight: Promise<void> | null = null;
  let queued: Promise<void> | null = null;

  const write = (): Promise<void> => {
    timer = null;
    if (queued) return queued;
    if (!inFlight) {
      if (!dirty) return Promise.resolve();
      dirty = false;
      // A failed write (a full disk) leaves the changes unwritten: the next write must retry them.
      inFlight = writeNow()
        .catch((error: unknown) => {
          dirty = true;
          throw error;
        })
        .finally(() => {
          inFlight = null;
        });
      return inFlight;
    }
    queued = inFlight
      .catch(() => undefined)
      .then(() => {
        queued = null;
        return write();
      });
    return queued;
  };

  const flush = async () => {
    if (timer) clearTimeout(timer);
    await write();
  };

  return {
    changed() {
      if (closed) return;
      dirty = true;
      if (!timer) timer = setTimeout(() => void write(), delayMs);
    },
    flush,
    async close() {
      await flush();
      closed = true;
    },
  };
}

/** Runs tasks one after another per key, in the order they arrive; different keys run freely. */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => T | Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
