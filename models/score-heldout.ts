/**
 * Scores an ONNX classifier on the held-out rows of the cached dataset, per class and per source,
 * through onnxruntime (the engine's own adapter, CPU): a model from another commit can be compared
 * on exactly the samples the current build makes. Reads the per-source cache of the current build
 * code (models/.cache/sources/<hash>), so it needs a finished build.
 *
 *   node --import tsx models/score-heldout.ts [--model FILE] [--misses DIR]
 *
 * --misses writes each missed sample's thumbnail as a PNG named source, file, truth and answer.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { onnxRuntimeSessionFactory } from '../engine/classify/index.js';
import { IMAGE_CLASSES } from '../engine/types.js';
import { MODEL_PATH } from './train.js';
import { concatDatasets, featuresOfRow, readDataset, sourceCacheDir } from './build-dataset.js';
import { sources } from './dataset/sources.js';

const { values: args } = parseArgs({ options: { model: { type: 'string', default: MODEL_PATH }, misses: { type: 'string' } } });
const dir = sourceCacheDir();
const heldOutSources = sources().filter((s) => s.split === 'heldout');
const dataset = concatDatasets(heldOutSources.map((s) => readDataset(join(dir, `${s.id}.json`), join(dir, `${s.id}.bin`))));
const session = await onnxRuntimeSessionFactory(args.model ?? MODEL_PATH, 'cpu');

const matrix = IMAGE_CLASSES.map(() => IMAGE_CLASSES.map(() => 0));
const bySource = new Map<string, { correct: number; total: number; misses: Map<string, number> }>();
if (args.misses) mkdirSync(args.misses, { recursive: true });
for (const row of dataset.rows) {
  const thumb = {
    width: row.width,
    height: row.height,
    rgb: dataset.thumbnails.subarray(row.offset, row.offset + row.width * row.height * 3),
  };
  const scores = await session.run(featuresOfRow(row, dataset.thumbnails), 1);
  let best = 0;
  for (let c = 1; c < scores.length; c++) if (scores[c] > scores[best]) best = c;
  const truth = IMAGE_CLASSES.indexOf(row.class);
  matrix[truth][best]++;
  const entry = bySource.get(row.source) ?? { correct: 0, total: 0, misses: new Map() };
  entry.total++;
  if (best === truth) entry.correct++;
  else {
    entry.misses.set(IMAGE_CLASSES[best], (entry.misses.get(IMAGE_CLASSES[best]) ?? 0) + 1);
    if (args.misses) {
      const name = `${row.source}--${row.file.replace(/[^\w.-]+/g, '_').slice(-60)}-${row.variant}--${row.class}-as-${IMAGE_CLASSES[best]}.png`;
      await sharp(thumb.rgb, { raw: { width: thumb.width, height: thumb.height, channels: 3 } })
        .png()
        .toFile(join(args.misses, name));
    }
  }
  bySource.set(row.source, entry);
}
const correct = matrix.reduce((s, r, i) => s + r[i], 0);
console.log(`${args.model}: held-out ${correct}/${dataset.rows.length} (${((100 * correct) / dataset.rows.length).toFixed(1)}%)`);
IMAGE_CLASSES.forEach((c, i) => {
  const n = matrix[i].reduce((a, b) => a + b, 0);
  console.log(`  ${c.padEnd(9)} ${matrix[i][i]}/${n} (${((100 * matrix[i][i]) / n).toFixed(1)}%)`);
});
console.log(`confusion (rows true, columns predicted; ${IMAGE_CLASSES.join(', ')}): ${JSON.stringify(matrix)}`);
for (const [id, e] of bySource) {
  const misses = [...e.misses].map(([c, n]) => `${n} -> ${c}`).join(', ');
  console.log(`  ${id.padEnd(20)} ${e.correct}/${e.total}${misses ? `  (${misses})` : ''}`);
}
