/**
 * Evaluates the committed classifier on the benchmark corpus (../shared/bench, never used for
 * training) through the engine's own path: decodeImage → classifyImage (onnxruntime, CPU here),
 * and measures latency after warm-up.
 *
 *   node --import tsx models/eval-bench.ts [--corpus ../shared/bench/corpus] [--repeat 20]
 *
 * Prints one line per image, accuracy per class, and the medians of classifyImage (features +
 * session.run) and of session.run alone (the model), over `repeat` runs per image.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeImage } from '../engine/decode/index.js';
import {
  classifyImage,
  configureClassifier,
  extractFeatures,
  getClassifierInfo,
  onnxRuntimeSessionFactory,
  type ClassifierSession,
} from '../engine/classify/index.js';
import { IMAGE_CLASSES, type ImageClass } from '../engine/types.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const corpus = resolve(arg('--corpus', join(HERE, '..', '..', 'shared', 'bench', 'corpus')));
const repeat = Number(arg('--repeat', '20'));
const manifest = JSON.parse(readFileSync(join(corpus, 'manifest.json'), 'utf8')) as {
  images: Array<{ id: string; file: string; class: ImageClass; width: number; height: number }>;
};

// Times session.run alone by wrapping the real adapter: the model's own latency.
const modelMs: number[] = [];
configureClassifier({
  sessionFactory: async (path, provider) => {
    const inner: ClassifierSession = await onnxRuntimeSessionFactory(path, provider);
    return {
      provider: inner.provider,
      async run(features, rows) {
        const t = performance.now();
        const out = await inner.run(features, rows);
        modelMs.push(performance.now() - t);
        return out;
      },
    };
  },
});
const info = await getClassifierInfo();
console.log(`classifier: ${info.provider} (requested ${info.requested})${info.fallbackReason ? ` — ${info.fallbackReason}` : ''}`);

const perClass = new Map<ImageClass, { correct: number; total: number }>(IMAGE_CLASSES.map((c) => [c, { correct: 0, total: 0 }]));
const totalMs: number[] = [];
const featureMs: number[] = [];
let correct = 0;
for (const entry of manifest.images) {
  const image = await decodeImage(readFileSync(join(corpus, entry.file)), {});
  await classifyImage(image); // warm-up
  const times: number[] = [];
  let result = await classifyImage(image);
  for (let i = 0; i < repeat; i++) {
    result = await classifyImage(image);
    times.push(result.ms);
    const t = performance.now();
    extractFeatures(image);
    featureMs.push(performance.now() - t);
  }
  totalMs.push(...times);
  const stats = perClass.get(entry.class)!;
  stats.total++;
  const ok = result.class === entry.class;
  if (ok) {
    stats.correct++;
    correct++;
  }
  const scores = IMAGE_CLASSES.map((c) => `${c} ${result.scores[c].toFixed(3)}`).join(', ');
  const verdict = `${ok ? 'ok  ' : 'MISS'} ${entry.id.padEnd(28)} ${entry.class.padEnd(9)} -> ${result.class.padEnd(9)}`;
  console.log(`${verdict} [${scores}] ${entry.width}x${entry.height} median ${median(times).toFixed(2)} ms`);
}
console.log(`\naccuracy ${correct}/${manifest.images.length} (${((100 * correct) / manifest.images.length).toFixed(1)}%)`);
for (const [c, s] of perClass) console.log(`  ${c.padEnd(9)} ${s.correct}/${s.total}`);
console.log(
  `median classifyImage ${median(totalMs).toFixed(2)} ms (features + model), features alone ${median(featureMs).toFixed(2)} ms, ` +
    `session.run alone ${median(modelMs).toFixed(3)} ms, over ${totalMs.length} runs on ${info.provider}`,
);
