import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import {
  classifyImage,
  configureClassifier,
  extractFeatures,
  FEATURE_COUNT,
  getClassifierInfo,
  onnxRuntimeSessionFactory,
  parseDeviceRequest,
  type ClassifierSessionFactory,
  type ExecutionProvider,
} from '../../../engine/classify/index.js';
import { IMAGE_CLASSES } from '../../../engine/types.js';
import { referenceImages } from '../../../models/train.js';
import { syntheticLogo, syntheticPhoto } from '../../../models/lib/synthetic.js';

const MODEL = fileURLToPath(new URL('../../../models/classifier.onnx', import.meta.url));
const reference = JSON.parse(readFileSync(new URL('../../fixtures/classify/reference.json', import.meta.url), 'utf8')) as {
  classes: string[];
  featureCount: number;
  cases: Array<{ name: string; features: number[]; scores: number[] }>;
};

const quiet = () => {};
t.afterEach(() => configureClassifier());

t.test('onnxruntime reproduces the trainer outputs on the fixed reference inputs', async (t) => {
  t.same(reference.classes, [...IMAGE_CLASSES]);
  t.equal(reference.featureCount, FEATURE_COUNT);
  const session = await onnxRuntimeSessionFactory(MODEL, 'cpu');
  const rows = reference.cases.length;
  const input = new Float32Array(rows * FEATURE_COUNT);
  reference.cases.forEach((c, i) => input.set(c.features, i * FEATURE_COUNT));
  const scores = await session.run(input, rows);
  t.equal(scores.length, rows * IMAGE_CLASSES.length);
  let worst = 0;
  reference.cases.forEach((c, i) => c.scores.forEach((s, k) => { worst = Math.max(worst, Math.abs(s - scores[i * 4 + k])); }));
  t.ok(worst < 1e-4, `largest difference ${worst}`);
});

t.test('inference computes the same features the trainer stored for the same images', async (t) => {
  const images = referenceImages();
  t.equal(images.length, reference.cases.length);
  images.forEach(({ name, image }, i) => {
    const features = extractFeatures(image);
    const stored = reference.cases[i].features;
    t.equal(reference.cases[i].name, name);
    const worst = Math.max(...stored.map((v, k) => Math.abs(v - features[k])));
    t.ok(worst < 1e-6, `${name}: largest feature difference ${worst}`);
  });
});

t.test('a flat-colour logo is clip art and a noisy photo-like scene is a photo', async (t) => {
  configureClassifier({ device: 'cpu', log: quiet });
  const logo = await classifyImage(syntheticLogo(400, 300, 101));
  t.equal(logo.class, 'clipart', JSON.stringify(logo.scores));
  const photo = await classifyImage(syntheticPhoto(360, 240, 202));
  t.equal(photo.class, 'photo', JSON.stringify(photo.scores));
  t.equal(photo.provider, 'cpu');
  const total = IMAGE_CLASSES.reduce((s, c) => s + photo.scores[c], 0);
  t.ok(Math.abs(total - 1) < 1e-5, 'scores are probabilities');
});

t.test('forcing CUDA where it cannot run falls back to CPU and says why', async (t) => {
  const lines: string[] = [];
  configureClassifier({ device: 'cuda', log: (line) => lines.push(line) });
  const info = await getClassifierInfo();
  t.equal(info.requested, 'cuda');
  t.equal(info.model, MODEL);
  if (info.provider === 'cuda') {
    // A GPU box with the CUDA libraries: no fallback to report.
    t.equal(info.fallbackReason, undefined);
  } else {
    t.equal(info.provider, 'cpu');
    t.match(info.fallbackReason, /CUDA execution provider unavailable/);
  }
  const result = await classifyImage(syntheticLogo(64, 64, 7));
  t.equal(result.provider, info.provider);
  t.equal(lines.length, 1, 'the provider is logged once');
  t.match(lines[0], new RegExp(`on ${info.provider} \\(VECTORIZE_DEVICE=cuda\\)`));
});

t.test('the session factory is injected, called once, and CPU is asked for only after CUDA fails', async (t) => {
  const calls: ExecutionProvider[] = [];
  const factory: ClassifierSessionFactory = async (_path, provider) => {
    calls.push(provider);
    if (provider === 'cuda') throw new Error('no CUDA here\nsecond line');
    return { provider, run: async (_features, rows) => Float32Array.from({ length: rows * 4 }, (_, i) => (i % 4 === 2 ? 0.7 : 0.1)) };
  };
  configureClassifier({ device: 'auto', sessionFactory: factory, log: quiet, modelPath: '/nowhere/model.onnx' });
  const first = await classifyImage(syntheticLogo(32, 32, 1));
  const second = await classifyImage(syntheticPhoto(32, 32, 2));
  t.equal(first.class, 'scan');
  t.equal(second.class, 'scan');
  t.same(calls, ['cuda', 'cpu'], 'one session for both images');
  const info = await getClassifierInfo();
  t.same(info, { provider: 'cpu', model: '/nowhere/model.onnx', requested: 'auto', fallbackReason: 'CUDA execution provider unavailable (no CUDA here); using CPU' });

  calls.length = 0;
  configureClassifier({ device: 'cpu', sessionFactory: factory, log: quiet });
  t.equal((await getClassifierInfo()).fallbackReason, undefined);
  t.same(calls, ['cpu'], 'cpu never tries CUDA');
});

t.test('a failed open is not cached', async (t) => {
  let attempts = 0;
  configureClassifier({
    device: 'cpu', log: quiet,
    sessionFactory: async (_path, provider) => {
      attempts++;
      if (attempts === 1) throw new Error('model file missing');
      return { provider, run: async () => new Float32Array([1, 0, 0, 0]) };
    },
  });
  await t.rejects(getClassifierInfo(), /model file missing/);
  t.equal((await classifyImage(syntheticLogo(16, 16, 3))).class, 'clipart');
});

t.test('VECTORIZE_DEVICE is validated and the error names the variable', async (t) => {
  t.equal(parseDeviceRequest(undefined), 'auto');
  t.equal(parseDeviceRequest('cpu'), 'cpu');
  t.throws(() => parseDeviceRequest('gpu'), { code: 'internal_error', message: /VECTORIZE_DEVICE/ });
  const saved = process.env.VECTORIZE_DEVICE;
  process.env.VECTORIZE_DEVICE = 'cpu';
  t.teardown(() => { if (saved === undefined) delete process.env.VECTORIZE_DEVICE; else process.env.VECTORIZE_DEVICE = saved; });
  configureClassifier({ log: quiet });
  t.equal((await getClassifierInfo()).requested, 'cpu');
});
