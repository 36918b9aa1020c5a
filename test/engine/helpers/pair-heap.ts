/**
 * A binary min-heap of (key, id) pairs in two parallel typed arrays, so millions of region pairs
 * cost no objects and every comparison reads memory next to the one before. Ties break on the
 * smaller id, which keeps merging deterministic.
 */
export class PairHeap {
  private readonly keys: Float64Array;
  private readonly ids: Int32Array;
  private size = 0;

  constructor(capacity: number) {
    this.keys = new Float64Array(Math.max(1, capacity));
    this.ids = new Int32Array(Math.max(1, capacity));
  }

  get length(): number {
    return this.size;
  }

  /** Key of the smallest entry (only valid while length > 0). */
  get topKey(): number {
    return this.keys[0];
  }

  /** Id of the smallest entry (only valid while length > 0). */
  get topId(): number {
    return this.ids[0];
  }

  /** Removes the smallest entry and adds (key, id) in one sift: the same as pop() then push(). */
  replaceTop(key: number, id: number): void {
    this.siftDown(0, key, id);
  }

  /** Adds an entry without ordering; call heapify() once afterwards. */
  pushUnordered(key: number, id: number): void {
    this.keys[this.size] = key;
    this.ids[this.size++] = id;
  }

  heapify(): void {
    for (let i = (this.size >> 1) - 1; i >= 0; i--) this.siftDown(i, this.keys[i], this.ids[i]);
  }

  push(key: number, id: number): void {
    const keys = this.keys,
      ids = this.ids;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pk = keys[parent];
      if (pk < key || (pk === key && ids[parent] < id)) break;
      keys[i] = pk;
      ids[i] = ids[parent];
      i = parent;
    }
    keys[i] = key;
    ids[i] = id;
  }

  /** Removes the smallest entry and returns its id. */
  pop(): number {
    const top = this.ids[0];
    const last = --this.size;
    if (last > 0) this.siftDown(0, this.keys[last], this.ids[last]);
    return top;
  }

  private siftDown(start: number, key: number, id: number): void {
    const keys = this.keys,
      ids = this.ids,
      size = this.size;
    let i = start;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= size) break;
      let ck = keys[c];
      if (c + 1 < size) {
        const rk = keys[c + 1];
        if (rk < ck || (rk === ck && ids[c + 1] < ids[c])) {
          c++;
          ck = rk;
        }
      }
      if (key < ck || (key === ck && id < ids[c])) break;
      keys[i] = ck;
      ids[i] = ids[c];
      i = c;
    }
    keys[i] = key;
    ids[i] = id;
  }
}
