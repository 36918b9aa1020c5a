/**
 * Folders: one per (account, batch_id). The first admitted file names it (folder_name, or the
 * creation date); later files of the batch do not rename it. Capacity is the plan's batch group.
 */
import { VectorizeError } from '../http-errors.js';
import type { AccountRecord, FolderRecord, Store } from '../adapters/store.js';
import type { Clock } from '../adapters/clock.js';
import { newId } from '../ids.js';
import type { JobService } from './jobs.js';

const MAX_LABEL_LENGTH = 128;
// C0, DEL and C1 controls, plus the Unicode line/paragraph separators that split log lines.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export function isValidLabel(value: string): boolean {
  return value.length >= 1 && [...value].length <= MAX_LABEL_LENGTH && !CONTROL.test(value);
}

export function folderService(deps: { store: Store; clock: Clock }) {
  const { store, clock } = deps;
  return {
    byBatch(accountId: string, batchId: string): FolderRecord | undefined {
      return store.folders.find((f) => f.account_id === accountId && f.batch_id === batchId);
    },

    /** Files currently in the folder (a deleted job frees its place). */
    size(folderId: string): number {
      return store.jobs.count((j) => j.folder_id === folderId);
    },

    /** Throws batch_limit_exceeded when one more file would not fit the plan's group. */
    assertRoom(account: AccountRecord, batchId: string, capacity: number): void {
      const folder = this.byBatch(account.id, batchId);
      if (!folder) return;
      const size = this.size(folder.id);
      if (size >= capacity) {
        throw new VectorizeError(
          'batch_limit_exceeded',
          capacity === 1
            ? 'This plan holds one file per batch; batches of several files need Pro or above.'
            : `This batch already holds ${size} files, the plan's maximum.`,
          { batch_id: batchId, max_files: capacity },
        );
      }
    },

    admit(account: AccountRecord, batchId: string, folderName: string | null): FolderRecord {
      const existing = this.byBatch(account.id, batchId);
      if (existing) return existing;
      const now = clock.now();
      return store.folders.insert({
        id: newId('fld'),
        account_id: account.id,
        batch_id: batchId,
        name: folderName ?? now.toISOString().slice(0, 10),
        created_at: now.toISOString(),
      });
    },

    getOwned(id: string, accountId: string): FolderRecord {
      const folder = store.folders.get(id);
      if (!folder || folder.account_id !== accountId) throw new VectorizeError('not_found', 'No such folder.');
      return folder;
    },

    list(accountId: string): FolderRecord[] {
      return store.folders
        .filter((f) => f.account_id === accountId)
        .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
    },

    /** Deletes the folder with every job and result in it (running ones are stopped first). */
    async remove(folder: FolderRecord, jobs: JobService): Promise<void> {
      for (const job of store.jobs.filter((j) => j.folder_id === folder.id)) await jobs.remove(job);
      store.folders.delete(folder.id);
    },

    view(folder: FolderRecord) {
      const files = store.jobs.filter((j) => j.folder_id === folder.id);
      const counts: Record<string, number> = {};
      for (const job of files) counts[job.status] = (counts[job.status] ?? 0) + 1;
      return {
        id: folder.id,
        name: folder.name,
        batch_id: folder.batch_id,
        created_at: folder.created_at,
        files: files.length,
        statuses: counts,
      };
    },
  };
}

export type FolderService = ReturnType<typeof folderService>;
