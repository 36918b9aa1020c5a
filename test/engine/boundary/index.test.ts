import t from 'tap';
import { buildBoundaryGraph } from '../../../engine/boundary/index.js';
import { NO_CONTEXT } from '../../../engine/stage.js';

function labelsFrom(rows: string[]) {
  const height = rows.length,
    width = rows[0].length;
  const names = [...new Set(rows.join(''))];
  const labels = new Int32Array(width * height);
  rows.forEach((row, y) => [...row].forEach((c, x) => (labels[y * width + x] = names.indexOf(c))));
  return { labels, width, height, count: names.length };
}

const CASES: Record<string, string[]> = {
  'nested squares': ['aaaaaa', 'abbbba', 'abccba', 'abccba', 'abbbba', 'aaaaaa'],
  'three regions meeting on the border': ['aabb', 'aabb', 'cccc'],
  checkerboard: ['ab', 'ba'],
  'diagonal staircase': ['abbb', 'aabb', 'aaab', 'aaaa'],
  'region with two holes and a diagonal touch': ['aaaaaaa', 'abaacaa', 'aabaaaa', 'aaaaaaa'],
};

for (const [name, rows] of Object.entries(CASES)) {
  t.test(`${name}: each region's rings enclose exactly its pixels`, async (t) => {
    const { labels, width, height, count } = labelsFrom(rows);
    const graph = buildBoundaryGraph(labels, width, height, count, NO_CONTEXT);
    const area = new Int32Array(count);
    for (const l of labels) area[l]++;
    for (let r = 0; r < count; r++) {
      const total = graph.outlines[r].ringArea.reduce((a, b) => a + b, 0);
      t.equal(total, area[r], `region ${r}`);
      for (const a of graph.outlines[r].ringArea) t.not(a, 0, 'no empty ring');
    }
  });

  t.test(`${name}: every chain separates two different regions and is used once by each`, async (t) => {
    const { labels, width, height, count } = labelsFrom(rows);
    const graph = buildBoundaryGraph(labels, width, height, count, NO_CONTEXT);
    const uses = new Int32Array(graph.chains.length * 2);
    for (const outline of graph.outlines) for (const ring of outline.rings) for (const ref of ring) uses[ref]++;
    graph.chains.forEach((chain, i) => {
      t.not(chain.left, chain.right);
      t.equal(uses[2 * i], chain.right >= 0 ? 1 : 0, 'forward by the region on the right');
      t.equal(uses[2 * i + 1], chain.left >= 0 ? 1 : 0, 'reversed by the region on the left');
    });
  });

  t.test(`${name}: rings are closed, chain after chain`, async (t) => {
    const { labels, width, height, count } = labelsFrom(rows);
    const graph = buildBoundaryGraph(labels, width, height, count, NO_CONTEXT);
    const ends = (ref: number) => {
      const p = graph.chains[ref >> 1].points;
      const first = [p[0], p[1]],
        last = [p[p.length - 2], p[p.length - 1]];
      return ref & 1 ? { start: last, end: first } : { start: first, end: last };
    };
    for (const outline of graph.outlines) {
      for (const ring of outline.rings) {
        if (graph.chains[ring[0] >> 1].closed) {
          t.equal(ring.length, 1);
          continue;
        }
        for (let k = 0; k < ring.length; k++) t.same(ends(ring[k]).end, ends(ring[(k + 1) % ring.length]).start);
      }
    }
  });
}

t.test('a boundary without junctions is one closed loop, traced once', async (t) => {
  const { labels, width, height, count } = labelsFrom(['aaaa', 'abba', 'abba', 'aaaa']);
  const graph = buildBoundaryGraph(labels, width, height, count, NO_CONTEXT);
  const inner = graph.chains.filter((c) => c.left >= 0 && c.right >= 0);
  t.equal(inner.length, 1);
  t.ok(inner[0].closed);
  t.equal(inner[0].points.length, 8 * 2, 'eight crack corners around a 2×2 block');
});

t.test('the outer ring runs clockwise on screen (positive area), a hole anticlockwise', async (t) => {
  const { labels, width, height, count } = labelsFrom(['aaaa', 'abba', 'abba', 'aaaa']);
  const graph = buildBoundaryGraph(labels, width, height, count, NO_CONTEXT);
  t.same(
    [...graph.outlines[0].ringArea].sort((a, b) => a - b),
    [-4, 16],
  );
  t.same(graph.outlines[1].ringArea, [4]);
});
