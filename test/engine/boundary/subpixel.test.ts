import t from 'tap';
import { buildBoundaryGraph } from '../../../engine/boundary/index.js';
import { placeSubpixelEdges } from '../../../engine/boundary/subpixel.js';
import { NO_CONTEXT } from '../../../engine/stage.js';

const LIGHT = [230, 220, 40],
  DARK = [40, 60, 160];

/**
 * Two colours split by the line through (cx, cy) at `degrees`, anti-aliased from 16×16 samples, and
 * the labels a segmentation gives it: each pixel to the colour that covers more of it.
 */
function splitImage(width: number, height: number, cx: number, cy: number, degrees: number, antialiased = true) {
  const nx = -Math.sin((degrees * Math.PI) / 180),
    ny = Math.cos((degrees * Math.PI) / 180);
  const side = (x: number, y: number) => (x - cx) * nx + (y - cy) * ny; // > 0: DARK
  const rgb = new Uint8Array(3 * width * height);
  const labels = new Int32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let dark = 0;
      if (antialiased) {
        for (let j = 0; j < 16; j++) for (let i = 0; i < 16; i++) if (side(x + (i + 0.5) / 16, y + (j + 0.5) / 16) > 0) dark++;
        dark /= 256;
      } else dark = side(x + 0.5, y + 0.5) > 0 ? 1 : 0;
      const p = y * width + x;
      for (let c = 0; c < 3; c++) rgb[3 * p + c] = Math.round(DARK[c] * dark + LIGHT[c] * (1 - dark));
      labels[p] = dark >= 0.5 ? 1 : 0;
    }
  }
  const graph = buildBoundaryGraph(labels, width, height, 2, NO_CONTEXT);
  placeSubpixelEdges(graph, { width, height, rgb }, { labels, regionCount: 2, transparent: new Uint8Array(2) });
  const inner = graph.chains.filter((c) => c.left >= 0 && c.right >= 0);
  return { inner, distance: (x: number, y: number) => Math.abs(side(x, y)) };
}

for (const degrees of [3, 17, 30, 45, 62, 80, 97, 135, 160]) {
  t.test(`an anti-aliased edge at ${degrees}° lands on the true line, between pixel centres`, async (t) => {
    const { inner, distance } = splitImage(48, 40, 23.3, 19.6, degrees);
    t.equal(inner.length, 1, 'one chain between the two colours');
    const points = inner[0].points;
    let worst = 0,
      offCrack = 0;
    for (let i = 0; i < points.length; i += 2) {
      worst = Math.max(worst, distance(points[i], points[i + 1]));
      if (!Number.isInteger(points[i]) || !Number.isInteger(points[i + 1])) offCrack++;
    }
    t.ok(worst <= 0.15, `every point within 0.15 px of the line (worst ${worst.toFixed(3)})`);
    t.ok(offCrack > points.length / 4, 'the points leave the pixel corners');
    t.same(inner[0].cracks.every(Number.isInteger), true, 'the exact cracks stay on the chain');
  });
}

t.test('a hard edge (no anti-aliasing) keeps its exact pixel cracks', async (t) => {
  const { inner } = splitImage(48, 40, 23.3, 19.6, 30, false);
  t.equal(inner.length, 1);
  t.equal(inner[0].points, inner[0].cracks);
});

t.test('line art: an ink edge on transparent paper lands on the true line by the ink coverage', async (t) => {
  for (const degrees of [8, 30, 45, 70, 120]) {
    const width = 48,
      height = 40,
      cx = 23.3,
      cy = 19.6;
    const nx = -Math.sin((degrees * Math.PI) / 180),
      ny = Math.cos((degrees * Math.PI) / 180);
    const side = (x: number, y: number) => (x - cx) * nx + (y - cy) * ny; // > 0: ink
    const coverage = new Uint8Array(width * height);
    const labels = new Int32Array(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        let ink = 0;
        for (let j = 0; j < 16; j++) for (let i = 0; i < 16; i++) if (side(x + (i + 0.5) / 16, y + (j + 0.5) / 16) > 0) ink++;
        coverage[y * width + x] = Math.round((255 * ink) / 256);
        labels[y * width + x] = ink >= 128 ? 1 : 0;
      }
    }
    const graph = buildBoundaryGraph(labels, width, height, 2, NO_CONTEXT);
    // the paper (region 0) is transparent and its pixels' colour says nothing: only the coverage does
    placeSubpixelEdges(
      graph,
      { width, height, rgb: new Uint8Array(3 * width * height).fill(255) },
      { labels, regionCount: 2, transparent: Uint8Array.from([1, 0]), coverage },
    );
    const inner = graph.chains.filter((c) => c.left >= 0 && c.right >= 0);
    t.equal(inner.length, 1, `${degrees}°: one chain between ink and paper`);
    let worst = 0,
      onCrack = 0;
    for (let i = 0; i < inner[0].points.length; i += 2) {
      worst = Math.max(worst, Math.abs(side(inner[0].points[i], inner[0].points[i + 1])));
      if (Number.isInteger(inner[0].points[i]) && Number.isInteger(inner[0].points[i + 1])) onCrack++;
    }
    t.ok(worst <= 0.2, `${degrees}°: every point within 0.2 px of the line (worst ${worst.toFixed(3)})`);
    t.ok(onCrack < inner[0].points.length / 8, `${degrees}°: the points leave the pixel corners`);
  }
});

t.test('a colour image places the same points whether its shifts are taken in WebAssembly or in TypeScript', async (t) => {
  // several anti-aliased discs of different colours on a ramp: closed chains, open ones, junctions
  const width = 90,
    height = 70;
  const discs = [
    [20, 20, 12, [200, 40, 40]],
    [55, 30, 18, [40, 160, 60]],
    [40, 52, 10, [30, 30, 200]],
    [75, 55, 9, [240, 220, 30]],
  ] as const;
  const rgb = new Uint8Array(3 * width * height);
  const labels = new Int32Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const colour = [120 + x, 100 + y, 90];
      let region = 0;
      for (let d = 0; d < discs.length; d++) {
        const [cx, cy, r, c] = discs[d];
        let inside = 0;
        for (let j = 0; j < 4; j++)
          for (let i = 0; i < 4; i++) if (Math.hypot(x + (i + 0.5) / 4 - cx, y + (j + 0.5) / 4 - cy) < r) inside++;
        const share = inside / 16;
        for (let k = 0; k < 3; k++) colour[k] = colour[k] * (1 - share) + c[k] * share;
        if (share >= 0.5) region = d + 1;
      }
      const p = y * width + x;
      for (let k = 0; k < 3; k++) rgb[3 * p + k] = Math.round(Math.min(255, colour[k]));
      labels[p] = region;
    }
  const segmentation = { labels, regionCount: discs.length + 1, transparent: new Uint8Array(discs.length + 1) };
  const placed = (kernelPixels: number) => {
    const graph = buildBoundaryGraph(labels, width, height, discs.length + 1, NO_CONTEXT);
    placeSubpixelEdges(graph, { width, height, rgb }, segmentation, { kernelPixels });
    return graph.chains.map((chain) => Array.from(chain.points));
  };
  const inKernel = placed(width * height),
    inTypeScript = placed(0);
  t.ok(
    inKernel.some((points) => points.some((v) => !Number.isInteger(v))),
    'some points left the pixel corners',
  );
  t.strictSame(inKernel, inTypeScript, 'every chain point the same number');
});
