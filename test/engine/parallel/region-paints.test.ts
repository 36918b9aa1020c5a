import { spawnSync } from 'node:child_process';
import t from 'tap';
import { prepareImage } from '../../../engine/prepare/index.js';
import { replaceFitWorkersForTest } from '../../../engine/parallel/pool.js';
import { startRegionPaints } from '../../../engine/parallel/region-paints.js';
import { segmentImage } from '../../../engine/segment/index.js';
import { engineSettingsFor } from '../../../engine/settings.js';
import { NO_CONTEXT } from '../../../engine/stage.js';
import { DEFAULT_TRACE_OPTIONS, type RgbaImage } from '../../../engine/types.js';

/** An engine module's URL, for a child process to import. */
function moduleUrl(path: string): string {
  return new URL(`../../../${path}`, import.meta.url).href;
}

/** Soft ramps behind a few flat discs: regions that get gradients and regions that stay flat. */
function ramps(width: number, height: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = 4 * (y * width + x);
      const inDisc = [
        [80, 80, 40],
        [260, 150, 55],
        [150, 230, 30],
      ].some(([cx, cy, r]) => (x - cx) ** 2 + (y - cy) ** 2 < r * r);
      data[o] = inDisc ? 200 : Math.round((255 * x) / width);
      data[o + 1] = inDisc ? 30 : Math.round((255 * y) / height);
      data[o + 2] = inDisc ? 60 : 128;
      data[o + 3] = 255;
    }
  }
  return { width, height, data };
}

const settings = engineSettingsFor({ ...DEFAULT_TRACE_OPTIONS, gradients: 'smooth' }, 'photo');
const image = prepareImage(ramps(400, 300), settings.prepare, NO_CONTEXT);
const segmentation = segmentImage(image, settings.segment, NO_CONTEXT);

t.test('paints from a worker are the ones this thread computes, gradients included', async (t) => {
  const here = startRegionPaints(image, segmentation, settings, { workers: 0 });
  t.notOk(here.onWorker);
  const local = await here.finish();
  t.ok(local.gradients.length > 0, 'the ramps get gradient fills');
  const there = startRegionPaints(image, segmentation, settings, { workers: 1 });
  t.ok(there.onWorker, 'a large image with gradients goes to a worker');
  t.ok(segmentation.labels.buffer instanceof SharedArrayBuffer, 'the labels are in shared memory: the worker reads them without a copy');
  t.strictSame(await there.finish(), local);
});

/** Four ramps, each its own direction, parted by a dark cross: four regions that each get a gradient. */
function quarterRamps(width: number, height: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = 4 * (y * width + x);
      const quarter = (x < width / 2 ? 0 : 1) + (y < height / 2 ? 0 : 2);
      const cross = Math.abs(x - width / 2) < 6 || Math.abs(y - height / 2) < 6;
      const u = (x % (width / 2)) / (width / 2),
        v = (y % (height / 2)) / (height / 2);
      const ramp = [u, v, 1 - u, 1 - v][quarter];
      data[o] = cross ? 20 : Math.round(40 + 180 * ramp);
      data[o + 1] = cross ? 20 : [200, 60, 120, 30][quarter];
      data[o + 2] = cross ? 20 : Math.round(200 - 150 * ramp);
      data[o + 3] = 255;
    }
  }
  return { width, height, data };
}

t.test('this thread takes the fits the worker has not: the same paints whichever thread fits which', async (t) => {
  const quarters = prepareImage(quarterRamps(400, 300), settings.prepare, NO_CONTEXT);
  const regions = segmentImage(quarters, settings.segment, NO_CONTEXT);
  const local = await startRegionPaints(quarters, regions, settings, { workers: 0 }).finish();
  t.equal(local.gradients.length, 4, 'four gradients to share');
  // this thread first takes one, two, or every fit, the worker the rest
  for (const hereTakes of [1, 2, 1000]) {
    t.strictSame(
      await startRegionPaints(quarters, regions, settings, { workers: 1, hereTakes }).finish(),
      local,
      `this thread took ${hereTakes}`,
    );
  }
});

