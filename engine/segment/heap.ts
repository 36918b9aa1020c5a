/**
 * A binary min-heap of integer ids keyed by a Float64Array the caller owns, so millions of region
 * pairs cost two typed arrays and no objects. Ties break on the smaller id, which keeps merging
 * deterministic.
 */
export class IdHeap {
  private readonly ids: Int32Array;
  private size = 0;

  constructor(
    capacity: number,
    private readonly keys: Float64Array,
  ) {
    this.ids = new Int32Array(Math.max(1, capacity));
  }

  get length(): number {
    return this.size;
  }

  private less(a: number, b: number): boolean {
    const ka = this.keys[a], kb = this.keys[b];
    return ka < kb || (ka === kb && a < b);
  }

  /** Adds ids without ordering; call heapify() once afterwards. */
  pushUnordered(id: number): void {
    this.ids[this.size++] = id;
  }

  heapify(): void {
    for (let i = (this.size >> 1) - 1; i >= 0; i--) this.down(i);
  }

  push(id: number): void {
    let i = this.size++;
    const ids = this.ids;
    ids[i] = id;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(ids[i], ids[parent])) break;
      const t = ids[i]; ids[i] = ids[parent]; ids[parent] = t;
      i = parent;
    }
  }

  pop(): number {
    const ids = this.ids;
    const top = ids[0];
    this.size--;
    if (this.size > 0) {
      ids[0] = ids[this.size];
      this.down(0);
    }
    return top;
  }

  private down(start: number): void {
    const ids = this.ids, size = this.size;
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) return;
      const r = l + 1;
      const m = r < size && this.less(ids[r], ids[l]) ? r : l;
      if (!this.less(ids[m], ids[i])) return;
      const t = ids[i]; ids[i] = ids[m]; ids[m] = t;
      i = m;
    }
  }
}
