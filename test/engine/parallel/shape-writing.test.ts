import t from 'tap';
import { buildBoundaryGraph } from '../../../engine/boundary/index.js';
import { placeSubpixelEdges } from '../../../engine/boundary/subpixel.js';
import { startChainFits } from '../../../engine/parallel/chain-fits.js';
import { replaceFitWorkersForTest } from '../../../engine/parallel/pool.js';
import { composeSharingShapes } from '../../../engine/parallel/shape-writing.js';
import { prepareImage } from '../../../engine/prepare/index.js';
import { segmentImage } from '../../../engine/segment/index.js';
import { engineSettingsFor } from '../../../engine/settings.js';
import { NO_CONTEXT } from '../../../engine/stage.js';
import { composeShapes, paintRegions } from '../../../engine/svg/compose.js';
import { DEFAULT_TRACE_OPTIONS, type RgbaImage } from '../../../engine/types.js';

/**
 * Clip art of stacked shapes: a framed panel on a page, discs and a bar on the panel, one disc
 * across its edge, all anti-aliased (4×4 samples a pixel). The lower shapes run under the upper
 * ones, so their outlines have hidden runs to shortcut.
 */
function stackedScene(width: number, height: number): RgbaImage {
  const layers: Array<{ colour: number[]; inside: (x: number, y: number) => boolean }> = [
    { colour: [40, 60, 90], inside: (x, y) => x > 0.1 * width && x < 0.9 * width && y > 0.12 * height && y < 0.88 * height },
    { colour: [230, 200, 80], inside: (x, y) => x > 0.14 * width && x < 0.86 * width && y > 0.17 * height && y < 0.83 * height },
    { colour: [200, 40, 50], inside: (x, y) => (x - 0.35 * width) ** 2 + (y - 0.45 * height) ** 2 < (0.18 * height) ** 2 },
    { colour: [30, 150, 90], inside: (x, y) => (x - 0.62 * width) ** 2 + (y - 0.5 * height) ** 2 < (0.2 * height) ** 2 },
    { colour: [90, 60, 160], inside: (x, y) => (x - 0.88 * width) ** 2 + (y - 0.2 * height) ** 2 < (0.12 * height) ** 2 },
    { colour: [250, 250, 250], inside: (x, y) => x > 0.25 * width && x < 0.75 * width && Math.abs(y - 0.72 * height) < 0.04 * height },
  ];
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const sum = [0, 0, 0];
      for (let j = 0; j < 4; j++)
        for (let i = 0; i < 4; i++) {
          const sx = x + (i + 0.5) / 4,
            sy = y + (j + 0.5) / 4;
          let colour = [255, 255, 255];
          for (const layer of layers) if (layer.inside(sx, sy)) colour = layer.colour;
          for (let c = 0; c < 3; c++) sum[c] += colour[c];
        }
      const o = 4 * (y * width + x);
      for (let c = 0; c < 3; c++) data[o + c] = Math.round(sum[c] / 16);
      data[o + 3] = 255;
    }
  return { width, height, data };
}

const settings = engineSettingsFor(DEFAULT_TRACE_OPTIONS, 'clipart');

/** Everything composing reads, made afresh (composing sets rings that lose area back in the fits it is given). */
async function composeInputs(width: number, height: number) {
  const image = prepareImage(stackedScene(width, height), settings.prepare, NO_CONTEXT);
  const segmentation = segmentImage(image, settings.segment, NO_CONTEXT);
  const graph = buildBoundaryGraph(segmentation.labels, width, height, segmentation.regionCount, NO_CONTEXT);
  placeSubpixelEdges(graph, image, segmentation);
  const fitted = await startChainFits(
    graph,
    segmentation.transparent,
    {
      fit: settings.fit,
      guardChains: settings.exactness.guardChains,
      guardSlack: settings.exactness.guardSlack,
      exactCracks: settings.exactness.exactCracks,
    },
    { workers: 0 },
  ).finish(NO_CONTEXT);
  return { image, segmentation, graph, paints: paintRegions(image, segmentation, settings), fitted };
}

