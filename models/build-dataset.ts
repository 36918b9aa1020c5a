/**
 * Builds the classifier's training and held-out sets from real images that Debian packages ship.
 *
 *   node --import tsx models/build-dataset.ts      (or: npm run train:classifier, which also trains)
 *
 * 1. `apt-get download` + `dpkg -x` each package of PACKAGES into models/.cache/pkgs/<name>
 *    (no installation: the packages' own dependencies are not needed, only their files).
 *    Rendering needs pdftoppm (poppler-utils), dot (graphviz) and fig2dev (fig2dev) on PATH.
 * 2. Each SOURCE lists files of one package for one class and split; files used by the benchmark
 *    corpus (../shared/bench) are excluded by exact path (BENCH_EXCLUDED). Held-out sources come
 *    from packages that no training source uses.
 * 3. Every file is rendered or decoded, augmented (training) or taken as it is (held-out, plus
 *    crops for the few large wallpapers), and turned into the same feature vector inference
 *    computes (engine/classify/features.ts). The result is models/.cache/dataset.json.
 *
 * Everything random comes from a seed derived from the file path and variant number, so the
 * same packages give the same dataset.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import sharp from 'sharp';
import { featuresOfThumbnail, makeThumbnail } from '../engine/classify/features.js';
import { textureFeatures } from '../engine/classify/texture.js';
import type { ImageClass, RgbaImage } from '../engine/types.js';
import { seededRandom } from './lib/mlp.js';
import { loadRendered, pdfPageList, renderBatch, type SvgJob } from './dataset/load.js';
import {
  BENCH_EXCLUDED,
  CACHE,
  DATASET_PATH,
  MODELS_DIR,
  PACKAGES,
  PKGS,
  THUMBS_PATH,
  WORK,
  ensurePackages,
  isBenchFile,
  listFiles,
  sample,
  seedOf,
} from './dataset/packages.js';
import { SYNTHETIC, checkGraphsDisjoint, checkSplits, sources, type Source, type Split } from './dataset/sources.js';

export { DATASET_PATH, THUMBS_PATH };

export interface DatasetRow {
  split: Split;
  class: ImageClass;
  source: string;
  package: string;
  file: string;
  variant: number;
  /** The thumbnail's place in THUMBS_PATH. */
  width: number;
  height: number;
  offset: number;
  /** textureFeatures of the full-resolution image, which the cache does not keep. */
  texture: number[];
}

// ---------------------------------------------------------------- main

type Dataset = { rows: DatasetRow[]; thumbnails: Buffer };

