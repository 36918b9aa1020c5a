/**
 * lowdb implementation of the store. Records live in memory and are written as one JSON file
 * (adapters/write-behind.ts coalesces the writes); lowdb's steno writer replaces the file by
 * rename, so a crash leaves the old or the new file, never half of one.
 */
import { Low } from 'lowdb';
import { DataFile } from 'lowdb/node';
import { COLLECTIONS, emptyData, type Store, type StoreData } from './store.js';
import { KeyedQueue, MapCollection, writeBehind } from './write-behind.js';

interface LowdbStoreOptions {
  /** Coalescing window for writes, ms. */
  writeDelayMs?: number;
}

export async function openLowdbStore(file: string, options: LowdbStoreOptions = {}): Promise<Store> {
  // Compact JSON: the file is for machines; pretty-printing only doubles the bytes written per change.
  const db = new Low<StoreData>(
    new DataFile<StoreData>(file, { parse: JSON.parse, stringify: (data) => JSON.stringify(data) }),
    emptyData(),
  );
  await db.read();
  const data = { ...emptyData(), ...(db.data ?? {}) };
  const sections = new KeyedQueue();
  const collections = {} as Record<(typeof COLLECTIONS)[number], MapCollection<{ id: string }>>;

  const writer = writeBehind(options.writeDelayMs ?? 20, async () => {
    const snapshot = emptyData();
    for (const name of COLLECTIONS) (snapshot[name] as { id: string }[]) = collections[name].all();
    db.data = snapshot;
    await db.write();
  });
  for (const name of COLLECTIONS) collections[name] = new MapCollection(() => writer.changed(), (data[name] ?? []) as { id: string }[]);

  return {
    ...(collections as unknown as Omit<Store, 'flush' | 'close' | 'exclusive' | 'ping'>),
    flush: () => writer.flush(),
    // One process holds the data dir (adapters/lock.ts): an in-process queue per account suffices.
    exclusive: (accountId, section) => sections.run(accountId, () => section(null)),
    // The records are this process's memory; their file is the data dir's, which /readyz probes itself.
    ping: async () => undefined,
    close: () => writer.close(),
  };
}
