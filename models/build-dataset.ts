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
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import sharp from 'sharp';
import { makeThumbnail } from '../engine/classify/features.js';
import type { ImageClass, RgbaImage } from '../engine/types.js';
import { dxfToSvg } from './lib/dxf.js';
import { seededRandom, gaussian } from './lib/mlp.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
export const CACHE = join(HERE, '.cache');
const DEBS = join(CACHE, 'debs');
const PKGS = join(CACHE, 'pkgs');
const WORK = join(CACHE, 'work');
export const DATASET_PATH = join(CACHE, 'dataset.json');
/** The thumbnails (engine/classify/features.ts makeThumbnail) of every row, RGB bytes back to back. */
export const THUMBS_PATH = join(CACHE, 'thumbnails.bin');

/** Debian (bookworm) packages the dataset is built from. */
export const PACKAGES = [
  // clip art
  'openclipart-svg', 'tango-icon-theme', 'oxygen-icon-theme', 'breeze-icon-theme', 'ukui-wallpapers',
  // photo (plasma-workspace-wallpapers also gives flat illustrations to clip art)
  'python3-skimage', 'opencv-doc', 'plasma-workspace-wallpapers', 'lomiri-wallpapers-16.04', 'mate-backgrounds', 'lomiri-wallpapers-20.04',
  // scan: manuals rendered as pages
  'valgrind', 'nettle-dev', 'gri-pdf-doc', 'fontconfig', 'libtasn1-doc', 'zlib1g-dev', 'ghostscript-doc', 'camlidl-doc', 'shared-mime-info',
  // blueprint
  'fritzing-parts', 'librecad-data', 'xfig-libs', 'graphviz-doc',
  // added in the second round: more photographs, and figures of a plotting language's manual
  'hugin-data', 'asymptote-doc',
  // added in the third round: class and include graphs that doxygen drew with dot (training), photos of a jigsaw game (held-out)
  'libcppunit-doc', 'libqwt-doc', 'palapeli-data',
  // and flat icons (one colour per shape, no outlines), which the coloured diagram fills made look like drawings
  'papirus-icon-theme',
  // graphs that other packages ship as .dot examples, laid out by dot as graphviz-doc's are
  'dot2tex', 'ruby-graphviz', 'python-pygraphviz-doc',
] as const;

/** Files the benchmark corpus was made from: never in the training or held-out sets. */
export const BENCH_EXCLUDED = [
  'python3-skimage/usr/lib/python3/dist-packages/skimage/data/astronaut.png',
  'python3-skimage/usr/lib/python3/dist-packages/skimage/data/coins.png',
  'python3-skimage/usr/lib/python3/dist-packages/skimage/data/page.png',
  'python3-skimage/usr/lib/python3/dist-packages/skimage/data/logo.png',
  'plasma-workspace-wallpapers/usr/share/wallpapers/FallenLeaf/',
  'plasma-workspace-wallpapers/usr/share/wallpapers/Kite/',
  'mate-backgrounds/usr/share/backgrounds/mate/nature/YellowFlower.jpg',
  'tango-icon-theme/usr/share/icons/Tango/scalable/apps/accessories-calculator.svg',
  'tango-icon-theme/usr/share/icons/Tango/scalable/status/weather-storm.svg',
  'fritzing-parts/usr/share/fritzing/parts/svg/core/schematic/rtc_ds3231_breakout_schematic.svg',
];

type Split = 'train' | 'heldout';

interface Source {
  id: string;
  package: (typeof PACKAGES)[number];
  class: ImageClass;
  split: Split;
  /** Paths relative to the package root, matched against every file in it. */
  match: (path: string) => boolean;
  /** At most this many files, drawn with a seeded shuffle. */
  limit: number;
  /** Samples per file. */
  variants: number;
  /** Raster sources decode or render a file directly... */
  load?: (file: string, random: () => number, variant: number) => Promise<RgbaImage | null>;
  /** ...SVG-based ones say what to draw, and are rendered in batches by a child process. */
  svg?: (file: string, random: () => number) => SvgJob | null;
  augment: (image: RgbaImage, random: () => number, variant: number) => Promise<RgbaImage>;
}

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
}

// ---------------------------------------------------------------- packages and files

function ensurePackages(): void {
  mkdirSync(DEBS, { recursive: true });
  mkdirSync(PKGS, { recursive: true });
  for (const name of PACKAGES) {
    const target = join(PKGS, name);
    if (existsSync(target)) continue;
    if (!readdirSync(DEBS).some((f) => f.startsWith(`${name}_`))) {
      console.log(`apt-get download ${name}`);
      execFileSync('apt-get', ['download', name], { cwd: DEBS, stdio: ['ignore', 'ignore', 'inherit'] });
    }
    const deb = readdirSync(DEBS).find((f) => f.startsWith(`${name}_`));
    if (!deb) throw new Error(`apt-get download ${name} gave no .deb`);
    execFileSync('dpkg', ['-x', join(DEBS, deb), target]);
  }
  for (const tool of ['pdftoppm', 'dot', 'fig2dev']) {
    try { execFileSync('which', [tool], { stdio: 'ignore' }); }
    catch { throw new Error(`${tool} is missing: apt-get install -y poppler-utils graphviz fig2dev`); }
  }
}

function listFiles(pkg: string): string[] {
  const root = join(PKGS, pkg);
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((d) => d.isFile())
    .map((d) => relative(root, join(d.parentPath ?? (d as unknown as { path: string }).path, d.name)))
    .sort();
}

function isBenchFile(pkg: string, path: string): boolean {
  const full = `${pkg}/${path}`;
  return BENCH_EXCLUDED.some((excluded) => (excluded.endsWith('/') ? full.startsWith(excluded) : full === excluded));
}

export function seedOf(...parts: (string | number)[]): number {
  return createHash('sha256').update(parts.join('\u0000')).digest().readUInt32LE(0);
}

function sample<T>(items: T[], limit: number, seed: number): T[] {
  const random = seededRandom(seed);
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, limit).sort();
}

// ---------------------------------------------------------------- loading

