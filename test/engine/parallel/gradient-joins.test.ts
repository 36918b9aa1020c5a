import t from 'tap';
import { fitConcurrency, vectorize } from '../../../engine/index.js';
import { joinGradientBandsShared, segmentSharingJoins } from '../../../engine/parallel/gradient-joins.js';
import { replaceFitWorkersForTest } from '../../../engine/parallel/pool.js';
import { prepareImage } from '../../../engine/prepare/index.js';
import { planGradientJoins } from '../../../engine/segment/gradient-bands.js';
import { segmentImage } from '../../../engine/segment/index.js';
import type { RegionLabels } from '../../../engine/segment/renumber.js';
import { engineSettingsFor } from '../../../engine/settings.js';
import { NO_CONTEXT } from '../../../engine/stage.js';
import { DEFAULT_TRACE_OPTIONS } from '../../../engine/types.js';
import { coverage, mix, png, raster, type Raster } from '../helpers/images.js';

const settings = engineSettingsFor(DEFAULT_TRACE_OPTIONS, 'clipart');
const joinSettings = settings.segment.gradientBands!;

/**
 * Shaded balls on white, each lit from its own side (a radial ramp the merging leaves in rings),
 * a linear ramp in a box, and below them a ramp that wobbles (bands some of whose joins no fill
 * passes): apart from one another by hard edges, so each is a component of its own whose joins
 * need gradient fits.
 */
function shadedScene(width: number, height: number): Raster {
  const balls = [
    { cx: 60, cy: 60, r: 48, hx: -0.4, hy: -0.4, tint: [245, 245, 250] },
    { cx: 180, cy: 70, r: 55, hx: 0.3, hy: -0.3, tint: [250, 230, 200] },
    { cx: 70, cy: 180, r: 40, hx: -0.2, hy: 0.4, tint: [220, 250, 220] },
    { cx: 190, cy: 190, r: 35, hx: 0.4, hy: 0.4, tint: [240, 220, 250] },
  ];
  return raster(width, height, (x, y) => {
    if (x >= 120 && x < 150 && y >= 130 && y < 240) return [60 + 1.5 * (y - 130), 120, 200 - (y - 130)];
    if (x >= 10 && x < 250 && y >= 255 && y < 325) return [60 + 0.8 * (x - 10) + 20 * Math.sin((x - 10) / 8), 120 + 0.5 * (y - 255), 120];
    for (const { cx, cy, r, hx, hy, tint } of balls) {
      const share = coverage(x, y, (u, v) => (u - cx) ** 2 + (v - cy) ** 2 < r * r);
      if (share === 0) continue;
      const shade = Math.min(1, Math.hypot(x + 0.5 - cx - hx * r, y + 0.5 - cy - hy * r) / (1.3 * r));
      return mix(
        tint.map((v, k) => v - [170, 150, 100][k] * shade),
        [255, 255, 255],
        share,
      );
    }
    return [255, 255, 255];
  });
}

const scene = prepareImage(shadedScene(260, 335), settings.prepare, NO_CONTEXT);
const unjoined = segmentImage(scene, { ...settings.segment, gradientBands: null }, NO_CONTEXT);

/** The unjoined regions with their own copy of the labels (joining writes them in place), in shared memory or not. */
function fresh(shared = true): RegionLabels {
  const labels = shared ? new Int32Array(new SharedArrayBuffer(4 * unjoined.labels.length)) : new Int32Array(unjoined.labels.length);
  labels.set(unjoined.labels);
  return { ...unjoined, labels };
}

t.test('the scene has several components with joins to make', async (t) => {
  const plan = planGradientJoins(scene.source, unjoined, joinSettings)!;
  t.ok(plan.order.length >= 4, `${plan.order.length} components`);
  // what vectorize shares: 4 096 pixels on soft boundaries outside the largest component
  t.ok(plan.involvedPixels - plan.largestPixels >= 4096, `${plan.involvedPixels - plan.largestPixels} pixels to share`);
  const here = await joinGradientBandsShared(scene.source, fresh(), joinSettings, { workers: 0 });
  t.ok(here.regionCount < unjoined.regionCount - 10, `${unjoined.regionCount} regions joined into ${here.regionCount}`);
  // seven shapes and the paper: the wobbling ramp keeps bands whose joins were refused
  t.ok(here.regionCount > 8, 'some joins are refused');
});

