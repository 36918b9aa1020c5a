/**
 * Where the dataset's inputs live and how they are fetched: Debian (bookworm) packages, downloaded
 * with `apt-get download` and unpacked with `dpkg -x` into models/.cache/pkgs/<name> (nothing is
 * installed), and the seeded helpers every source uses to pick its files.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '../lib/mlp.js';

export const MODELS_DIR = fileURLToPath(new URL('..', import.meta.url));
export const CACHE = join(MODELS_DIR, '.cache');
const DEBS = join(CACHE, 'debs');
export const PKGS = join(CACHE, 'pkgs');
export const WORK = join(CACHE, 'work');
export const DATASET_PATH = join(CACHE, 'dataset.json');
/** The thumbnails (engine/classify/features.ts makeThumbnail) of every row, RGB bytes back to back. */
export const THUMBS_PATH = join(CACHE, 'thumbnails.bin');

/** Debian (bookworm) packages the dataset is built from. */
export const PACKAGES = [
  // clip art
  'openclipart-svg',
  'tango-icon-theme',
  'oxygen-icon-theme',
  'breeze-icon-theme',
  'ukui-wallpapers',
  // photo (plasma-workspace-wallpapers also gives flat illustrations to clip art)
  'python3-skimage',
  'opencv-doc',
  'plasma-workspace-wallpapers',
  'lomiri-wallpapers-16.04',
  'mate-backgrounds',
  'lomiri-wallpapers-20.04',
  // scan: manuals rendered as pages
  'valgrind',
  'nettle-dev',
  'gri-pdf-doc',
  'fontconfig',
  'libtasn1-doc',
  'zlib1g-dev',
  'ghostscript-doc',
  'camlidl-doc',
  'shared-mime-info',
  // blueprint
  'fritzing-parts',
  'librecad-data',
  'xfig-libs',
  'graphviz-doc',
  // added in the second round: more photographs, and figures of a plotting language's manual
  'hugin-data',
  'asymptote-doc',
  // added in the third round: class and include graphs that doxygen drew with dot (training), photos of a jigsaw game (held-out)
  'libcppunit-doc',
  'libqwt-doc',
  'palapeli-data',
  // and flat icons (one colour per shape, no outlines), which the coloured diagram fills made look like drawings
  'papirus-icon-theme',
  // graphs that other packages ship as .dot examples, laid out by dot as graphviz-doc's are
  'dot2tex',
  'ruby-graphviz',
  'python-pygraphviz-doc',
  // added in the fourth round: flat vector wallpapers with soft gradients (training: LXQt, which also
  // gives photographs, and Xfce; held-out: Debian's desktop themes), and two more manuals whose
  // pages are held-out book scans and camera pictures
  'lxqt-themes',
  'xfdesktop4-data',
  'desktop-base',
  'libmpfr-doc',
  'gnuplot-doc',
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

export function ensurePackages(): void {
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
    try {
      execFileSync('which', [tool], { stdio: 'ignore' });
    } catch {
      throw new Error(`${tool} is missing: apt-get install -y poppler-utils graphviz fig2dev`);
    }
  }
}

export function listFiles(pkg: string): string[] {
  const root = join(PKGS, pkg);
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((d) => d.isFile())
    .map((d) => relative(root, join(d.parentPath ?? (d as unknown as { path: string }).path, d.name)))
    .sort();
}

export function isBenchFile(pkg: string, path: string): boolean {
  const full = `${pkg}/${path}`;
  return BENCH_EXCLUDED.some((excluded) => (excluded.endsWith('/') ? full.startsWith(excluded) : full === excluded));
}

export function seedOf(...parts: (string | number)[]): number {
  return createHash('sha256').update(parts.join('\u0000')).digest().readUInt32LE(0);
}

export function sample<T>(items: T[], limit: number, seed: number): T[] {
  const random = seededRandom(seed);
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, limit).sort();
}