async function fromEncoded(input: Buffer | string): Promise<RgbaImage> {
  const { data, info } = await sharp(input, { limitInputPixels: 60_000_000 }).toColourspace('srgb').ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

async function raster(file: string): Promise<RgbaImage | null> {
  return fromEncoded(file);
}

/** What an SVG-based source draws for one file: an SVG file on disk and the size to render. */
interface SvgJob { input: string; size: number }

const rendered = new Map<string, string | null>();

function jobKey(job: SvgJob): string {
  return createHash('sha256').update(`${job.input}\u0000${job.size}`).digest('hex').slice(0, 24);
}

/** Renders the jobs in a child process (restarted past any SVG that crashes resvg). */
function renderBatch(jobs: SvgJob[]): void {
  const dir = join(WORK, 'render');
  mkdirSync(dir, { recursive: true });
  const todo = jobs.filter((j) => !rendered.has(jobKey(j))).map((j) => ({ ...j, output: join(dir, `${jobKey(j)}.png`) }));
  const pending = todo.filter((j) => !existsSync(j.output));
  const list = join(WORK, 'render-jobs.json');
  writeFileSync(list, JSON.stringify(pending));
  let start = 0;
  while (start < pending.length) {
    const child = spawnSync(process.execPath, ['--import', 'tsx', join(HERE, 'lib', 'render-svg.ts'), list, String(start)], { encoding: 'utf8', maxBuffer: 16 << 20, timeout: 600_000 });
    const lines = child.stdout.trim().split('\n');
    if (lines.at(-1) === 'done') break;
    const last = Number(/start (\d+)/.exec(lines.filter((l) => l.startsWith('start')).at(-1) ?? '')?.[1] ?? start);
    start = last + 1; // the job that crashed resvg stays without output
  }
  for (const j of todo) rendered.set(jobKey(j), existsSync(j.output) ? j.output : null);
}

async function loadRendered(job: SvgJob | null): Promise<RgbaImage | null> {
  if (!job) return null;
  const key = jobKey(job);
  if (!rendered.has(key)) renderBatch([job]);
  const png = rendered.get(key);
  return png ? fromEncoded(png) : null;
}

function svgFile(sizeMin: number, sizeMax: number) {
  return (file: string, random: () => number): SvgJob | null => {
    // Very large SVGs (maps, photo traces) take seconds each to render and are rarely clip art.
    if (readFileSync(file).length > 400_000) return null;
    return { input: file, size: Math.round(sizeMin + random() * (sizeMax - sizeMin)) };
  };
}

function dxfFile(file: string, random: () => number): SvgJob | null {
  const svg = dxfToSvg(readFileSync(file, 'latin1'), 1000, 1 + random() * 2.5);
  if (!svg) return null;
  const out = join(WORK, 'dxf', `${createHash('sha256').update(file).digest('hex').slice(0, 24)}.svg`);
  mkdirSync(join(WORK, 'dxf'), { recursive: true });
  writeFileSync(out, svg);
  return { input: out, size: Math.round(400 + random() * 1200) };
}

function graphvizFile(file: string, random: () => number): SvgJob | null {
  const out = join(WORK, 'dot', `${createHash('sha256').update(file).digest('hex').slice(0, 24)}.svg`);
  mkdirSync(join(WORK, 'dot'), { recursive: true });
  if (!existsSync(out)) {
    try {
      writeFileSync(out, execFileSync('dot', ['-Tsvg', file], { timeout: 20_000, maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] }));
    } catch {
      return null;
    }
  }
  return { input: out, size: Math.round(500 + random() * 1000) };
}

const pdfPages = new Map<string, string[]>();

/** A PDF source yields one "file" per page: `<pdf>#<page>`. */
function pdfPageList(pkg: string, pdfRelative: string, limit: number): string[] {
  const key = `${pkg}/${pdfRelative}`;
  if (!pdfPages.has(key)) {
    mkdirSync(WORK, { recursive: true });
    let pdf = join(PKGS, pkg, pdfRelative);
    if (pdf.endsWith('.gz')) {
      const out = join(WORK, basename(pdf, '.gz'));
      if (!existsSync(out)) writeFileSync(out, gunzipSync(readFileSync(pdf)));
      pdf = out;
    }
    const info = execFileSync('pdfinfo', [pdf]).toString();
    const pages = Number(/Pages:\s+(\d+)/.exec(info)?.[1] ?? 0);
    const all = Array.from({ length: pages }, (_, i) => `${pdf}#${i + 1}`);
    pdfPages.set(key, sample(all, limit, seedOf(key)));
  }
  return pdfPages.get(key)!;
}

async function pdfPage(spec: string, random: () => number): Promise<RgbaImage | null> {
  const [pdf, page] = spec.split('#');
  const dpi = Math.round(80 + random() * 70);
  const png = execFileSync('pdftoppm', ['-r', String(dpi), '-f', page, '-l', page, '-singlefile', '-png', pdf], { maxBuffer: 64 << 20 });
  return fromEncoded(png);
}

function xfigFile(file: string, random: () => number): SvgJob | null {
  const out = join(WORK, 'fig', `${createHash('sha256').update(file).digest('hex').slice(0, 24)}.svg`);
  mkdirSync(join(WORK, 'fig'), { recursive: true });
  if (!existsSync(out)) {
    try {
      writeFileSync(out, execFileSync('fig2dev', ['-L', 'svg', file], { timeout: 20_000, maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] }));
    } catch {
      return null;
    }
  }
  return { input: out, size: Math.round(400 + random() * 1200) };
}

// ---------------------------------------------------------------- augmentation

async function viaSharp(image: RgbaImage, build: (s: ReturnType<typeof sharp>) => ReturnType<typeof sharp>): Promise<RgbaImage> {
  const s = build(sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length), { raw: { width: image.width, height: image.height, channels: 4 } }));
  const { data, info } = await s.toColourspace('srgb').ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

function flattenOn(image: RgbaImage, bg: [number, number, number]): RgbaImage {
  const out = new Uint8Array(image.data.length);
  for (let i = 0; i < out.length; i += 4) {
    const a = image.data[i + 3] / 255;
    for (let c = 0; c < 3; c++) out[i + c] = Math.round(image.data[i + c] * a + bg[c] * (1 - a));
    out[i + 3] = 255;
  }
  return { ...image, data: out };
}