t.test('small images and flat fills stay on this thread', async (t) => {
  const smallImage = prepareImage(ramps(120, 100), settings.prepare, NO_CONTEXT);
  t.notOk(startRegionPaints(smallImage, segmentImage(smallImage, settings.segment, NO_CONTEXT), settings, { workers: 1 }).onWorker);
  const flat = engineSettingsFor({ ...DEFAULT_TRACE_OPTIONS, gradients: 'stepped' }, 'photo');
  t.notOk(startRegionPaints(image, segmentation, flat, { workers: 1 }).onWorker);
});

t.test('a worker that fails gives internal_error, and a fresh one paints again', async (t) => {
  t.teardown(() => replaceFitWorkersForTest(null));
  await replaceFitWorkersForTest(`require('node:worker_threads').parentPort.on('message', () => { throw new Error('boom'); });`);
  await t.rejects(startRegionPaints(image, segmentation, settings, { workers: 1 }).finish(), { code: 'internal_error', message: /boom/ });
  await replaceFitWorkersForTest(`const { parentPort } = require('node:worker_threads');
    parentPort.on('message', (m) => parentPort.postMessage({ type: 'error', job: m.job, message: 'bad paint' }));`);
  await t.rejects(startRegionPaints(image, segmentation, settings, { workers: 1 }).finish(), {
    code: 'internal_error',
    message: /bad paint/,
  });
  await replaceFitWorkersForTest(null);
  const local = await startRegionPaints(image, segmentation, settings, { workers: 0 }).finish();
  t.strictSame(await startRegionPaints(image, segmentation, settings, { workers: 1 }).finish(), local);
});

t.test('an abandoned paint job lets the process exit (the workers are not held)', async (t) => {
  // In a child process: it must end by itself once the job is abandoned, and must not while a job
  // is held open (the control shows the check can fail).
  const script = (abandon: boolean) => `
    import { prepareImage } from ${JSON.stringify(moduleUrl('engine/prepare/index.ts'))};
    import { startRegionPaints } from ${JSON.stringify(moduleUrl('engine/parallel/region-paints.ts'))};
    import { segmentImage } from ${JSON.stringify(moduleUrl('engine/segment/index.ts'))};
    import { engineSettingsFor } from ${JSON.stringify(moduleUrl('engine/settings.ts'))};
    import { NO_CONTEXT } from ${JSON.stringify(moduleUrl('engine/stage.ts'))};
    import { DEFAULT_TRACE_OPTIONS } from ${JSON.stringify(moduleUrl('engine/types.ts'))};
    const settings = engineSettingsFor({ ...DEFAULT_TRACE_OPTIONS, gradients: 'smooth' }, 'photo');
    const width = 400, height = 300, data = new Uint8Array(width * height * 4);
    for (let p = 0; p < width * height; p++) {
      data[4 * p] = p % width; data[4 * p + 1] = (p / width) | 0; data[4 * p + 2] = 128; data[4 * p + 3] = 255;
    }
    const image = prepareImage({ width, height, data }, settings.prepare, NO_CONTEXT);
    const painting = startRegionPaints(image, segmentImage(image, settings.segment, NO_CONTEXT), settings, { workers: 1 });
    if (!painting.onWorker) throw new Error('expected a worker job');
    ${abandon ? 'painting.abandon(); painting.abandon();' : ''}
  `;
  const run = (abandon: boolean) =>
    spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(abandon)], { encoding: 'utf8', timeout: 20_000 });
  const abandoned = run(true);
  t.equal(abandoned.signal, null, 'the child ended by itself');
  t.equal(abandoned.status, 0, abandoned.stderr);
  const held = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(false)], {
    encoding: 'utf8',
    timeout: 8_000,
  });
  t.equal(held.signal, 'SIGTERM', 'without abandon() the job holds the worker and the child does not end');
});
