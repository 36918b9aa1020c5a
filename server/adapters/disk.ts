import { statfs } from 'node:fs/promises';

/** Free bytes on the filesystem holding `path` (storage_full guard). */
export interface DiskProbe {
  freeBytes(path: string): Promise<number>;
}

export const statfsDisk: DiskProbe = {
  async freeBytes(path: string) {
    const stats = await statfs(path);
    return stats.bavail * stats.bsize;
  },
};