async function resizeLong(image: RgbaImage, longSide: number): Promise<RgbaImage> {
  const scale = longSide / Math.max(image.width, image.height);
  const width = Math.max(8, Math.round(image.width * scale)), height = Math.max(8, Math.round(image.height * scale));
  return viaSharp(image, (s) => s.resize(width, height, { fit: 'fill' }));
}

async function crop(image: RgbaImage, random: () => number, minSide: number): Promise<RgbaImage> {
  const fw = minSide + random() * (1 - minSide), fh = minSide + random() * (1 - minSide);
  const width = Math.max(16, Math.round(image.width * fw)), height = Math.max(16, Math.round(image.height * fh));
  const left = Math.floor(random() * (image.width - width + 1)), top = Math.floor(random() * (image.height - height + 1));
  return viaSharp(image, (s) => s.extract({ left, top, width, height }));
}

async function jpeg(image: RgbaImage, quality: number): Promise<RgbaImage> {
  const flat = flattenOn(image, [255, 255, 255]);
  const bytes = await sharp(Buffer.from(flat.data), { raw: { width: flat.width, height: flat.height, channels: 4 } }).jpeg({ quality }).toBuffer();
  return fromEncoded(bytes);
}

// In JS rather than sharp: sharp's greyscale output keeps one channel whatever colourspace is asked.
function grayscale(image: RgbaImage): RgbaImage {
  const out = new Uint8Array(image.data);
  for (let i = 0; i < out.length; i += 4) {
    const l = Math.round(0.299 * out[i] + 0.587 * out[i + 1] + 0.114 * out[i + 2]);
    out[i] = out[i + 1] = out[i + 2] = l;
  }
  return { ...image, data: out };
}

function addNoise(image: RgbaImage, random: () => number, sigma: number, gray: boolean): RgbaImage {
  const out = new Uint8Array(image.data);
  for (let i = 0; i < out.length; i += 4) {
    const shared = gaussian(random) * sigma;
    for (let c = 0; c < 3; c++) out[i + c] = Math.max(0, Math.min(255, Math.round(out[i + c] + (gray ? shared : gaussian(random) * sigma))));
  }
  return { ...image, data: out };
}

/** Paper tint, uneven light and the scanner's level curve, applied per pixel. */
function paperAndLight(image: RgbaImage, random: () => number): RgbaImage {
  const dim = random() < 0.25 ? 0.6 + random() * 0.3 : 1;
  const tint = [(245 - random() * 12) * dim, (242 - random() * 16) * dim, (232 - random() * 30) * dim];
  const black = random() * 40, angle = random() * 2 * Math.PI;
  const fall = random() < 0.5 ? random() * 0.45 : 0;
  const out = new Uint8Array(image.data.length);
  const { width, height } = image;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const t = ((x / width - 0.5) * Math.cos(angle) + (y / height - 0.5) * Math.sin(angle)) + 0.5;
      const light = 1 - fall * t;
      for (let c = 0; c < 3; c++) {
        const v = image.data[i + c] / 255;
        out[i + c] = Math.max(0, Math.min(255, Math.round((black + v * (tint[c] - black)) * light)));
      }
      out[i + 3] = 255;
    }
  }
  return { ...image, data: out };
}

async function scanLike(image: RgbaImage, random: () => number, strength: number): Promise<RgbaImage> {
  let img = flattenOn(image, [255, 255, 255]);
  const gray = random() < 0.5;
  if (gray) img = grayscale(img);
  const angle = (random() - 0.5) * 3 * strength;
  if (Math.abs(angle) > 0.1) img = await viaSharp(img, (s) => s.rotate(angle, { background: { r: 255, g: 255, b: 255, alpha: 1 } }));
  if (random() < 0.7) img = await viaSharp(img, (s) => s.blur(0.3 + random() * 0.9 * strength));
  img = paperAndLight(img, random);
  img = addNoise(img, random, 2 + random() * 8 * strength, gray);
  if (random() < 0.6) img = await jpeg(img, Math.round(55 + random() * 40));
  return img;
}

/** White lines on a blueprint blue: the page's lightness picks between blue and white. */
function whiteOnBlue(image: RgbaImage, random: () => number): RgbaImage {
  const blue = [20 + random() * 40, 50 + random() * 60, 120 + random() * 90];
  const flat = flattenOn(image, [255, 255, 255]);
  const out = new Uint8Array(flat.data.length);
  for (let i = 0; i < out.length; i += 4) {
    const ink = 1 - (0.299 * flat.data[i] + 0.587 * flat.data[i + 1] + 0.114 * flat.data[i + 2]) / 255;
    for (let c = 0; c < 3; c++) out[i + c] = Math.round(blue[c] + ink * (250 - blue[c]));
    out[i + 3] = 255;
  }
  return { ...flat, data: out };
}

async function clipartAugment(image: RgbaImage, random: () => number): Promise<RgbaImage> {
  let img = image;
  const r = random();
  if (r < 0.15) {
    const bg: [number, number, number] = [200 + random() * 55, 200 + random() * 55, 200 + random() * 55].map(Math.round) as [number, number, number];
    img = flattenOn(img, bg);
  }
  if (random() < 0.3) img = await jpeg(img, Math.round(60 + random() * 35));
  return img;
}

/** A wide strip from the upper part of a picture: mostly sky, with little in it (a kite, a roof line). */
async function upperStrip(image: RgbaImage, random: () => number): Promise<RgbaImage> {
  const width = Math.max(16, Math.round(image.width * (0.5 + random() * 0.5)));
  const height = Math.max(16, Math.round(image.height * (0.25 + random() * 0.3)));
  const left = Math.floor(random() * (image.width - width + 1));
  const top = Math.min(image.height - height, Math.floor(random() * image.height * 0.2));
  return viaSharp(image, (s) => s.extract({ left, top, width, height }));
}

/** A close-up: a small part of the picture filling the frame, so surfaces (bark, planks, stone) become the whole image. */
async function closeUp(image: RgbaImage, random: () => number): Promise<RgbaImage> {
  const side = 0.12 + random() * 0.2;
  const width = Math.max(16, Math.round(image.width * side * (0.7 + random() * 0.6)));
  const height = Math.max(16, Math.round(image.height * side * (0.7 + random() * 0.6)));
  const left = Math.floor(random() * (image.width - width + 1)), top = Math.floor(random() * (image.height - height + 1));
  return viaSharp(image, (s) => s.extract({ left, top, width, height }));
}

