import t from 'tap';
import { buildBoundaryGraph } from '../../../engine/boundary/index.js';
import type { FittedChains } from '../../../engine/fit/chain.js';
import type { FittedPath } from '../../../engine/fit/index.js';
import { fitConcurrency, vectorize } from '../../../engine/index.js';
import { replaceFitWorkersForTest, startChainFits } from '../../../engine/parallel/chain-fits.js';
import { engineSettingsFor } from '../../../engine/settings.js';
import { DEFAULT_TRACE_OPTIONS } from '../../../engine/types.js';
import { NO_CONTEXT } from '../../../engine/stage.js';
import { startedWorkers } from '../../../engine/parallel/pool.js';
import { png, raster } from '../helpers/images.js';

/** Deterministic pseudo-random in [0, 1) from two integers (no Math.random: the test must repeat). */
function hash(x: number, y: number): number {
  let h = Math.imul(x, 374761393) ^ Math.imul(y, 668265263);
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/** Labels of overlapping discs and squares on a background: curves, corners, holes, frame chains. */
function shapes(width: number, height: number, many = 60): { labels: Int32Array; count: number } {
  const labels = new Int32Array(width * height);
  let count = 1;
  for (let k = 0; k < many; k++) {
    const cx = hash(k, 1) * width,
      cy = hash(k, 2) * height,
      r = 4 + hash(k, 3) * 30;
    const round = k % 3 !== 0;
    for (let y = Math.max(0, Math.floor(cy - r)); y < Math.min(height, cy + r); y++) {
      for (let x = Math.max(0, Math.floor(cx - r)); x < Math.min(width, cx + r); x++) {
        const dx = x + 0.5 - cx,
          dy = y + 0.5 - cy;
        if (!round || dx * dx + dy * dy < r * r) labels[y * width + x] = count;
      }
    }
    count++;
  }
  // relabel so every label is one 4-connected piece is not needed: the graph works on labels as given
  return { labels, count };
}

function paths(fitted: FittedChains, chains: number): Array<FittedPath | undefined> {
  return Array.from({ length: chains }, (_, c) => fitted.path(c));
}

const settings = engineSettingsFor(DEFAULT_TRACE_OPTIONS, 'clipart');
const chainSettings = { fit: settings.fit, guardChains: settings.exactness.guardChains, guardSlack: settings.exactness.guardSlack };

t.test('chains fitted with 0, 1 and 3 worker threads are the same to the last bit', async (t) => {
  const { labels, count } = shapes(300, 220);
  const graph = buildBoundaryGraph(labels, 300, 220, count, NO_CONTEXT);
  const transparent = new Uint8Array(count);
  transparent[0] = transparent[5] = 1; // chains between transparent regions (or one and the frame) are left out
  const alone = paths(await startChainFits(graph, transparent, chainSettings, { workers: 0 }).finish(NO_CONTEXT), graph.chains.length);
  t.ok(alone.filter(Boolean).length > 100, 'many chains fitted');
  t.ok(
    alone.some((p) => p === undefined),
    'chains between transparent regions are not',
  );
  for (const [workers, workersOnly] of [
    [1, true],
    [3, true],
    [3, false],
  ] as const) {
    const shared = paths(
      await startChainFits(graph, transparent, chainSettings, { workers, workersOnly }).finish(NO_CONTEXT),
      graph.chains.length,
    );
    t.strictSame(shared, alone, `${workers} workers${workersOnly ? ', every chunk on a worker' : ', this thread too'}`);
  }
});

t.test('a job too small to start a worker is shared with one already running, to the same fits', async (t) => {
  await replaceFitWorkersForTest(null); // no worker running
  const graphOf = (width: number, height: number, many: number) => {
    const { labels, count } = shapes(width, height, many);
    return { graph: buildBoundaryGraph(labels, width, height, count, NO_CONTEXT), transparent: new Uint8Array(count) };
  };
  const numbers = (graph: ReturnType<typeof graphOf>['graph']) => graph.chains.reduce((sum, chain) => sum + chain.points.length, 0);
  const small = graphOf(300, 220, 60);
  const large = graphOf(1200, 900, 700);
  const tiny = graphOf(24, 24, 2);
  t.ok(numbers(small.graph) >= 4096 && numbers(small.graph) < 80_000, `a small job (${numbers(small.graph) / 2} points)`);
  t.ok(numbers(large.graph) >= 80_000, `a large one (${numbers(large.graph) / 2} points)`);
  t.ok(numbers(tiny.graph) < 4096, `a tiny one (${numbers(tiny.graph) / 2} points)`);
  const fits = async (job: ReturnType<typeof graphOf>, workers: number) => {
    const fitting = startChainFits(job.graph, job.transparent, chainSettings, { workers });
    return { workers: fitting.workers, paths: paths(await fitting.finish(NO_CONTEXT), job.graph.chains.length) };
  };
  const alone = (await fits(small, 0)).paths;

  const before = await fits(small, 1);
  t.equal(before.workers, 0, 'with no worker running, the small job stays on this thread');
  t.equal(startedWorkers(), 0, 'and starts none');
  t.strictSame(before.paths, alone);

  t.equal((await fits(large, 1)).workers, 1, 'a large job starts a worker');
  t.equal(startedWorkers(), 1);
  const after = await fits(small, 1);
  t.equal(after.workers, 1, 'the small job is now shared with it');
  t.strictSame(after.paths, alone, 'to the same fits, to the last bit');
  t.equal((await fits(tiny, 1)).workers, 0, 'a tiny job is never posted');
});

t.test('vectorize gives byte-identical SVG with and without fitting workers', async (t) => {
  // Big enough that the chains go to the workers (small images stay on the tracing thread).
  const image = raster(512, 384, (x, y) => {
    const v = hash(x >> 2, y >> 2);
    return v < 0.25 ? [200, 30, 40] : v < 0.5 ? [30, 90, 200] : v < 0.75 ? [250, 250, 240] : [40, 160, 70];
  });
  const bytes = await png(image);
  const before = fitConcurrency();
  try {
    fitConcurrency(0);
    const one = await vectorize(bytes, { imageType: 'clipart' });
    fitConcurrency(2);
    const three = await vectorize(bytes, { imageType: 'clipart' });
    t.equal(three.svg, one.svg);
    t.ok(one.stats.paths > 100, 'a busy image');
  } finally {
    fitConcurrency(before);
  }
  t.throws(() => fitConcurrency(-1), { code: 'invalid_parameter' });
});

t.test('a fitting worker that fails turns the trace into internal_error, and the pool recovers', async (t) => {
  const { labels, count } = shapes(120, 90);
  const graph = buildBoundaryGraph(labels, 120, 90, count, NO_CONTEXT);
  const transparent = new Uint8Array(count);
  t.teardown(() => replaceFitWorkersForTest(null));

  await replaceFitWorkersForTest(`require('node:worker_threads').parentPort.on('message', () => { throw new Error('boom'); });`);
  await t.rejects(startChainFits(graph, transparent, chainSettings, { workers: 1, workersOnly: true }).finish(NO_CONTEXT), {
    code: 'internal_error',
    message: /boom/,
  });

  await replaceFitWorkersForTest(`const { parentPort } = require('node:worker_threads');
    parentPort.on('message', (m) => parentPort.postMessage({ type: 'error', job: m.job, message: 'bad chunk' }));`);
  await t.rejects(startChainFits(graph, transparent, chainSettings, { workers: 1, workersOnly: true }).finish(NO_CONTEXT), {
    code: 'internal_error',
    message: /bad chunk/,
  });

  await replaceFitWorkersForTest(`require('node:worker_threads').parentPort.on('message', () => process.exit(3));`);
  await t.rejects(startChainFits(graph, transparent, chainSettings, { workers: 1, workersOnly: true }).finish(NO_CONTEXT), {
    code: 'internal_error',
  });

  await replaceFitWorkersForTest(null);
  const alone = paths(await startChainFits(graph, transparent, chainSettings, { workers: 0 }).finish(NO_CONTEXT), graph.chains.length);
  const again = paths(
    await startChainFits(graph, transparent, chainSettings, { workers: 1, workersOnly: true }).finish(NO_CONTEXT),
    graph.chains.length,
  );
  t.strictSame(again, alone, 'a fresh worker fits again');
});

t.test('a canceled trace stops its workers and says canceled', async (t) => {
  const { labels, count } = shapes(300, 220);
  const graph = buildBoundaryGraph(labels, 300, 220, count, NO_CONTEXT);
  const controller = new AbortController();
  controller.abort();
  await t.rejects(
    startChainFits(graph, new Uint8Array(count), chainSettings, { workers: 1 }).finish({ signal: controller.signal, progress() {} }),
    { code: 'canceled' },
  );
});