t.test('joined on two threads, the labels are those of this thread alone, whichever thread joins which component', async (t) => {
  const here = await joinGradientBandsShared(scene.source, fresh(), joinSettings, { workers: 0 });
  // the worker joins every component, all but the largest, all but two, or as many as it takes
  for (const hereTakes of [0, 1, 2, undefined]) {
    const shared = await joinGradientBandsShared(scene.source, fresh(), joinSettings, { workers: 1, hereTakes });
    t.equal(shared.regionCount, here.regionCount, `this thread took at most ${hereTakes ?? 'any'}`);
    t.strictSame(shared.area, here.area);
    t.strictSame(shared.transparent, here.transparent);
    t.ok(
      shared.labels.every((l, p) => l === here.labels[p]),
      'the same labels',
    );
  }
  const unshared = await joinGradientBandsShared(scene.source, fresh(false), joinSettings, { workers: 1, hereTakes: 0 });
  t.ok(
    unshared.labels.every((l, p) => l === here.labels[p]),
    'labels outside shared memory are copied for the worker',
  );
});

t.test('the segmentation sharing its joins is segmentImage', async (t) => {
  const alone = segmentImage(scene, settings.segment, NO_CONTEXT);
  const alongside = await segmentSharingJoins(scene, settings.segment, NO_CONTEXT, { workers: 1, hereTakes: 1 });
  t.equal(alongside.regionCount, alone.regionCount);
  t.ok(
    alongside.labels.every((l, p) => l === alone.labels[p]),
    'the same labels',
  );
});

t.test('vectorize writes the same SVG with the worker joining and without it', async (t) => {
  const workers = fitConcurrency();
  t.teardown(() => fitConcurrency(workers));
  const bytes = await png(shadedScene(260, 335));
  fitConcurrency(0);
  const alone = await vectorize(bytes, { imageType: 'clipart' });
  fitConcurrency(1);
  // the first trace with a worker may start it (joins are shared only with a started worker)
  t.equal((await vectorize(bytes, { imageType: 'clipart' })).svg, alone.svg);
  t.equal((await vectorize(bytes, { imageType: 'clipart' })).svg, alone.svg);
});

t.test('a worker that fails during the joins gives internal_error, and a fresh one joins again', async (t) => {
  t.teardown(() => replaceFitWorkersForTest(null));
  await replaceFitWorkersForTest(`require('node:worker_threads').parentPort.on('message', () => { throw new Error('boom'); });`);
  await t.rejects(joinGradientBandsShared(scene.source, fresh(), joinSettings, { workers: 1, hereTakes: 0 }), {
    code: 'internal_error',
    message: /boom/,
  });
  await replaceFitWorkersForTest(`const { parentPort } = require('node:worker_threads');
    parentPort.on('message', (m) => parentPort.postMessage({ type: 'error', job: m.job, message: 'bad join' }));`);
  await t.rejects(joinGradientBandsShared(scene.source, fresh(), joinSettings, { workers: 1, hereTakes: 0 }), {
    code: 'internal_error',
    message: /bad join/,
  });
  // one that takes a share of the moments pass and dies before it is measured
  await replaceFitWorkersForTest(`const { parentPort } = require('node:worker_threads');
    parentPort.on('message', (m) => { Atomics.add(m.claim, 0, 1); process.exit(3); });`);
  await t.rejects(joinGradientBandsShared(scene.source, fresh(), joinSettings, { workers: 1, hereTakes: 0 }), {
    code: 'internal_error',
    message: /exit code 3/,
  });
  // a drawing under the size worth sharing never asks the worker
  const small = prepareImage(shadedScene(200, 200), settings.prepare, NO_CONTEXT);
  const smallRegions = segmentImage(small, { ...settings.segment, gradientBands: null }, NO_CONTEXT);
  const joined = await joinGradientBandsShared(small.source, smallRegions, joinSettings, { workers: 1 });
  t.ok(joined.regionCount < smallRegions.regionCount, 'a small drawing is joined on this thread');
  await replaceFitWorkersForTest(null);
  const here = await joinGradientBandsShared(scene.source, fresh(), joinSettings, { workers: 0 });
  const shared = await joinGradientBandsShared(scene.source, fresh(), joinSettings, { workers: 1, hereTakes: 0 });
  t.ok(
    shared.labels.every((l, p) => l === here.labels[p]),
    'the same labels again',
  );
});