/** Pale, washed-out colours (haze, overexposure, a bleached surface): contrast pulled towards a light grey. */
function washOut(image: RgbaImage, random: () => number): RgbaImage {
  const keep = 0.3 + random() * 0.4, light = 170 + random() * 70, saturation = 0.3 + random() * 0.7;
  const out = new Uint8Array(image.data);
  for (let i = 0; i < out.length; i += 4) {
    const l = 0.299 * out[i] + 0.587 * out[i + 1] + 0.114 * out[i + 2];
    for (let c = 0; c < 3; c++) out[i + c] = Math.max(0, Math.min(255, Math.round(light + (l + (out[i + c] - l) * saturation - light) * keep)));
  }
  return { ...image, data: out };
}

async function photoAugment(image: RgbaImage, random: () => number, variant: number): Promise<RgbaImage> {
  const r = random();
  let img = variant === 0 ? image : r < 0.2 ? await upperStrip(image, random) : r < 0.32 ? await closeUp(image, random) : await crop(image, random, 0.4);
  img = await resizeLong(img, Math.round(200 + random() * 1400));
  if (random() < 0.12) img = washOut(img, random);
  if (random() < 0.1) img = grayscale(img);
  if (random() < 0.2) img = await viaSharp(img, (s) => s.blur(0.5 + random() * 2));
  if (random() < 0.2) img = addNoise(img, random, 1 + random() * 5, false);
  if (random() < 0.5) img = await jpeg(img, Math.round(45 + random() * 50));
  return img;
}

async function heldOutPhoto(image: RgbaImage, random: () => number, variant: number): Promise<RgbaImage> {
  return variant === 0 ? image : crop(image, random, 0.5);
}

async function scanAugment(image: RgbaImage, random: () => number): Promise<RgbaImage> {
  let img = image;
  const r = random();
  // Whole pages, parts of pages, and strips of a few lines (as a snippet of a scanned page).
  if (r < 0.3) img = await crop(img, random, 0.35);
  else if (r < 0.5) {
    const height = Math.max(40, Math.round(img.height * (0.1 + random() * 0.25)));
    const top = Math.floor(random() * (img.height - height));
    img = await viaSharp(img, (s) => s.extract({ left: 0, top, width: img.width, height }));
  } else if (r < 0.65) {
    // A close-up: a few lines of a paragraph filling the frame, so the letters are large (a
    // phone picture of a passage, a scanned snippet); the thumbnail then sees words, not rows of grey.
    img = await resizeLong(img, Math.round(img.width * (1.5 + random() * 1.5)));
    const width = Math.max(40, Math.round(img.width * (0.25 + random() * 0.35)));
    const height = Math.max(40, Math.min(img.height, Math.round(width * (0.35 + random() * 0.6))));
    const left = Math.floor(random() * (img.width - width + 1)), top = Math.floor(random() * (img.height - height + 1));
    img = await viaSharp(img, (s) => s.extract({ left, top, width, height }));
  }
  if (random() < 0.3) img = await resizeLong(img, Math.round(300 + random() * 500));
  // A page photographed rather than scanned (phone or camera over a book): small, soft, lit
  // from one side, low contrast. Ruled-out by the plain scanner branch's gentle light fall-off.
  if (random() < 0.2) return photographedPage(img, random);
  if (random() < 0.2) return scanBorder(binarise(await scanLike(img, random, 0.5 + random()), random), random);
  img = await scanLike(img, random, 0.5 + random());
  return random() < 0.25 ? scanBorder(img, random) : img;
}

/** Strong one-sided light and a vignette over a dim, low-contrast page, as a camera sees a book. */
async function photographedPage(image: RgbaImage, random: () => number): Promise<RgbaImage> {
  let img = flattenOn(image, [255, 255, 255]);
  const gray = random() < 0.6;
  if (gray) img = grayscale(img);
  img = await resizeLong(img, Math.round(250 + random() * 450));
  const angle = (random() - 0.5) * 5;
  if (Math.abs(angle) > 0.2) img = await viaSharp(img, (s) => s.rotate(angle, { background: { r: 255, g: 255, b: 255, alpha: 1 } }));
  img = await viaSharp(img, (s) => s.blur(0.4 + random() * 0.9));
  const paper = 170 + random() * 70, warm = random() * 25;
  const tint = [paper, paper - warm * 0.4, paper - warm];
  const black = 20 + random() * 60;
  const fall = 0.3 + random() * 0.45, angleLight = random() * 2 * Math.PI, vignette = random() * 0.4;
  const out = new Uint8Array(img.data.length);
  const { width, height } = img;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const u = x / width - 0.5, v = y / height - 0.5;
      const t = u * Math.cos(angleLight) + v * Math.sin(angleLight) + 0.5;
      const light = (1 - fall * t) * (1 - vignette * 2 * (u * u + v * v));
      for (let c = 0; c < 3; c++) out[i + c] = Math.max(0, Math.min(255, Math.round((black + (img.data[i + c] / 255) * (tint[c] - black)) * light)));
      out[i + 3] = 255;
    }
  }
  img = addNoise({ ...img, data: out }, random, 2 + random() * 5, gray);
  return random() < 0.7 ? jpeg(img, Math.round(60 + random() * 35)) : img;
}

/** A bilevel (fax or 1-bit) scan: everything becomes black or white. */
function binarise(image: RgbaImage, random: () => number): RgbaImage {
  const threshold = 110 + random() * 60;
  const out = new Uint8Array(image.data.length);
  for (let i = 0; i < out.length; i += 4) {
    const v = 0.299 * image.data[i] + 0.587 * image.data[i + 1] + 0.114 * image.data[i + 2] < threshold ? 0 : 255;
    out[i] = out[i + 1] = out[i + 2] = v;
    out[i + 3] = 255;
  }
  return { ...image, data: out };
}

