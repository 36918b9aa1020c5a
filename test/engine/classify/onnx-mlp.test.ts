import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { FEATURE_COUNT, onnxRuntimeSessionFactory } from '../../../engine/classify/index.js';
import { plainMlpSessionFactory, readOnnxMlp, runOnnxMlp } from '../../../engine/classify/onnx-mlp.js';
import { encodeOnnxModel } from '../../../models/lib/onnx-writer.js';
import { mlpToOnnx, predict, seededRandom, type Mlp } from '../../../models/lib/mlp.js';

const MODEL = fileURLToPath(new URL('../../../models/classifier.onnx', import.meta.url));
const reference = JSON.parse(readFileSync(new URL('../../fixtures/classify/reference.json', import.meta.url), 'utf8')) as {
  cases: Array<{ name: string; features: number[] }>;
};

/** One float32 step just below 1: the probabilities' resolution where it is coarsest. */
const ONE_STEP = 2 ** -23;

const argmax = (scores: Float32Array, row: number) =>
  [0, 1, 2, 3].reduce((best, k) => (scores[row * 4 + k] > scores[row * 4 + best] ? k : best), 0);

t.test('the shipped model gives the probabilities onnxruntime gives, to a float32 step, and the same class', async (t) => {
  const random = seededRandom(14);
  // the trainer's reference images, then feature rows spread over and past the features' 0..1 range
  const rows = reference.cases.length + 2000;
  const input = new Float32Array(rows * FEATURE_COUNT);
  reference.cases.forEach((c, i) => input.set(c.features, i * FEATURE_COUNT));
  for (let i = reference.cases.length * FEATURE_COUNT; i < input.length; i++)
    input[i] = (random() * 1.4 - 0.2) * (random() < 0.3 ? 0.05 : 1);
  const expected = await (await onnxRuntimeSessionFactory(MODEL, 'cpu')).run(input, rows);
  const plain = await plainMlpSessionFactory(MODEL, 'cpu');
  t.equal(plain.provider, 'cpu');
  const scores = await plain.run(input, rows);
  t.equal(scores.length, expected.length);
  let worst = 0,
    classes = 0;
  for (let i = 0; i < scores.length; i++) worst = Math.max(worst, Math.abs(scores[i] - expected[i]));
  for (let row = 0; row < rows; row++) if (argmax(scores, row) === argmax(expected, row)) classes++;
  t.ok(worst <= 2 * ONE_STEP, `largest difference ${worst}`);
  t.equal(classes, rows, 'every row gets onnxruntime’s class');
  // one row at a time is the same as a batch
  const one = await plain.run(input.slice(0, FEATURE_COUNT), 1);
  t.same(Array.from(one), Array.from(scores.slice(0, 4)));
});

t.test("a trainer's MLP with other sizes, read back from its ONNX bytes, computes what the trainer computes", async (t) => {
  const random = seededRandom(3);
  const sizes = [5, 7, 6, 3];
  const layers = sizes.slice(1).map((outputs, l) => ({
    inputs: sizes[l],
    outputs,
    weights: Float64Array.from({ length: outputs * sizes[l] }, () => Math.fround(random() * 2 - 1)),
    bias: Float64Array.from({ length: outputs }, () => Math.fround(random() - 0.5)),
  }));
  const model: Mlp = {
    mean: Float64Array.from({ length: 5 }, () => Math.fround(random())),
    invStd: Float64Array.from({ length: 5 }, () => Math.fround(1 + random())),
    layers,
  };
  const graph = readOnnxMlp(mlpToOnnx(model, { producer: 'test', docString: '', metadata: {} }));
  t.equal(graph.input, 'features');
  t.equal(graph.output, 'scores');
  for (let r = 0; r < 20; r++) {
    const row = Float32Array.from({ length: 5 }, () => random() * 3 - 1);
    const scores = runOnnxMlp(graph, { dims: [1, 5], data: row });
    const trainer = predict(model, row);
    t.equal(scores.length, 3);
    t.ok(
      Array.from(scores).every((p, k) => Math.abs(p - trainer[k]) < 1e-5),
      `row ${r}: ${Array.from(scores)} against ${Array.from(trainer)}`,
    );
  }
});

t.test('a model it cannot run is refused when opened, not answered wrongly', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vectorize-onnx-mlp-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const withTanh = encodeOnnxModel({
    name: 'tanh',
    producer: 'test',
    nodes: [{ op: 'Tanh', inputs: ['features'], outputs: ['scores'], name: 'tanh' }],
    initializers: [],
    inputs: [{ name: 'features', shape: ['batch', 4] }],
    outputs: [{ name: 'scores', shape: ['batch', 4] }],
  });
  const path = join(dir, 'tanh.onnx');
  writeFileSync(path, withTanh);
  await t.rejects(plainMlpSessionFactory(path, 'cpu'), /operator Tanh is not supported/);
  writeFileSync(join(dir, 'cut.onnx'), readFileSync(MODEL).subarray(0, 5000));
  await t.rejects(plainMlpSessionFactory(join(dir, 'cut.onnx'), 'cpu'), /truncated|no graph/);
  await t.rejects(plainMlpSessionFactory(join(dir, 'missing.onnx'), 'cpu'), /ENOENT/);
  await t.rejects(plainMlpSessionFactory(MODEL, 'cuda'), /CPU, not cuda/);
});
