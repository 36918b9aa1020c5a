import t from 'tap';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { classifierThread } from '../../../cli/convert/classifier-thread.js';
import { FEATURE_COUNT, extractFeatures, onnxRuntimeSessionFactory } from '../../../engine/classify/index.js';
import type { RgbaImage } from '../../../engine/types.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MODEL = path.join(ROOT, 'models', 'classifier.onnx');

/** Two flat colours and a soft ramp: an image whose features are neither all zero nor all one. */
function sampleImage(): RgbaImage {
  const width = 64,
    height = 48,
    data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = 4 * (y * width + x);
      data.set(x < 20 ? [30, 60, 200, 255] : y < 24 ? [250, 245, 230, 255] : [4 * x, 2 * y, 90, 255], i);
    }
  return { width, height, data };
}

t.test('the thread gives the scores the in-process session gives', async (t) => {
  const features = extractFeatures(sampleImage());
  t.equal(features.length, FEATURE_COUNT);
  const here = await onnxRuntimeSessionFactory(MODEL, 'cpu');
  const there = await classifierThread()(MODEL, 'cpu');
  t.equal(there.provider, 'cpu');
  const expected = Array.from(await here.run(features, 1));
  t.same(Array.from(await there.run(features, 1)), expected, 'same probabilities, bit for bit');
  // two rows at once, and the features array still usable afterwards (copied, not moved)
  const twoRows = new Float32Array(2 * FEATURE_COUNT);
  twoRows.set(features);
  twoRows.set(features, FEATURE_COUNT);
  const both = Array.from(await there.run(twoRows, 2));
  t.same(both, [...expected, ...expected]);
  t.equal(twoRows.length, 2 * FEATURE_COUNT);
});

t.test('a session that cannot open rejects with the reason, and the thread still opens the next one', async (t) => {
  const factory = classifierThread();
  await t.rejects(factory(path.join(ROOT, 'models', 'no-such-model.onnx'), 'cpu'), /no-such-model|No such file|Load model/i);
  const session = await factory(MODEL, 'cpu');
  t.equal((await session.run(extractFeatures(sampleImage()), 1)).length, 4);
});

t.test('an idle thread does not keep the process alive; a pending request does', async (t) => {
  const script = [
    `import { classifierThread } from ${JSON.stringify(path.join(ROOT, 'cli/convert/classifier-thread.ts'))};`,
    // nothing else keeps this process alive while the session opens: the thread must
    `const session = await classifierThread()(${JSON.stringify(MODEL)}, 'cpu');`,
    `console.log('opened ' + session.provider);`,
  ].join('\n');
  const started = performance.now();
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  t.equal(run.status, 0, run.stderr);
  t.equal(run.stdout, 'opened cpu\n', 'the pending open held the process until it answered');
  t.ok(performance.now() - started < 60_000, 'and the idle thread let it exit');
});