/** The dark margin a flatbed scanner leaves where the page does not reach its edge. */
function scanBorder(image: RgbaImage, random: () => number): RgbaImage {
  const out = new Uint8Array(image.data);
  const { width, height } = image;
  const grey = random() * 60;
  const edges = [random() < 0.5, random() < 0.5, random() < 0.5, random() < 0.5];
  const depth = edges.map(() => Math.round((0.01 + random() * 0.06) * Math.min(width, height)));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if ((edges[0] && x < depth[0]) || (edges[1] && x >= width - depth[1]) || (edges[2] && y < depth[2]) || (edges[3] && y >= height - depth[3])) {
        const i = (y * width + x) * 4;
        out[i] = out[i + 1] = out[i + 2] = Math.round(grey + random() * 20);
      }
    }
  }
  return { ...image, data: out };
}

/**
 * Light or strong colours inside the closed shapes of a line drawing, as diagrams fill their
 * nodes (dot's `style=filled`, coloured blocks of a flowchart): white regions that do not reach
 * the border take a colour of a small palette. Regions smaller than a letter's counter stay white,
 * and so do those over 8 % of the picture: a node is filled, not the whole inside of a drawing.
 */
function colourFills(image: RgbaImage, random: () => number): RgbaImage {
  const { width, height } = image;
  const data = new Uint8Array(image.data);
  const pixels = width * height;
  const palette = Array.from({ length: 1 + Math.floor(random() * 4) }, () => {
    const hue = random() * 6, strong = random() < 0.35;
    const saturation = strong ? 0.6 + random() * 0.4 : 0.15 + random() * 0.5;
    const value = strong ? 0.75 + random() * 0.25 : 0.85 + random() * 0.15;
    const f = hue - Math.floor(hue), p = value * (1 - saturation), q = value * (1 - saturation * f), t = value * (1 - saturation * (1 - f));
    const rgb = [[value, t, p], [q, value, p], [p, value, t], [p, q, value], [t, p, value], [value, p, q]][Math.floor(hue) % 6];
    return rgb.map((v) => Math.round(v * 255));
  });
  const share = 0.4 + random() * 0.6;
  const isPaper = (i: number) => data[i * 4] > 215 && data[i * 4 + 1] > 215 && data[i * 4 + 2] > 215;
  const seen = new Uint8Array(pixels);
  const region = new Int32Array(pixels);
  for (let start = 0; start < pixels; start++) {
    if (seen[start] || !isPaper(start)) continue;
    let size = 0, touchesBorder = false;
    seen[start] = 1;
    region[size++] = start;
    for (let k = 0; k < size; k++) {
      const i = region[k], x = i % width, y = (i - x) / width;
      if (x === 0 || y === 0 || x === width - 1 || y === height - 1) touchesBorder = true;
      for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, y > 0 ? i - width : -1, y < height - 1 ? i + width : -1]) {
        if (j >= 0 && !seen[j] && isPaper(j)) { seen[j] = 1; region[size++] = j; }
      }
    }
    if (touchesBorder || size < pixels * 0.0015 || size > pixels * 0.08 || random() > share) continue;
    const colour = palette[Math.floor(random() * palette.length)];
    for (let k = 0; k < size; k++) {
      const o = region[k] * 4;
      // Keeps the anti-aliased edge: a pixel's darkness against white darkens the fill the same way.
      for (let c = 0; c < 3; c++) data[o + c] = Math.round((colour[c] * data[o + c]) / 255);
    }
    // Sometimes the outline takes the fill's colour too (dot's `color=red, style=filled`): the
    // two rings of line pixels around the region become a darker shade of it.
    if (random() < 0.4) {
      let ring = Array.from(region.subarray(0, size));
      for (let pass = 0; pass < 2; pass++) {
        const next: number[] = [];
        for (const i of ring) {
          const x = i % width;
          for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width]) {
            if (j < 0 || j >= pixels || seen[j] === 2 || isPaper(j)) continue;
            seen[j] = 2;
            next.push(j);
            for (let c = 0; c < 3; c++) data[j * 4 + c] = Math.round(colour[c] * 0.75);
          }
        }
        ring = next;
      }
    }
  }
  return { ...image, data };
}

async function blueprintAugment(image: RgbaImage, random: () => number): Promise<RgbaImage> {
  let img = flattenOn(image, [255, 255, 255]);
  if (random() < 0.3) img = colourFills(img, random);
  const r = random();
  if (r < 0.2) img = whiteOnBlue(img, random);
  else if (r < 0.65) img = await scanLike(img, random, 0.3 + random() * 0.9);
  else if (random() < 0.3) img = await jpeg(img, Math.round(60 + random() * 35));
  return img;
}

const asIs = async (image: RgbaImage) => image;

// ---------------------------------------------------------------- sources

