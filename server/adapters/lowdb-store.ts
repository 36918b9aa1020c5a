/**
 * lowdb implementation of the store. Records live in memory (Maps in insertion order) and are
 * written as one JSON file. Writes are coalesced: a change schedules one write a few ms later, and
 * lowdb's steno writer replaces the file by rename, so a crash leaves the old or the new file,
 * never half of one. Callers that answer "created" await flush() first so what they promised is
 * on disk.
 */
import { Low } from 'lowdb';
import { DataFile } from 'lowdb/node';
import { COLLECTIONS, emptyData, type Collection, type Store, type StoreData } from './store.js';

class MapCollection<T extends { id: string }> implements Collection<T> {
  readonly records = new Map<string, T>();
  constructor(private readonly changed: () => void, initial: T[]) {
    for (const record of initial) this.records.set(record.id, record);
  }
  get(id: string) { return this.records.get(id); }
  all() { return [...this.records.values()]; }
  find(predicate: (record: T) => boolean) {
    for (const record of this.records.values()) if (predicate(record)) return record;
    return undefined;
  }
  filter(predicate: (record: T) => boolean) { return this.all().filter(predicate); }
  count(predicate?: (record: T) => boolean) {
    if (!predicate) return this.records.size;
    let n = 0;
    for (const record of this.records.values()) if (predicate(record)) n++;
    return n;
  }
  insert(record: T) {
    this.records.set(record.id, record);
    this.changed();
    return record;
  }
  update(id: string, patch: Partial<T>) {
    const current = this.records.get(id);
    if (!current) return undefined;
    const next = { ...current, ...patch };
    this.records.set(id, next);
    this.changed();
    return next;
  }
  delete(id: string) {
    const existed = this.records.delete(id);
    if (existed) this.changed();
    return existed;
  }
}

export interface LowdbStoreOptions {
  /** Coalescing window for writes, ms. */
  writeDelayMs?: number;
}

export async function openLowdbStore(file: string, options: LowdbStoreOptions = {}): Promise<Store> {
  // Compact JSON: the file is for machines; pretty-printing only doubles the bytes written per change.
  const db = new Low<StoreData>(new DataFile<StoreData>(file, { parse: JSON.parse, stringify: (data) => JSON.stringify(data) }), emptyData());
  await db.read();
  const data = { ...emptyData(), ...(db.data ?? {}) };
  const delay = options.writeDelayMs ?? 20;
  let timer: NodeJS.Timeout | null = null;
  let dirty = false;
  let closed = false;

  const collections = {} as Record<(typeof COLLECTIONS)[number], MapCollection<{ id: string }>>;

  let inFlight: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  const writeNow = async (): Promise<void> => {
    dirty = false;
    const snapshot = emptyData();
    for (const name of COLLECTIONS) (snapshot[name] as { id: string }[]) = collections[name].all();
    db.data = snapshot;
    try {
      await db.write();
    } catch (error) {
      // A failed write (a full disk) leaves the changes unwritten: the next write must retry them.
      dirty = true;
      throw error;
    }
  };
  /**
   * At most one write runs and at most one waits behind it; every caller arriving meanwhile joins
   * the waiting one, whose snapshot is taken when it starts, so a burst of 20 accepts costs two
   * file writes, not twenty.
   */
  const write = (): Promise<void> => {
    timer = null;
    if (queued) return queued;
    if (!inFlight) {
      if (!dirty) return Promise.resolve();
      inFlight = writeNow().finally(() => { inFlight = null; });
      return inFlight;
    }
    queued = inFlight.catch(() => undefined).then(() => {
      queued = null;
      return write();
    });
    return queued;
  };
  const changed = () => {
    if (closed) return;
    dirty = true;
    if (!timer) timer = setTimeout(() => void write(), delay);
  };
  for (const name of COLLECTIONS) collections[name] = new MapCollection(changed, (data[name] ?? []) as { id: string }[]);

  const store = {
    ...(collections as unknown as Omit<Store, 'flush' | 'close'>),
    async flush() {
      if (timer) clearTimeout(timer);
      await write();
    },
    async close() {
      await store.flush();
      closed = true;
    },
  } as Store;
  return store;
}
