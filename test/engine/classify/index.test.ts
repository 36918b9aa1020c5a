import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import t from 'tap';
import {
  classifyImage,
  configureClassifier,
  defaultCudaProviderLibrary,
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
  reference.cases.forEach((c, i) =>
    c.scores.forEach((s, k) => {
      worst = Math.max(worst, Math.abs(s - scores[i * 4 + k]));
    }),
  );
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

t.test('a flat-colour logo is clip art and a real photograph is a photo', async (t) => {
  configureClassifier({ device: 'cpu', log: quiet });
  const logo = await classifyImage(syntheticLogo(400, 300, 101));
  t.equal(logo.class, 'clipart', JSON.stringify(logo.scores));
  // A real photograph, not a generated scene: scikit-image's "chelsea" (CC0, Stefan van der Walt),
  // 301x200 JPEG. It comes from a training package (python3-skimage), so this checks the shipped
  // model end to end, not its generalisation (the model card's held-out set does that).
  const { data, info } = await sharp(fileURLToPath(new URL('../../fixtures/classify/chelsea-cc0.jpg', import.meta.url)))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const photo = await classifyImage({ width: info.width, height: info.height, data: new Uint8Array(data) });
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
  // The CUDA library is "there", so auto tries CUDA and must fall back when opening it fails.
  configureClassifier({
    device: 'auto',
    sessionFactory: factory,
    log: quiet,
    modelPath: '/nowhere/model.onnx',
    cudaProviderLibrary: () => '/ort/libonnxruntime_providers_cuda.so',
    fileExists: () => true,
  });
  const first = await classifyImage(syntheticLogo(32, 32, 1));
  const second = await classifyImage(syntheticPhoto(32, 32, 2));
  t.equal(first.class, 'scan');
  t.equal(second.class, 'scan');
  t.same(calls, ['cuda', 'cpu'], 'one session for both images');
  const info = await getClassifierInfo();
  t.same(info, {
    provider: 'cpu',
    model: '/nowhere/model.onnx',
    requested: 'auto',
    fallbackReason: 'CUDA execution provider unavailable (no CUDA here); using CPU',
  });

  calls.length = 0;
  configureClassifier({ device: 'cpu', sessionFactory: factory, log: quiet });
  t.equal((await getClassifierInfo()).fallbackReason, undefined);
  t.same(calls, ['cpu'], 'cpu never tries CUDA');
});

t.test('auto skips the CUDA attempt when the CUDA provider library is absent, and says so', async (t) => {
  const calls: ExecutionProvider[] = [];
  const asked: string[] = [];
  const factory: ClassifierSessionFactory = async (_path, provider) => {
    calls.push(provider);
    if (provider === 'cuda') throw new Error('should not be asked for CUDA');
    return { provider, run: async (_features, rows) => new Float32Array(rows * 4).fill(0.25) };
  };
  const lines: string[] = [];
  const library = '/ort/bin/libonnxruntime_providers_cuda.so';
  configureClassifier({
    device: 'auto',
    sessionFactory: factory,
    log: (l) => lines.push(l),
    cudaProviderLibrary: () => library,
    fileExists: (p) => {
      asked.push(p);
      return false;
    },
  });
  const info = await getClassifierInfo();
  t.same(calls, ['cpu'], 'CUDA is never opened');
  t.same(asked, [library], 'the probe looked at the library onnxruntime would load');
  t.equal(info.provider, 'cpu');
  t.equal(info.fallbackReason, `CUDA provider library not installed (${library}); using CPU`);
  t.same(lines, [`classifier: onnxruntime on cpu (VECTORIZE_DEVICE=auto): CUDA provider library not installed (${library}); using CPU`]);

  calls.length = 0;
  configureClassifier({ device: 'auto', sessionFactory: factory, log: quiet, cudaProviderLibrary: () => null });
  t.match((await getClassifierInfo()).fallbackReason, /no CUDA build/);
  t.same(calls, ['cpu'], 'a platform without a CUDA build skips it too');

  calls.length = 0;
  configureClassifier({ device: 'cuda', sessionFactory: factory, log: quiet, cudaProviderLibrary: () => library, fileExists: () => false });
  t.match((await getClassifierInfo()).fallbackReason, /CUDA execution provider unavailable \(should not be asked/);
  t.same(calls, ['cuda', 'cpu'], 'a forced cuda still tries, whatever the probe says');
});

t.test("the default probe points into onnxruntime-node's own bin folder", async (t) => {
  const library = defaultCudaProviderLibrary();
  if (process.platform !== 'linux') {
    t.pass('checked on Linux only');
    return;
  }
  t.ok(library, 'linux has a CUDA build');
  const folder = join(dirname(createRequire(import.meta.url).resolve('onnxruntime-node')), '..', 'bin', 'napi-v6', 'linux', process.arch);
  t.equal(library, join(folder, 'libonnxruntime_providers_cuda.so'));
  t.ok(existsSync(join(folder, 'libonnxruntime.so.1')), 'beside the runtime onnxruntime-node loads');
});

t.test('auto on a box without the CUDA library opens CPU and onnxruntime prints nothing', async (t) => {
  const library = defaultCudaProviderLibrary();
  if (library && existsSync(library)) {
    t.pass('this box has the CUDA provider library: nothing to skip');
    return;
  }
  const script = `import { getClassifierInfo } from ${JSON.stringify(new URL('../../../engine/classify/index.ts', import.meta.url).href)};
const info = await getClassifierInfo();
process.stdout.write(JSON.stringify(info));`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, VECTORIZE_DEVICE: 'auto' },
    timeout: 60_000,
  });
  t.equal(child.status, 0, child.stderr);
  const info = JSON.parse(child.stdout) as { provider: string; fallbackReason?: string };
  t.equal(info.provider, 'cpu');
  t.match(info.fallbackReason, /CUDA provider library not installed/);
  t.notMatch(child.stderr, /Failed to load|providers_shared/, 'no native loader noise');
  t.match(child.stderr, /classifier: onnxruntime on cpu \(VECTORIZE_DEVICE=auto\)/, 'the provider in use is still logged');
});

t.test('a failed open is not cached', async (t) => {
  let attempts = 0;
  configureClassifier({
    device: 'cpu',
    log: quiet,
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
  t.teardown(() => {
    if (saved === undefined) delete process.env.VECTORIZE_DEVICE;
    else process.env.VECTORIZE_DEVICE = saved;
  });
  configureClassifier({ log: quiet });
  t.equal((await getClassifierInfo()).requested, 'cpu');
});