const SKIMAGE = 'usr/lib/python3/dist-packages/skimage/data/';
const SKIMAGE_PHOTOS = ['camera.png', 'chelsea.png', 'coffee.png', 'rocket.jpg', 'motorcycle_left.png', 'motorcycle_right.png', 'hubble_deep_field.jpg', 'ihc.png', 'retina.jpg', 'brick.png', 'grass.png', 'gravel.png', 'moon.png', 'text.png', 'clock_motion.png', 'microaneurysms.png', 'cell.png'];
const OPENCV = 'usr/share/doc/opencv-doc/examples/data/';
const OPENCV_PHOTOS = ['aero1.jpg', 'aero3.jpg', 'apple.jpg', 'baboon.jpg', 'basketball1.png', 'board.jpg', 'building.jpg', 'butterfly.jpg', 'fruits.jpg', 'home.jpg', 'HappyFish.jpg', 'leuvenA.jpg', 'leuvenB.jpg', 'left01.jpg', 'left05.jpg', 'right02.jpg', 'messi5.jpg', 'orange.jpg', 'squirrel_cls.jpg', 'stuff.jpg', 'graf1.png', 'graf3.png', 'box_in_scene.png', 'rubberwhale1.png', 'smarties.png', 'ela_original.jpg', 'licenseplate_motion.jpg', 'pca_test1.jpg', 'chicky_512.png', 'lena.jpg'];
// Plasma's wallpapers mix photographs and flat illustrations: each goes to its own class.
const PLASMA_PHOTOS = ['BytheWater', 'ColdRipple', 'DarkestHour', 'EveningGlow', 'Grey', 'OneStandsOut', 'Path', 'Volna', 'summer_1am'];
const PLASMA_ILLUSTRATIONS = ['Altai', 'Canopee', 'Cascade', 'FlyingKonqui', 'IceCold', 'Kay', 'PastelHills', 'Patak', 'SafeLanding'];
const XFIG_TECHNICAL = /^usr\/share\/xfig\/Libraries\/(Examples|Flowchart|ProcessFlowsheet|ERD|UML|Logic|DSP|Mechanical_DIN|Structural_Analysis|Welding|Optics|Fasteners|Buildings|Electronic\/Schematic\/(Metric|Imperial))\//;
// Hugin's manual: photographs (panoramas, projections, lens defects); not its screenshots
// (Celeste, 100px-PC_*), flat-field or interpolation test patterns, checkerboards or icons.
const HUGIN_PHOTO = /^usr\/share\/hugin\/xrc\/data\/help_en_EN\/(?!100px-|120px-|Celeste|Interpolate|RatingStar|CA_artifical|.*-distortion|.*Orientation-plate)[^/]+\.(jpg|JPG)$/;
// Asymptote's manual: the line figures (graphs, axes, splines, flowchart, CAD, trees, contours),
// not its colour images, density plots, logos or filled shapes.
const ASYMPTOTE_FIGURES = ['Bode', 'CAD1', 'HermiteSpline', 'Hobbycontrol', 'Hobbydir', 'axis3', 'bezier2', 'beziercurve', 'binarytreetest', 'brokenaxis', 'cube', 'cylinderskeleton', 'datagraph', 'diatom', 'eetomumu', 'elliptic', 'errorbars', 'exp', 'filegraph', 'flow', 'flowchartdemo', 'generalaxis', 'generalaxis3', 'graphmarkers', 'graphwithderiv', 'grid3xyz', 'hatch', 'helix', 'irregularcontour', 'knots', 'labelsquare', 'leastsquares', 'legend', 'lineargraph', 'lineargraph0', 'linetype', 'log2graph', 'loggraph', 'loggrid', 'logticks', 'markers1', 'markers2', 'mexicanhat', 'monthaxis', 'multicontour', 'onecontour', 'parametricgraph', 'quartercircle', 'saddle', 'scaledgraph', 'secondaryaxis', 'slopefield1', 'triangulate', 'unitcircle3', 'vectorfield', 'westnile'];
const DOXYGEN_GRAPH = /^usr\/share\/doc\/[^/]+\/html\/[^/]+__(coll__graph|inherit__graph|incl|dep__incl)\.png$/;
// Training .dot examples that are copies or edits of graphviz-doc's graphs, never trained on:
// fsm, showpoints (= fig6) and cluster (≈ clust4) are held-out graphs that checkGraphsDisjoint
// flags; unix (= crazy.gv.gz), prof (= jsort.gv.gz) and sdh copy graphviz-doc's compressed
// graphs, which are not in the held-out set; subgraphs, rank and transp are looser relatives.
const GRAPHVIZ_DOC_COPIES = ['unix', 'prof', 'sdh', 'fsm', 'showpoints', 'cluster', 'subgraphs', 'rank', 'transp'];
const dotExample = (p: string) => /\.(dot|gv)$/.test(p) && !GRAPHVIZ_DOC_COPIES.includes(basename(p).replace(/\.(dot|gv)$/, ''));
const UKUI_FLAT = ['city.png', 'desert.png', 'focal-ubuntukylin.png', 'calla.png', 'goldfish.png', '2004default.jpg'];

/** The largest image of each Plasma wallpaper folder. */
function plasmaImage(folders: string[]) {
  const chosen = new Set<string>();
  const files = listFiles('plasma-workspace-wallpapers').filter((f) => /contents\/images\/\d+x\d+\.(jpg|png)$/.test(f));
  for (const folder of folders) {
    const own = files.filter((f) => f.startsWith(`usr/share/wallpapers/${folder}/`));
    const area = (f: string) => { const m = /(\d+)x(\d+)/.exec(basename(f))!; return Number(m[1]) * Number(m[2]); };
    own.sort((a, b) => area(b) - area(a) || a.localeCompare(b));
    if (own[0]) chosen.add(own[0]);
  }
  return (path: string) => chosen.has(path);
}

function pdfSource(id: string, pkg: Source['package'], pdf: string, pages: number, split: Split, variants: number): Source {
  return {
    id, package: pkg, class: 'scan', split, limit: pages, variants,
    match: (path) => path === pdf,
    load: (file, random) => pdfPage(file, random),
    augment: scanAugment,
  };
}

