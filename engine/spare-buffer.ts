/**
 * One SharedArrayBuffer kept for the next trace on this thread. A new SharedArrayBuffer is always
 * fresh pages (the allocator never hands one back), and on this machine class faulting in a
 * megabyte of them takes longer than the work done on it. A buffer is taken by one trace at a time;
 * handing it back keeps the larger of it and the one kept, up to a cap, so a one-off huge image
 * does not pin its memory.
 */
export class SpareSharedBuffer {
  private spare: SharedArrayBuffer | null = null;

  constructor(private readonly maxBytes: number) {}

  /** A buffer of at least `bytes`: the kept one when it is large enough (its old contents left in it), else a new one. */
  take(bytes: number): SharedArrayBuffer {
    const kept = this.spare;
    if (kept && kept.byteLength >= bytes) {
      this.spare = null;
      return kept;
    }
    return new SharedArrayBuffer(bytes);
  }

  /** Keeps `buffer` for a later take(); only for a buffer nothing reads or writes any more. */
  giveBack(buffer: SharedArrayBuffer): void {
    if (buffer.byteLength > this.maxBytes) return;
    if (!this.spare || this.spare.byteLength < buffer.byteLength) this.spare = buffer;
  }
}
