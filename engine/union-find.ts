/**
 * The root of r's set in a union-find forest (parent[r] === r at a root), halving the path on the
 * way: every node visited is hung on its grandparent, so later finds take fewer steps. Shared by
 * the region merging, the gradient-band joins and the classifier's ink runs.
 */
export function findRoot(parent: Int32Array, r: number): number {
  while (parent[r] !== r) r = parent[r] = parent[parent[r]];
  return r;
}