function sources(): Source[] {
  const breezeColour = /^usr\/share\/icons\/breeze\/(apps|places|mimetypes|devices)\/(48|64)\/[^/]+\.svg$/;
  return [
    // clip art
    { id: 'openclipart', package: 'openclipart-svg', class: 'clipart', split: 'train', limit: 420, variants: 1, match: (p) => p.endsWith('.svg'), svg: svgFile(160, 1100), augment: clipartAugment },
    { id: 'tango', package: 'tango-icon-theme', class: 'clipart', split: 'train', limit: 200, variants: 1, match: (p) => p.includes('/scalable/') && p.endsWith('.svg'), svg: svgFile(96, 700), augment: clipartAugment },
    { id: 'oxygen', package: 'oxygen-icon-theme', class: 'clipart', split: 'train', limit: 150, variants: 1, match: (p) => p.includes('/256x256/') && p.endsWith('.png'), load: raster, augment: clipartAugment },
    { id: 'papirus', package: 'papirus-icon-theme', class: 'clipart', split: 'train', limit: 200, variants: 1, match: (p) => /^usr\/share\/icons\/Papirus\/64x64\/(apps|places|mimetypes|devices)\/[^/]+\.svg$/.test(p), svg: svgFile(96, 512), augment: clipartAugment },
    { id: 'plasma-illustrations', package: 'plasma-workspace-wallpapers', class: 'clipart', split: 'train', limit: 20, variants: 6, match: plasmaImage(PLASMA_ILLUSTRATIONS), load: raster, augment: photoAugment },
    { id: 'breeze', package: 'breeze-icon-theme', class: 'clipart', split: 'heldout', limit: 150, variants: 1, match: (p) => breezeColour.test(p), svg: svgFile(256, 256), augment: asIs },
    { id: 'ukui-flat', package: 'ukui-wallpapers', class: 'clipart', split: 'heldout', limit: 10, variants: 3, match: (p) => UKUI_FLAT.some((f) => p === `usr/share/backgrounds/${f}`), load: raster, augment: heldOutPhoto },
    // photo
    { id: 'skimage', package: 'python3-skimage', class: 'photo', split: 'train', limit: 50, variants: 8, match: (p) => SKIMAGE_PHOTOS.some((f) => p === SKIMAGE + f), load: raster, augment: photoAugment },
    { id: 'opencv', package: 'opencv-doc', class: 'photo', split: 'train', limit: 50, variants: 6, match: (p) => OPENCV_PHOTOS.some((f) => p === OPENCV + f), load: raster, augment: photoAugment },
    { id: 'plasma-photos', package: 'plasma-workspace-wallpapers', class: 'photo', split: 'train', limit: 20, variants: 12, match: plasmaImage(PLASMA_PHOTOS), load: raster, augment: photoAugment },
    { id: 'lomiri-16.04', package: 'lomiri-wallpapers-16.04', class: 'photo', split: 'train', limit: 20, variants: 10, match: (p) => p.endsWith('.jpg') && !/(umang|analogpattern)_by_/.test(p), load: raster, augment: photoAugment },
    { id: 'hugin-photos', package: 'hugin-data', class: 'photo', split: 'train', limit: 60, variants: 3, match: (p) => HUGIN_PHOTO.test(p), load: raster, augment: photoAugment },
    { id: 'mate-nature', package: 'mate-backgrounds', class: 'photo', split: 'heldout', limit: 20, variants: 3, match: (p) => p.startsWith('usr/share/backgrounds/mate/nature/'), load: raster, augment: heldOutPhoto },
    { id: 'palapeli-photos', package: 'palapeli-data', class: 'photo', split: 'heldout', limit: 10, variants: 3, match: (p) => p.startsWith('usr/share/palapeli/collection/') && p.endsWith('.jpg'), load: raster, augment: heldOutPhoto },
    { id: 'lomiri', package: 'lomiri-wallpapers-20.04', class: 'photo', split: 'heldout', limit: 5, variants: 3, match: (p) => /(Fossa|Kleiber)_by_.*\.jpg$/.test(p), load: raster, augment: heldOutPhoto },
    // scan
    pdfSource('valgrind-manual', 'valgrind', 'usr/share/doc/valgrind/valgrind_manual.pdf.gz', 45, 'train', 3),
    pdfSource('nettle-manual', 'nettle-dev', 'usr/share/doc/nettle-dev/nettle.pdf.gz', 30, 'train', 3),
    pdfSource('gri-manual', 'gri-pdf-doc', 'usr/share/doc/gri/gri.pdf.gz', 45, 'train', 3),
    pdfSource('fontconfig-manual', 'fontconfig', 'usr/share/doc/fontconfig/fontconfig-user.pdf.gz', 15, 'train', 3),
    pdfSource('libtasn1-manual', 'libtasn1-doc', 'usr/share/doc/libtasn1-doc/libtasn1.pdf', 25, 'train', 3),
    pdfSource('zlib-crc-doc', 'zlib1g-dev', 'usr/share/doc/zlib1g-dev/crc-doc.1.0.pdf.gz', 15, 'train', 3),
    // A manual whose pages carry many figures and plots (the same package's figures alone are blueprints).
    pdfSource('asymptote-manual', 'asymptote-doc', 'usr/share/doc/asymptote/asymptote.pdf', 45, 'train', 3),
    pdfSource('ghostscript-colour', 'ghostscript-doc', 'usr/share/doc/ghostscript/GS9_Color_Management.pdf', 30, 'heldout', 1),
    pdfSource('camlidl-manual', 'camlidl-doc', 'usr/share/doc/camlidl/camlidl-1.04.doc.pdf', 30, 'heldout', 1),
    pdfSource('mime-spec', 'shared-mime-info', 'usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf', 30, 'heldout', 1),
    // blueprint
    { id: 'fritzing-schematics', package: 'fritzing-parts', class: 'blueprint', split: 'train', limit: 380, variants: 1, match: (p) => p.includes('/svg/core/schematic/') && p.endsWith('.svg'), svg: svgFile(400, 1600), augment: blueprintAugment },
    { id: 'librecad-library', package: 'librecad-data', class: 'blueprint', split: 'train', limit: 380, variants: 1, match: (p) => p.endsWith('.dxf'), svg: dxfFile, augment: blueprintAugment },
    // xfig's technical libraries: drawings, flowcharts, UML, mechanical and structural parts.
    { id: 'xfig-technical', package: 'xfig-libs', class: 'blueprint', split: 'train', limit: 320, variants: 1, match: (p) => p.endsWith('.fig') && XFIG_TECHNICAL.test(p), svg: xfigFile, augment: blueprintAugment },
    { id: 'asymptote-figures', package: 'asymptote-doc', class: 'blueprint', split: 'train', limit: 60, variants: 4, match: (p) => ASYMPTOTE_FIGURES.some((f) => p === `usr/share/doc/asymptote/html/${f}.png`), load: raster, augment: blueprintAugment },
    // Class, collaboration and include graphs that doxygen laid out with dot: boxes (one grey), arrows, labels.
    { id: 'cppunit-graphs', package: 'libcppunit-doc', class: 'blueprint', split: 'train', limit: 150, variants: 1, match: (p) => DOXYGEN_GRAPH.test(p), load: raster, augment: blueprintAugment },
    { id: 'qwt-graphs', package: 'libqwt-doc', class: 'blueprint', split: 'train', limit: 150, variants: 1, match: (p) => DOXYGEN_GRAPH.test(p), load: raster, augment: blueprintAugment },
    // Example graphs of three graphviz front ends, minus near-copies of graphviz-doc's (GRAPHVIZ_DOC_COPIES).
    { id: 'dot2tex-graphs', package: 'dot2tex', class: 'blueprint', split: 'train', limit: 60, variants: 8, match: dotExample, svg: graphvizFile, augment: blueprintAugment },
    { id: 'ruby-graphviz-graphs', package: 'ruby-graphviz', class: 'blueprint', split: 'train', limit: 60, variants: 8, match: dotExample, svg: graphvizFile, augment: blueprintAugment },
    { id: 'pygraphviz-graphs', package: 'python-pygraphviz-doc', class: 'blueprint', split: 'train', limit: 60, variants: 8, match: dotExample, svg: graphvizFile, augment: blueprintAugment },
    { id: 'graphviz-graphs', package: 'graphviz-doc', class: 'blueprint', split: 'heldout', limit: 80, variants: 1, match: (p) => p.endsWith('.gv'), svg: graphvizFile, augment: asIs },
  ];
}