/** Builds one source: its rows (offsets from 0) and their thumbnails. */
async function buildSource(source: Source, log: (line: string) => void): Promise<Dataset> {
  const rows: DatasetRow[] = [];
  const thumbs: Uint8Array[] = [];
  let thumbBytes = 0;
  const started = Date.now();
  const root = source.package === SYNTHETIC ? join(WORK, SYNTHETIC) : join(PKGS, source.package);
  let candidates = source.items
    ? source.items()
    : listFiles(source.package).filter((p) => source.match(p) && !isBenchFile(source.package, p));
  // A PDF source expands into its pages.
  if (source.class === 'scan') candidates = candidates.flatMap((p) => pdfPageList(source.package, p, source.limit, source.pageSeed));
  const files = sample(candidates, source.limit, seedOf(source.id));
  let made = 0,
    skipped = 0;
  const name0 = (file: string) =>
    file.includes('#') ? `${relative(root, file.split('#')[0]).replace(/^(\.\.\/)+/, '')}#${file.split('#')[1]}` : file;
  if (source.svg) {
    // Replays each file's loading random stream exactly as the loop below will.
    const jobs = files
      .map((file) => source.svg!(join(root, file), seededRandom(seedOf(source.id, name0(file), 'load'))))
      .filter((j): j is SvgJob => j !== null);
    renderBatch(jobs);
  }
  for (const file of files) {
    const full = file.includes('#') ? file : join(root, file);
    const name = name0(file);
    // One render or decode per file; each variant augments it with its own random stream.
    let base: RgbaImage | null;
    try {
      const loadRandom = seededRandom(seedOf(source.id, name, 'load'));
      base = source.svg ? await loadRendered(source.svg(full, loadRandom)) : await source.load!(full, loadRandom, 0);
    } catch (error) {
      skipped++;
      if (skipped <= 3) log(`  skip ${name}: ${(error as Error).message.split('\n')[0]}`);
      continue;
    }
    if (!base || base.width < 8 || base.height < 8) {
      skipped++;
      continue;
    }
    for (let variant = 0; variant < source.variants; variant++) {
      const random = seededRandom(seedOf(source.id, name, variant));
      try {
        const image = await source.augment(base, random, variant);
        const thumb = makeThumbnail(image);
        rows.push({
          split: source.split,
          class: source.class,
          source: source.id,
          package: source.package,
          file: name,
          variant,
          width: thumb.width,
          height: thumb.height,
          offset: thumbBytes,
          texture: textureFeatures(image),
        });
        thumbs.push(thumb.rgb);
        thumbBytes += thumb.rgb.length;
        made++;
      } catch (error) {
        skipped++;
        if (skipped <= 3) log(`  skip ${name}: ${(error as Error).message.split('\n')[0]}`);
        break;
      }
    }
  }
  log(
    `${source.split.padEnd(7)} ${source.class.padEnd(9)} ${source.id.padEnd(22)} ${String(files.length).padStart(4)} files -> ` +
      `${String(made).padStart(4)} samples (${skipped} skipped) ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { rows, thumbnails: Buffer.concat(thumbs) };
}

/** The files whose code decides what a build makes: a change to any of them starts a new source cache. */
const BUILD_CODE = [
  'build-dataset.ts',
  'dataset/augment.ts',
  'dataset/augment-scan.ts',
  'dataset/gradient-art.ts',
  'dataset/heldout.ts',
  'dataset/image-ops.ts',
  'dataset/load.ts',
  'dataset/packages.ts',
  'dataset/sources.ts',
  'lib/dxf.ts',
  'lib/mlp.ts',
  'lib/render-svg.ts',
  '../engine/classify/features.ts',
  '../engine/classify/texture.ts',
];

/**
 * Where each finished source is kept, so that a build stopped part-way (they take a quarter of an
 * hour on a quiet box, far longer on a busy one) resumes with the next source. Named by a hash of
 * the build's code: any change to it builds every source again.
 */
export function sourceCacheDir(): string {
  const hash = createHash('sha256');
  for (const file of BUILD_CODE) hash.update(file).update(readFileSync(join(MODELS_DIR, file)));
  return join(CACHE, 'sources', hash.digest('hex').slice(0, 16));
}

/** Rows of several datasets back to back, offsets moved to the joined thumbnails. */
export function concatDatasets(parts: Dataset[]): Dataset {
  const rows: DatasetRow[] = [];
  let offset = 0;
  for (const part of parts) {
    for (const r of part.rows) rows.push({ ...r, offset: offset + r.offset });
    offset += part.thumbnails.length;
  }
  return { rows, thumbnails: Buffer.concat(parts.map((p) => p.thumbnails)) };
}

export async function buildDataset(log: (line: string) => void = console.log, only?: Set<string>): Promise<Dataset> {
  ensurePackages();
  sharp.concurrency(1);
  sharp.cache(false);
  checkSplits(sources());
  checkGraphsDisjoint(sources());
  const cacheDir = sourceCacheDir();
  mkdirSync(cacheDir, { recursive: true });
  const parts: Dataset[] = [];
  for (const source of sources()) {
    if (only && !only.has(source.id)) continue;
    const cached = join(cacheDir, source.id);
    if (existsSync(`${cached}.json`) && !only) {
      parts.push(readDataset(`${cached}.json`, `${cached}.bin`));
      log(`${source.split.padEnd(7)} ${source.class.padEnd(9)} ${source.id.padEnd(22)} from ${relative(process.cwd(), cached)}`);
      continue;
    }
    const built = await buildSource(source, log);
    writeDataset(built, `${cached}.json`, `${cached}.bin`);
    parts.push(built);
  }
  return concatDatasets(parts);
}

export function writeDataset(dataset: { rows: DatasetRow[]; thumbnails: Buffer }, path = DATASET_PATH, thumbsPath = THUMBS_PATH): void {
  writeFileSync(thumbsPath, dataset.thumbnails);
  writeFileSync(path, JSON.stringify({ packages: PACKAGES, excluded: BENCH_EXCLUDED, rows: dataset.rows }));
}

/**
 * The cached dataset with the `only` sources replaced by `fresh`: sources in declaration order,
 * rows within a source in build order, as a full build writes them. `order` is the declared source
 * ids; listing the sources reads the downloaded packages, so a test passes its own.
 */
export function mergeDatasets(
  cached: Dataset,
  fresh: Dataset,
  only: Set<string>,
  order: readonly string[] = sources().map((s) => s.id),
): Dataset {
  const bytesOf = (d: Dataset, r: DatasetRow) => d.thumbnails.subarray(r.offset, r.offset + r.width * r.height * 3);
  const merged = [
    ...cached.rows.filter((r) => !only.has(r.source)).map((r) => ({ r, bytes: bytesOf(cached, r) })),
    ...fresh.rows.map((r) => ({ r, bytes: bytesOf(fresh, r) })),
  ].sort((a, b) => order.indexOf(a.r.source) - order.indexOf(b.r.source));
  const rows: DatasetRow[] = [];
  let offset = 0;
  for (const { r, bytes } of merged) {
    rows.push({ ...r, offset });
    offset += bytes.length;
  }
  return { rows, thumbnails: Buffer.concat(merged.map((m) => m.bytes)) };
}

/** The feature vector of one row, as extractFeatures gives it for the row's full image. */
export function featuresOfRow(row: DatasetRow, thumbnails: Buffer): Float32Array {
  const rgb = thumbnails.subarray(row.offset, row.offset + row.width * row.height * 3);
  return featuresOfThumbnail({ width: row.width, height: row.height, rgb }, row.texture);
}

export function readDataset(path = DATASET_PATH, thumbsPath = THUMBS_PATH): Dataset {
  return { rows: (JSON.parse(readFileSync(path, 'utf8')) as { rows: DatasetRow[] }).rows, thumbnails: readFileSync(thumbsPath) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // --only=ID,ID rebuilds just those sources and merges them into the cached dataset: every
  // sample is seeded by its own source, file and variant, so the result equals a full build.
  const onlyArg = process.argv.find((a) => a.startsWith('--only='));
  const only = onlyArg ? new Set(onlyArg.slice(7).split(',')) : undefined;
  let dataset = await buildDataset(console.log, only);
  if (only) dataset = mergeDatasets(readDataset(), dataset, only);
  writeDataset(dataset);
  console.log(`wrote ${dataset.rows.length} rows to ${relative(process.cwd(), DATASET_PATH)}`);
}
