import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { onnxRuntimeSessionFactory } from '../../engine/classify/index.js';
import { IMAGE_CLASSES, type ImageClass } from '../../engine/types.js';
import { gaussian, mergeMlps, mlpToOnnx, predict, seededRandom, softmax, trainMlp } from '../../models/lib/mlp.js';
import { TRAIN_OPTIONS, trainClassifier, type LabelledRow } from '../../models/train.js';
import { FEATURE_COUNT } from '../../engine/classify/features.js';

/** Four well-separated clusters in feature space: a tiny stand-in for the real dataset. */
function tinyDataset(seed: number): LabelledRow[] {
  const random = seededRandom(seed);
  const rows: LabelledRow[] = [];
  IMAGE_CLASSES.forEach((cls: ImageClass, k) => {
    for (let i = 0; i < 12; i++) {
      const features = Array.from({ length: FEATURE_COUNT }, (_, j) => (j % 4 === k ? 1 : 0) + 0.1 * gaussian(random));
      rows.push({ class: cls, features });
    }
  });
  return rows;
}

const tiny = { ...TRAIN_OPTIONS, epochs: 8, hidden: [12], inputNoise: 0.1, weightDecay: 0.0005 };
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

t.test('a fixed seed gives the same ONNX file, another seed a different one', async (t) => {
  const rows = tinyDataset(1);
  const a = trainClassifier(rows, { ...tiny, seed: 42 });
  const b = trainClassifier(rows, { ...tiny, seed: 42 });
  const c = trainClassifier(rows, { ...tiny, seed: 43 });
  t.equal(sha(a.onnx), sha(b.onnx));
  t.not(sha(a.onnx), sha(c.onnx));
});

t.test('the trainer learns the tiny problem and its ONNX export computes what it computes', async (t) => {
  const rows = tinyDataset(2);
  const { model, onnx } = trainClassifier(rows, { ...tiny, seed: 7, epochs: 60 });
  const correct = rows.filter((r) => {
    const p = predict(model, r.features);
    return p.indexOf(Math.max(...p)) === IMAGE_CLASSES.indexOf(r.class);
  }).length;
  t.ok(correct >= rows.length - 2, `${correct}/${rows.length} right`);

  const dir = mkdtempSync(join(tmpdir(), 'vectorize-onnx-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'tiny.onnx');
  writeFileSync(path, onnx);
  const session = await onnxRuntimeSessionFactory(path, 'cpu');
  const input = new Float32Array(rows.length * FEATURE_COUNT);
  rows.forEach((r, i) => input.set(Array.from(r.features), i * FEATURE_COUNT));
  const scores = await session.run(input, rows.length);
  let worst = 0;
  rows.forEach((r, i) =>
    predict(model, Float32Array.from(r.features)).forEach((p, k) => {
      worst = Math.max(worst, Math.abs(p - scores[i * 4 + k]));
    }),
  );
  t.ok(worst < 1e-4, `largest difference ${worst}`);
});

t.test("merged nets compute the mean of their members' logits, in the trainer and through onnxruntime", async (t) => {
  const rows = tinyDataset(3);
  const x = rows.map((r) => Float32Array.from(r.features));
  const y = rows.map((r) => IMAGE_CLASSES.indexOf(r.class));
  const members = [5, 6, 7].map((seed) => trainMlp(x, y, 4, { ...tiny, hidden: [6, 5], seed }));
  const merged = mergeMlps(members);
  t.same(
    merged.layers.map((l) => [l.inputs, l.outputs]),
    [
      [FEATURE_COUNT, 18],
      [18, 15],
      [15, 4],
    ],
  );
  // Logits of a member: log-probabilities up to a constant, so the mean of logits is the mean of
  // log-probabilities up to a constant too, and softmax of that is what the merged net must give.
  let worst = 0;
  for (const row of x.slice(0, 10)) {
    const meanLog = new Float64Array(4);
    for (const m of members)
      predict(m, row).forEach((p, k) => {
        meanLog[k] += Math.log(p) / members.length;
      });
    const expected = softmax(meanLog);
    predict(merged, row).forEach((p, k) => {
      worst = Math.max(worst, Math.abs(p - expected[k]));
    });
  }
  t.ok(worst < 1e-5, `largest difference from the members' mean ${worst}`);

  const dir = mkdtempSync(join(tmpdir(), 'vectorize-onnx-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'merged.onnx');
  writeFileSync(path, mlpToOnnx(merged, { producer: 'test', docString: 'merged', metadata: {} }));
  const session = await onnxRuntimeSessionFactory(path, 'cpu');
  const input = new Float32Array(x.length * FEATURE_COUNT);
  x.forEach((r, i) => input.set(r, i * FEATURE_COUNT));
  const scores = await session.run(input, x.length);
  let onnxWorst = 0;
  x.forEach((r, i) =>
    predict(merged, r).forEach((p, k) => {
      onnxWorst = Math.max(onnxWorst, Math.abs(p - scores[i * 4 + k]));
    }),
  );
  t.ok(onnxWorst < 1e-4, `onnxruntime vs trainer ${onnxWorst}`);
  t.throws(
    () => mergeMlps([members[0], trainMlp(x.slice(1), y.slice(1), 4, { ...tiny, hidden: [6, 5], seed: 9 })]),
    /share depth and standardisation/,
  );
});