/** The words of a graph (node names, labels, attributes) without comments: a copy restyled or re-laid-out keeps most of them. */
function graphWords(file: string): Set<string> {
  const bytes = readFileSync(file);
  const text = (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('latin1').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(\/\/|#)[^\n]*/g, '');
  return new Set(text.match(/[A-Za-z_][A-Za-z0-9_.]*/g) ?? []);
}

/**
 * Refuses a training graph that shares most of its words with a held-out graph (Jaccard ≥ 0.6):
 * a copy or an edit of it, which GRAPHVIZ_DOC_COPIES must leave out.
 */
function checkGraphsDisjoint(all: Source[]): void {
  const heldOut = all.filter((s) => s.split === 'heldout' && s.svg === graphvizFile)
    .flatMap((s) => listFiles(s.package).filter(s.match).map((p) => ({ name: p, words: graphWords(join(PKGS, s.package, p)) })));
  for (const source of all.filter((s) => s.split === 'train' && s.svg === graphvizFile)) {
    for (const p of listFiles(source.package).filter(source.match)) {
      const words = graphWords(join(PKGS, source.package, p));
      for (const other of heldOut) {
        let shared = 0;
        for (const w of words) if (other.words.has(w)) shared++;
        if (shared / (words.size + other.words.size - shared) >= 0.6) throw new Error(`training graph ${source.package}/${p} is a copy of held-out ${other.name}`);
      }
    }
  }
}

// ---------------------------------------------------------------- main

export async function buildDataset(log: (line: string) => void = console.log, only?: Set<string>): Promise<{ rows: DatasetRow[]; thumbnails: Buffer }> {
  const thumbs: Uint8Array[] = [];
  let thumbBytes = 0;
  ensurePackages();
  sharp.concurrency(1);
  sharp.cache(false);
  const rows: DatasetRow[] = [];
  const trainPackages = new Set(sources().filter((s) => s.split === 'train').map((s) => s.package));
  checkGraphsDisjoint(sources());
  for (const source of sources()) {
    if (source.split === 'heldout' && trainPackages.has(source.package)) throw new Error(`held-out source ${source.id} shares package ${source.package} with training`);
    if (only && !only.has(source.id)) continue;
    const started = Date.now();
    const root = join(PKGS, source.package);
    let candidates = listFiles(source.package).filter((p) => source.match(p) && !isBenchFile(source.package, p));
    // A PDF source expands into its pages.
    if (source.class === 'scan') candidates = candidates.flatMap((p) => pdfPageList(source.package, p, source.limit));
    const files = sample(candidates, source.limit, seedOf(source.id));
    let made = 0, skipped = 0;
    const name0 = (file: string) => file.includes('#') ? `${relative(root, file.split('#')[0]).replace(/^(\.\.\/)+/, '')}#${file.split('#')[1]}` : file;
    if (source.svg) {
      // Replays each file's loading random stream exactly as the loop below will.
      const jobs = files.map((file) => source.svg!(join(root, file), seededRandom(seedOf(source.id, name0(file), 'load')))).filter((j): j is SvgJob => j !== null);
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
      if (!base || base.width < 8 || base.height < 8) { skipped++; continue; }
      for (let variant = 0; variant < source.variants; variant++) {
        const random = seededRandom(seedOf(source.id, name, variant));
        try {
          const image = await source.augment(base, random, variant);
          const thumb = makeThumbnail(image);
          rows.push({ split: source.split, class: source.class, source: source.id, package: source.package, file: name, variant, width: thumb.width, height: thumb.height, offset: thumbBytes });
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
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const counts = `${String(files.length).padStart(4)} files -> ${String(made).padStart(4)} samples (${skipped} skipped)`;
    log(`${source.split.padEnd(7)} ${source.class.padEnd(9)} ${source.id.padEnd(22)} ${counts} ${seconds} s`);
  }
  return { rows, thumbnails: Buffer.concat(thumbs) };
}

export function writeDataset(dataset: { rows: DatasetRow[]; thumbnails: Buffer }): void {
  writeFileSync(THUMBS_PATH, dataset.thumbnails);
  writeFileSync(DATASET_PATH, JSON.stringify({ packages: PACKAGES, excluded: BENCH_EXCLUDED, rows: dataset.rows }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // --only=ID,ID rebuilds just those sources and merges them into the cached dataset: every
  // sample is seeded by its own source, file and variant, so the result equals a full build.
  const onlyArg = process.argv.find((a) => a.startsWith('--only='));
  const only = onlyArg ? new Set(onlyArg.slice(7).split(',')) : undefined;
  let dataset = await buildDataset(console.log, only);
  if (only) {
    const cached = JSON.parse(readFileSync(DATASET_PATH, 'utf8')) as { rows: DatasetRow[] };
    const thumbnails = readFileSync(THUMBS_PATH);
    const kept = cached.rows.filter((r) => !only.has(r.source));
    const parts: Buffer[] = [];
    let offset = 0;
    const rows: DatasetRow[] = [];
    const order = sources().map((s) => s.id);
    const merged = [...kept.map((r) => ({ r, bytes: thumbnails.subarray(r.offset, r.offset + r.width * r.height * 3) })), ...dataset.rows.map((r) => ({ r, bytes: dataset.thumbnails.subarray(r.offset, r.offset + r.width * r.height * 3) }))];
    // Sources in declaration order, rows within a source in build order: as a full build writes them.
    merged.sort((a, b) => order.indexOf(a.r.source) - order.indexOf(b.r.source));
    for (const { r, bytes } of merged) { rows.push({ ...r, offset }); parts.push(bytes); offset += bytes.length; }
    dataset = { rows, thumbnails: Buffer.concat(parts) };
  }
  writeDataset(dataset);
  console.log(`wrote ${dataset.rows.length} rows to ${relative(process.cwd(), DATASET_PATH)}`);
}
