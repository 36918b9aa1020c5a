/**
 * Renumbering pixel by pixel, as renumberInScanOrder (engine/segment/renumber.ts) defines it: each
 * pixel's group (joinedInto of its label, or the label) gets the next number where it first
 * appears in scan order; groups without pixels disappear.
 */
export function referenceRenumber(labels: Int32Array, regionCount: number, transparent: Uint8Array, joinedInto: Int32Array | null) {
  const compact = new Int32Array(regionCount).fill(-1);
  const area: number[] = [];
  const clear: number[] = [];
  const out = new Int32Array(labels.length);
  for (let p = 0; p < labels.length; p++) {
    const group = joinedInto ? joinedInto[labels[p]] : labels[p];
    if (compact[group] < 0) {
      compact[group] = area.length;
      area.push(0);
      clear.push(transparent[group]);
    }
    out[p] = compact[group];
    area[compact[group]]++;
  }
  return { labels: out, count: area.length, compact, area: Int32Array.from(area), transparent: Uint8Array.from(clear) };
}
