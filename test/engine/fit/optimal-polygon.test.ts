import t from 'tap';
import { crackPolygon } from '../../../engine/fit/optimal-polygon.js';

/** Closed crack outline of the union of unit pixels given as [x, y] (one 4-connected mark without holes). */
function pixelOutline(pixels: [number, number][]): Float64Array {
  const ink = new Set(pixels.map(([x, y]) => `${x},${y}`));
  const has = (x: number, y: number) => ink.has(`${x},${y}`);
  // directed cracks with ink on the right (screen coordinates, y down): walk them edge to edge
  const next = new Map<string, [number, number]>();
  for (const [x, y] of pixels) {
    if (!has(x, y - 1)) next.set(`${x},${y}`, [x + 1, y]);
    if (!has(x + 1, y)) next.set(`${x + 1},${y}`, [x + 1, y + 1]);
    if (!has(x, y + 1)) next.set(`${x + 1},${y + 1}`, [x, y + 1]);
    if (!has(x - 1, y)) next.set(`${x},${y + 1}`, [x, y]);
  }
  const out: number[] = [];
  let at: [number, number] = [pixels[0][0], pixels[0][1]];
  do {
    out.push(at[0], at[1]);
    at = next.get(`${at[0]},${at[1]}`)!;
  } while (at[0] !== pixels[0][0] || at[1] !== pixels[0][1]);
  return Float64Array.from(out);
}

t.test("a 1-bit straight line's outline is one edge per side, its vertices kept to their corners' unit squares", async (t) => {
  // a 2-px bar rising one pixel every three columns over 30 columns
  const pixels: [number, number][] = [];
  for (let x = 0; x < 30; x++) for (let dy = 0; dy < 2; dy++) pixels.push([x, 20 - Math.floor(x / 3) + dy]);
  const crack = pixelOutline(pixels);
  const poly = crackPolygon(crack, true);
  t.ok(poly.m <= 6, `a bar of at most 6 vertices (two long sides and its ends), not one per stair: ${poly.m}`);
  const longSides = Array.from({ length: poly.m }, (_, k) =>
    Math.hypot(poly.vx[(k + 1) % poly.m] - poly.vx[k], poly.vy[(k + 1) % poly.m] - poly.vy[k]),
  ).filter((length) => length > 20);
  t.equal(longSides.length, 2, 'each long side is one edge');
  for (let k = 0; k < poly.m; k++) {
    const q = poly.at[k] % (crack.length >> 1);
    // the crack here has every unit corner, so corner q is crack point q
    t.ok(
      Math.abs(poly.vx[k] - crack[2 * q]) <= 0.5 && Math.abs(poly.vy[k] - crack[2 * q + 1]) <= 0.5,
      `vertex ${k} within its corner's unit square`,
    );
  }
});