/** composeShapes (this thread only) on fresh inputs. */
async function composedHere(width: number, height: number) {
  const { image, segmentation, graph, paints, fitted } = await composeInputs(width, height);
  return composeShapes(image, segmentation, graph, paints, fitted, settings, NO_CONTEXT);
}

/** composeSharingShapes on fresh inputs. */
async function composedSharing(width: number, height: number, options: Parameters<typeof composeSharingShapes>[7]) {
  const { image, segmentation, graph, paints, fitted } = await composeInputs(width, height);
  return composeSharingShapes(image, segmentation, graph, paints, fitted, settings, NO_CONTEXT, options);
}

t.test('shapes written by a worker are the ones this thread writes, whichever thread writes which', async (t) => {
  t.teardown(() => replaceFitWorkersForTest(null));
  const local = await composedHere(360, 300);
  const items = local.document.items;
  t.ok(items.length >= 6, 'the page, the panel and the shapes on it');
  t.ok(
    items.some((item) => item.kind === 'fill' && item.withoutShortcuts !== undefined),
    'a lower shape takes a shortcut through a run hidden under the shapes above it (the costly part)',
  );
  // the worker writes everything, this thread one chunk and the worker the rest, or both as they come
  for (const hereTakes of [0, 1, undefined]) {
    t.strictSame(
      await composedSharing(360, 300, { workers: 1, always: true, hereTakes }),
      local,
      `this thread wrote ${hereTakes ?? 'as it came'}`,
    );
  }
  // A worker that never takes a chunk (busy, or starved of a core): this thread writes them all.
  await replaceFitWorkersForTest(`require('node:worker_threads').parentPort.on('message', () => {});`);
  t.strictSame(
    await composedSharing(360, 300, { workers: 1, always: true }),
    local,
    'a worker that takes nothing: this thread writes every chunk',
  );
  // One that takes a chunk and is never heard of again (a cold worker still interpreting, or one
  // starved of a core): this thread writes that chunk too instead of waiting.
  await replaceFitWorkersForTest(`require('node:worker_threads').parentPort.on('message', (m) => { Atomics.add(m.claim, 0, 1); });`);
  t.strictSame(await composedSharing(360, 300, { workers: 1, always: true }), local, 'a chunk a worker sits on is written here');
});

t.test('a worker that fails gives internal_error', async (t) => {
  t.teardown(() => replaceFitWorkersForTest(null));
  await replaceFitWorkersForTest(`require('node:worker_threads').parentPort.on('message', () => { throw new Error('boom'); });`);
  await t.rejects(composedSharing(360, 300, { workers: 1, always: true, hereTakes: 0 }), { code: 'internal_error', message: /boom/ });
  await replaceFitWorkersForTest(`const { parentPort } = require('node:worker_threads');
    parentPort.on('message', (m) => parentPort.postMessage({ type: 'error', job: m.job, message: 'bad shapes' }));`);
  await t.rejects(composedSharing(360, 300, { workers: 1, always: true, hereTakes: 0 }), { code: 'internal_error', message: /bad shapes/ });
});

t.test('a process composes its first traces on this thread, and small images always', async (t) => {
  t.teardown(() => replaceFitWorkersForTest(null));
  // A worker that fails any job it is sent; this thread leaves every chunk to it (hereTakes 0), so a
  // compose that resolves sent it none.
  await replaceFitWorkersForTest(`require('node:worker_threads').parentPort.on('message', () => { throw new Error('boom'); });`);
  const large = await composedHere(360, 300);
  t.strictSame(await composedSharing(360, 300, { workers: 1, hereTakes: 0 }), large, "the process's first compose");
  t.strictSame(await composedSharing(360, 300, { workers: 1, hereTakes: 0 }), large, 'its second');
  t.strictSame(await composedSharing(200, 160, { workers: 1, hereTakes: 0 }), await composedHere(200, 160), 'a small image, later');
  await t.rejects(
    composedSharing(360, 300, { workers: 1, hereTakes: 0 }),
    { code: 'internal_error', message: /boom/ },
    'a large one, later: shared',
  );
});
