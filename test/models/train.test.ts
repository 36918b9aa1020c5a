import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { onnxRuntimeSessionFactory } from '../../engine/classify/index.js';
import { IMAGE_CLASSES, type ImageClass } from '../../engine/types.js';
import { gaussian, predict, seededRandom } from '../../models/lib/mlp.js';
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
  const correct = rows.filter((r) => { const p = predict(model, r.features); return p.indexOf(Math.max(...p)) === IMAGE_CLASSES.indexOf(r.class); }).length;
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
  rows.forEach((r, i) => predict(model, Float32Array.from(r.features)).forEach((p, k) => { worst = Math.max(worst, Math.abs(p - scores[i * 4 + k])); }));
  t.ok(worst < 1e-4, `largest difference ${worst}`);
});
