/**
 * The data lists: which files of which package go to which class and split, how each is loaded
 * and augmented. Held-out sources come from packages no training source uses (the builder checks).
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { ImageClass, RgbaImage } from '../../engine/types.js';
import { blueprintAugment, calmPhotoAugment, clipartAugment, photoAugment } from './augment.js';
import { bookScanAugment, cameraPageAugment, scanAugment } from './augment-scan.js';
import { gradientArtFile } from './gradient-art.js';
import { HELD_OUT_ONLY, asIs, heldOutBookScan, heldOutCameraPage, heldOutPhoto } from './heldout.js';
import { dxfFile, graphvizFile, pdfPage, raster, svgFile, xfigFile, type SvgJob } from './load.js';
import { PACKAGES, PKGS, listFiles } from './packages.js';

export type Split = 'train' | 'heldout';

/** Sources drawn by a generator rather than taken from a package. */
export const SYNTHETIC = 'synthetic';

export interface Source {
  id: string;
  package: (typeof PACKAGES)[number] | typeof SYNTHETIC;
  /** A synthetic source names its items instead of matching a package's files. */
  items?: () => string[];
  /** A PDF source's pages are sampled with this seed instead of the PDF's path, so that two sources of one PDF take different pages. */
  pageSeed?: string;
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

const SKIMAGE = 'usr/lib/python3/dist-packages/skimage/data/';
const SKIMAGE_PHOTOS = [
  'camera.png',
  'chelsea.png',
  'coffee.png',
  'rocket.jpg',
  'motorcycle_left.png',
  'motorcycle_right.png',
  'hubble_deep_field.jpg',
  'ihc.png',
  'retina.jpg',
  'brick.png',
  'grass.png',
  'gravel.png',
  'moon.png',
  'text.png',
  'clock_motion.png',
  'microaneurysms.png',
  'cell.png',
];
const OPENCV = 'usr/share/doc/opencv-doc/examples/data/';
const OPENCV_PHOTOS = [
  'aero1.jpg',
  'aero3.jpg',
  'apple.jpg',
  'baboon.jpg',
  'basketball1.png',
  'board.jpg',
  'building.jpg',
  'butterfly.jpg',
  'fruits.jpg',
  'home.jpg',
  'HappyFish.jpg',
  'leuvenA.jpg',
  'leuvenB.jpg',
  'left01.jpg',
  'left05.jpg',
  'right02.jpg',
  'messi5.jpg',
  'orange.jpg',
  'squirrel_cls.jpg',
  'stuff.jpg',
  'graf1.png',
  'graf3.png',
  'box_in_scene.png',
  'rubberwhale1.png',
  'smarties.png',
  'ela_original.jpg',
  'licenseplate_motion.jpg',
  'pca_test1.jpg',
  'chicky_512.png',
  'lena.jpg',
];
// Plasma's wallpapers mix photographs and flat illustrations: each goes to its own class.
const PLASMA_PHOTOS = ['BytheWater', 'ColdRipple', 'DarkestHour', 'EveningGlow', 'Grey', 'OneStandsOut', 'Path', 'Volna', 'summer_1am'];
const PLASMA_ILLUSTRATIONS = ['Altai', 'Canopee', 'Cascade', 'FlyingKonqui', 'IceCold', 'Kay', 'PastelHills', 'Patak', 'SafeLanding'];
const XFIG_TECHNICAL =
  /^usr\/share\/xfig\/Libraries\/(Examples|Flowchart|ProcessFlowsheet|ERD|UML|Logic|DSP|Mechanical_DIN|Structural_Analysis|Welding|Optics|Fasteners|Buildings|Electronic\/Schematic\/(Metric|Imperial))\//;
// Hugin's manual: photographs (panoramas, projections, lens defects); not its screenshots
// (Celeste, 100px-PC_*), flat-field or interpolation test patterns, checkerboards or icons.
const HUGIN_PHOTO =
  /^usr\/share\/hugin\/xrc\/data\/help_en_EN\/(?!100px-|120px-|Celeste|Interpolate|RatingStar|CA_artifical|.*-distortion|.*Orientation-plate)[^/]+\.(jpg|JPG)$/;
// Asymptote's manual: the line figures (graphs, axes, splines, flowchart, CAD, trees, contours),
// not its colour images, density plots, logos or filled shapes.
const ASYMPTOTE_FIGURES = [
  'Bode',
  'CAD1',
  'HermiteSpline',
  'Hobbycontrol',
  'Hobbydir',
  'axis3',
  'bezier2',
  'beziercurve',
  'binarytreetest',
  'brokenaxis',
  'cube',
  'cylinderskeleton',
  'datagraph',
  'diatom',
  'eetomumu',
  'elliptic',
  'errorbars',
  'exp',
  'filegraph',
  'flow',
  'flowchartdemo',
  'generalaxis',
  'generalaxis3',
  'graphmarkers',
  'graphwithderiv',
  'grid3xyz',
  'hatch',
  'helix',
  'irregularcontour',
  'knots',
  'labelsquare',
  'leastsquares',
  'legend',
  'lineargraph',
  'lineargraph0',
  'linetype',
  'log2graph',
  'loggraph',
  'loggrid',
  'logticks',
  'markers1',
  'markers2',
  'mexicanhat',
  'monthaxis',
  'multicontour',
  'onecontour',
  'parametricgraph',
  'quartercircle',
  'saddle',
  'scaledgraph',
  'secondaryaxis',
  'slopefield1',
  'triangulate',
  'unitcircle3',
  'vectorfield',
  'westnile',
];
const DOXYGEN_GRAPH = /^usr\/share\/doc\/[^/]+\/html\/[^/]+__(coll__graph|inherit__graph|incl|dep__incl)\.png$/;
// Training .dot examples that are copies or edits of graphviz-doc's graphs, never trained on:
// fsm, showpoints (= fig6) and cluster (≈ clust4) are held-out graphs that checkGraphsDisjoint
// flags; unix (= crazy.gv.gz), prof (= jsort.gv.gz) and sdh copy graphviz-doc's compressed
// graphs, which are not in the held-out set; subgraphs, rank and transp are looser relatives.
const GRAPHVIZ_DOC_COPIES = ['unix', 'prof', 'sdh', 'fsm', 'showpoints', 'cluster', 'subgraphs', 'rank', 'transp'];
const dotExample = (p: string) => /\.(dot|gv)$/.test(p) && !GRAPHVIZ_DOC_COPIES.includes(basename(p).replace(/\.(dot|gv)$/, ''));
// LXQt's wallpapers: photographs, and flat vector art with wide soft gradients (origami, triangles,
// waves; plasma_arch, a cloudy texture that is neither, is left out).
const LXQT = 'usr/share/lxqt/wallpapers/';
const LXQT_PHOTOS = [
  'Butterfly-Kenneth-Wimer.jpg',
  'Valendas.png',
  'after-the-rain.jpg',
  'appleflower.png',
  'beam.png',
  'butterfly.png',
  'cloud.png',
  'drop.png',
  'flowers.png',
  'fog.jpg',
  'this-is-not-windows.jpg',
];
const LXQT_ART = [
  'kde-plasma.png',
  'lxqt-origami-green.png',
  'origami-bright-logo.png',
  'origami-dark.png',
  'origami-light.png',
  'plasma-logo-bright.png',
  'plasma-logo-dark.png',
  'simple_blue_widescreen.png',
  'triangles-logo.png',
  'triangles.png',
  'waves-logo.png',
  'waves-purple-logo.jpg',
];
// Xfce's default backdrops (not xfce-stripes, a noise-like maze pattern).
const XFCE = 'usr/share/backgrounds/xfce/';
const XFCE_ART = ['xfce-blue.jpg', 'xfce-teal.jpg', 'xfce-verticals.png', 'xfce-flower.svg', 'xfce-leaves.svg', 'xfce-shapes.svg'];
const UKUI_FLAT = ['city.png', 'desert.png', 'focal-ubuntukylin.png', 'calla.png', 'goldfish.png', '2004default.jpg'];

/** The largest image of each Plasma wallpaper folder. */
function plasmaImage(folders: string[]) {
  const chosen = new Set<string>();
  const files = listFiles('plasma-workspace-wallpapers').filter((f) => /contents\/images\/\d+x\d+\.(jpg|png)$/.test(f));
  for (const folder of folders) {
    const own = files.filter((f) => f.startsWith(`usr/share/wallpapers/${folder}/`));
    const area = (f: string) => {
      const m = /(\d+)x(\d+)/.exec(basename(f))!;
      return Number(m[1]) * Number(m[2]);
    };
    own.sort((a, b) => area(b) - area(a) || a.localeCompare(b));
    if (own[0]) chosen.add(own[0]);
  }
  return (path: string) => chosen.has(path);
}

function pdfSource(
  id: string,
  pkg: Source['package'],
  pdf: string,
  pages: number,
  split: Split,
  variants: number,
  augment: Source['augment'] = scanAugment,
  pageSeed?: string,
): Source {
  return {
    id,
    package: pkg,
    class: 'scan',
    split,
    limit: pages,
    variants,
    pageSeed,
    match: (path) => path === pdf,
    load: (file, random) => pdfPage(file, random),
    augment,
  };
}

/** A package's class, collaboration and include graphs that doxygen laid out with dot. */
function doxygenGraphs(id: string, pkg: Source['package']): Source {
  return {
    id,
    package: pkg,
    class: 'blueprint',
    split: 'train',
    limit: 150,
    variants: 1,
    match: (p) => DOXYGEN_GRAPH.test(p),
    load: raster,
    augment: blueprintAugment,
  };
}

/** A graphviz front end's example graphs, laid out again per variant (graphvizFile). */
function graphvizExamples(id: string, pkg: Source['package']): Source {
  return {
    id,
    package: pkg,
    class: 'blueprint',
    split: 'train',
    limit: 60,
    variants: 8,
    match: dotExample,
    svg: graphvizFile,
    augment: blueprintAugment,
  };
}

/**
 * Training photo sources that also give their calmest parts (sky, water, mist, defocused
 * backgrounds; `calmPhotoAugment`), with this many samples per file: such photos read as
 * soft-gradient clip art once the generated wallpapers taught that class smooth gradients.
 */
const CALM_PHOTO_VARIANTS: Readonly<Record<string, number>> = Object.freeze({
  opencv: 2,
  'plasma-photos': 4,
  'lomiri-16.04': 4,
  'hugin-photos': 2,
  'lxqt-photos': 4,
});

/** Each source, followed by its calm-photo twin where CALM_PHOTO_VARIANTS names one (same files, own seeds). */
function withCalmPhotos(list: Source[]): Source[] {
  return list.flatMap((source) => {
    const variants = CALM_PHOTO_VARIANTS[source.id];
    return variants ? [source, { ...source, id: `${source.id}-calm`, variants, augment: calmPhotoAugment }] : [source];
  });
}

export function sources(): Source[] {
  const breezeColour = /^usr\/share\/icons\/breeze\/(apps|places|mimetypes|devices)\/(48|64)\/[^/]+\.svg$/;
  return withCalmPhotos([
    // clip art
    {
      id: 'openclipart',
      package: 'openclipart-svg',
      class: 'clipart',
      split: 'train',
      limit: 420,
      variants: 1,
      match: (p) => p.endsWith('.svg'),
      svg: svgFile(160, 1100),
      augment: clipartAugment,
    },
    {
      id: 'tango',
      package: 'tango-icon-theme',
      class: 'clipart',
      split: 'train',
      limit: 200,
      variants: 1,
      match: (p) => p.includes('/scalable/') && p.endsWith('.svg'),
      svg: svgFile(96, 700),
      augment: clipartAugment,
    },
    {
      id: 'oxygen',
      package: 'oxygen-icon-theme',
      class: 'clipart',
      split: 'train',
      limit: 150,
      variants: 1,
      match: (p) => p.includes('/256x256/') && p.endsWith('.png'),
      load: raster,
      augment: clipartAugment,
    },
    {
      id: 'papirus',
      package: 'papirus-icon-theme',
      class: 'clipart',
      split: 'train',
      limit: 200,
      variants: 1,
      match: (p) => /^usr\/share\/icons\/Papirus\/64x64\/(apps|places|mimetypes|devices)\/[^/]+\.svg$/.test(p),
      svg: svgFile(96, 512),
      augment: clipartAugment,
    },
    {
      id: 'plasma-illustrations',
      package: 'plasma-workspace-wallpapers',
      class: 'clipart',
      split: 'train',
      limit: 20,
      variants: 6,
      match: plasmaImage(PLASMA_ILLUSTRATIONS),
      load: raster,
      augment: photoAugment,
    },
    // Flat vector wallpapers with soft gradients, real and generated: the kind read as photos.
    {
      id: 'lxqt-art',
      package: 'lxqt-themes',
      class: 'clipart',
      split: 'train',
      limit: 20,
      variants: 6,
      match: (p) => LXQT_ART.some((f) => p === LXQT + f),
      load: raster,
      augment: photoAugment,
    },
    {
      id: 'xfce-art',
      package: 'xfdesktop4-data',
      class: 'clipart',
      split: 'train',
      limit: 10,
      variants: 8,
      match: (p) => XFCE_ART.some((f) => p === XFCE + f) && !p.endsWith('.svg'),
      load: raster,
      augment: photoAugment,
    },
    {
      id: 'xfce-art-svg',
      package: 'xfdesktop4-data',
      class: 'clipart',
      split: 'train',
      limit: 10,
      variants: 8,
      match: (p) => XFCE_ART.some((f) => p === XFCE + f) && p.endsWith('.svg'),
      svg: svgFile(900, 1600),
      augment: photoAugment,
    },
    {
      id: 'gradient-art',
      package: SYNTHETIC,
      class: 'clipart',
      split: 'train',
      limit: 180,
      variants: 1,
      items: () => Array.from({ length: 180 }, (_, i) => `gradient-art-${i}`),
      match: () => true,
      svg: gradientArtFile,
      augment: photoAugment,
    },
    {
      id: 'breeze',
      package: 'breeze-icon-theme',
      class: 'clipart',
      split: 'heldout',
      limit: 150,
      variants: 1,
      match: (p) => breezeColour.test(p),
      svg: svgFile(256, 256),
      augment: asIs,
    },
    // Debian's desktop themes (emerald, homeworld, softwaves, …): vector wallpapers, drawn at 1920 px, whole + 2 crops.
    {
      id: 'debian-themes',
      package: 'desktop-base',
      class: 'clipart',
      split: 'heldout',
      limit: 12,
      variants: 3,
      match: (p) => /^usr\/share\/desktop-base\/[^/]+-theme\/wallpaper\/contents\/images\/1920x1080\.svg$/.test(p),
      svg: svgFile(1920, 1920),
      augment: heldOutPhoto,
    },
    {
      id: 'ukui-flat',
      package: 'ukui-wallpapers',
      class: 'clipart',
      split: 'heldout',
      limit: 10,
      variants: 3,
      match: (p) => UKUI_FLAT.some((f) => p === `usr/share/backgrounds/${f}`),
      load: raster,
      augment: heldOutPhoto,
    },
    // photo
    {
      id: 'skimage',
      package: 'python3-skimage',
      class: 'photo',
      split: 'train',
      limit: 50,
      variants: 8,
      match: (p) => SKIMAGE_PHOTOS.some((f) => p === SKIMAGE + f),
      load: raster,
      augment: photoAugment,
    },
    {
      id: 'opencv',
      package: 'opencv-doc',
      class: 'photo',
      split: 'train',
      limit: 50,
      variants: 6,
      match: (p) => OPENCV_PHOTOS.some((f) => p === OPENCV + f),
      load: raster,
      augment: photoAugment,
    },
    {
      id: 'plasma-photos',
      package: 'plasma-workspace-wallpapers',
      class: 'photo',
      split: 'train',
      limit: 20,
      variants: 12,
      match: plasmaImage(PLASMA_PHOTOS),
      load: raster,
      augment: photoAugment,
    },
    {
      id: 'lomiri-16.04',
      package: 'lomiri-wallpapers-16.04',
      class: 'photo',
      split: 'train',
      limit: 20,
      variants: 10,
      match: (p) => p.endsWith('.jpg') && !/(umang|analogpattern)_by_/.test(p),
      load: raster,
      augment: photoAugment,
    },
    {
      id: 'hugin-photos',
      package: 'hugin-data',
      class: 'photo',
      split: 'train',
      limit: 60,
      variants: 3,
      match: (p) => HUGIN_PHOTO.test(p),
      load: raster,
      augment: photoAugment,
    },
    {
      id: 'lxqt-photos',
      package: 'lxqt-themes',
      class: 'photo',
      split: 'train',
      limit: 20,
      variants: 6,
      match: (p) => LXQT_PHOTOS.some((f) => p === LXQT + f),
      load: raster,
      augment: photoAugment,
    },
    {
      id: 'mate-nature',
      package: 'mate-backgrounds',
      class: 'photo',
      split: 'heldout',
      limit: 20,
      variants: 3,
      match: (p) => p.startsWith('usr/share/backgrounds/mate/nature/'),
      load: raster,
      augment: heldOutPhoto,
    },
    {
      id: 'palapeli-photos',
      package: 'palapeli-data',
      class: 'photo',
      split: 'heldout',
      limit: 10,
      variants: 3,
      match: (p) => p.startsWith('usr/share/palapeli/collection/') && p.endsWith('.jpg'),
      load: raster,
      augment: heldOutPhoto,
    },
    {
      id: 'lomiri',
      package: 'lomiri-wallpapers-20.04',
      class: 'photo',
      split: 'heldout',
      limit: 5,
      variants: 3,
      match: (p) => /(Fossa|Kleiber)_by_.*\.jpg$/.test(p),
      load: raster,
      augment: heldOutPhoto,
    },
    // scan
    pdfSource('valgrind-manual', 'valgrind', 'usr/share/doc/valgrind/valgrind_manual.pdf.gz', 45, 'train', 3),
    pdfSource('nettle-manual', 'nettle-dev', 'usr/share/doc/nettle-dev/nettle.pdf.gz', 30, 'train', 3),
    pdfSource('gri-manual', 'gri-pdf-doc', 'usr/share/doc/gri/gri.pdf.gz', 45, 'train', 3),
    pdfSource('fontconfig-manual', 'fontconfig', 'usr/share/doc/fontconfig/fontconfig-user.pdf.gz', 15, 'train', 3),
    pdfSource('libtasn1-manual', 'libtasn1-doc', 'usr/share/doc/libtasn1-doc/libtasn1.pdf', 25, 'train', 3),
    pdfSource('zlib-crc-doc', 'zlib1g-dev', 'usr/share/doc/zlib1g-dev/crc-doc.1.0.pdf.gz', 15, 'train', 3),
    // A manual whose pages carry many figures and plots (the same package's figures alone are blueprints).
    pdfSource('asymptote-manual', 'asymptote-doc', 'usr/share/doc/asymptote/asymptote.pdf', 45, 'train', 3),
    // Book pages on a flatbed and pages photographed with a camera, from other pages of the same manuals.
    pdfSource(
      'valgrind-book',
      'valgrind',
      'usr/share/doc/valgrind/valgrind_manual.pdf.gz',
      20,
      'train',
      2,
      bookScanAugment,
      'valgrind-book',
    ),
    pdfSource('nettle-camera', 'nettle-dev', 'usr/share/doc/nettle-dev/nettle.pdf.gz', 15, 'train', 2, cameraPageAugment, 'nettle-camera'),
    pdfSource('gri-camera', 'gri-pdf-doc', 'usr/share/doc/gri/gri.pdf.gz', 20, 'train', 2, cameraPageAugment, 'gri-camera'),
    pdfSource('gri-book', 'gri-pdf-doc', 'usr/share/doc/gri/gri.pdf.gz', 20, 'train', 2, bookScanAugment, 'gri-book'),
    pdfSource('libtasn1-book', 'libtasn1-doc', 'usr/share/doc/libtasn1-doc/libtasn1.pdf', 15, 'train', 2, bookScanAugment, 'libtasn1-book'),
    pdfSource(
      'fontconfig-camera',
      'fontconfig',
      'usr/share/doc/fontconfig/fontconfig-user.pdf.gz',
      12,
      'train',
      2,
      cameraPageAugment,
      'fontconfig-camera',
    ),
    pdfSource(
      'asymptote-book',
      'asymptote-doc',
      'usr/share/doc/asymptote/asymptote.pdf',
      15,
      'train',
      2,
      bookScanAugment,
      'asymptote-book',
    ),
    pdfSource(
      'asymptote-camera',
      'asymptote-doc',
      'usr/share/doc/asymptote/asymptote.pdf',
      15,
      'train',
      2,
      cameraPageAugment,
      'asymptote-camera',
    ),
    pdfSource('ghostscript-colour', 'ghostscript-doc', 'usr/share/doc/ghostscript/GS9_Color_Management.pdf', 30, 'heldout', 1),
    pdfSource('camlidl-manual', 'camlidl-doc', 'usr/share/doc/camlidl/camlidl-1.04.doc.pdf', 30, 'heldout', 1),
    pdfSource('mime-spec', 'shared-mime-info', 'usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf', 30, 'heldout', 1),
    // Pages of two more manuals through the held-out degradations (heldout.ts), which no training source uses.
    pdfSource('mpfr-camera', 'libmpfr-doc', 'usr/share/doc/libmpfr-doc/mpfr.pdf.gz', 20, 'heldout', 1, heldOutCameraPage, 'mpfr-camera'),
    pdfSource('mpfr-book', 'libmpfr-doc', 'usr/share/doc/libmpfr-doc/mpfr.pdf.gz', 20, 'heldout', 1, heldOutBookScan, 'mpfr-book'),
    pdfSource('gnuplot-camera', 'gnuplot-doc', 'usr/share/doc/gnuplot/gnuplot.pdf', 20, 'heldout', 1, heldOutCameraPage, 'gnuplot-camera'),
    pdfSource('gnuplot-book', 'gnuplot-doc', 'usr/share/doc/gnuplot/gnuplot.pdf', 20, 'heldout', 1, heldOutBookScan, 'gnuplot-book'),
    // blueprint
    {
      id: 'fritzing-schematics',
      package: 'fritzing-parts',
      class: 'blueprint',
      split: 'train',
      limit: 380,
      variants: 1,
      match: (p) => p.includes('/svg/core/schematic/') && p.endsWith('.svg'),
      svg: svgFile(400, 1600),
      augment: blueprintAugment,
    },
    {
      id: 'librecad-library',
      package: 'librecad-data',
      class: 'blueprint',
      split: 'train',
      limit: 380,
      variants: 1,
      match: (p) => p.endsWith('.dxf'),
      svg: dxfFile,
      augment: blueprintAugment,
    },
    // xfig's technical libraries: drawings, flowcharts, UML, mechanical and structural parts.
    {
      id: 'xfig-technical',
      package: 'xfig-libs',
      class: 'blueprint',
      split: 'train',
      limit: 320,
      variants: 1,
      match: (p) => p.endsWith('.fig') && XFIG_TECHNICAL.test(p),
      svg: xfigFile,
      augment: blueprintAugment,
    },
    {
      id: 'asymptote-figures',
      package: 'asymptote-doc',
      class: 'blueprint',
      split: 'train',
      limit: 60,
      variants: 4,
      match: (p) => ASYMPTOTE_FIGURES.some((f) => p === `usr/share/doc/asymptote/html/${f}.png`),
      load: raster,
      augment: blueprintAugment,
    },
    // Class, collaboration and include graphs that doxygen laid out with dot: boxes (one grey), arrows, labels.
    doxygenGraphs('cppunit-graphs', 'libcppunit-doc'),
    doxygenGraphs('qwt-graphs', 'libqwt-doc'),
    // Example graphs of three graphviz front ends, minus near-copies of graphviz-doc's (GRAPHVIZ_DOC_COPIES).
    graphvizExamples('dot2tex-graphs', 'dot2tex'),
    graphvizExamples('ruby-graphviz-graphs', 'ruby-graphviz'),
    graphvizExamples('pygraphviz-graphs', 'python-pygraphviz-doc'),
    {
      id: 'graphviz-graphs',
      package: 'graphviz-doc',
      class: 'blueprint',
      split: 'heldout',
      limit: 80,
      variants: 1,
      match: (p) => p.endsWith('.gv'),
      svg: graphvizFile,
      augment: asIs,
    },
  ]);
}

/** The words of a graph (node names, labels, attributes) without comments: a copy restyled or re-laid-out keeps most of them. */
function graphWords(file: string): Set<string> {
  const bytes = readFileSync(file);
  const text = (file.endsWith('.gz') ? gunzipSync(bytes) : bytes)
    .toString('latin1')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(\/\/|#)[^\n]*/g, '');
  return new Set(text.match(/[A-Za-z_][A-Za-z0-9_.]*/g) ?? []);
}

/**
 * Refuses a training graph that shares most of its words with a held-out graph (Jaccard ≥ 0.6):
 * a copy or an edit of it, which GRAPHVIZ_DOC_COPIES must leave out.
 */
export function checkGraphsDisjoint(all: Source[]): void {
  const heldOut = all
    .filter((s) => s.split === 'heldout' && s.svg === graphvizFile)
    .flatMap((s) =>
      listFiles(s.package)
        .filter(s.match)
        .map((p) => ({ name: p, words: graphWords(join(PKGS, s.package, p)) })),
    );
  for (const source of all.filter((s) => s.split === 'train' && s.svg === graphvizFile)) {
    for (const p of listFiles(source.package).filter(source.match)) {
      const words = graphWords(join(PKGS, source.package, p));
      for (const other of heldOut) {
        let shared = 0;
        for (const w of words) if (other.words.has(w)) shared++;
        if (shared / (words.size + other.words.size - shared) >= 0.6)
          throw new Error(`training graph ${source.package}/${p} is a copy of held-out ${other.name}`);
      }
    }
  }
}

/**
 * Keeps the held-out set honest: no held-out source shares a package with training, and no
 * training source is degraded by the held-out-only code.
 */
export function checkSplits(all: Source[]): void {
  const trainPackages = new Set(all.filter((s) => s.split === 'train').map((s) => s.package));
  for (const source of all) {
    if (source.split === 'heldout' && (source.package === SYNTHETIC || trainPackages.has(source.package)))
      throw new Error(`held-out source ${source.id} is synthetic or shares package ${source.package} with training`);
    if (source.split === 'train' && HELD_OUT_ONLY.has(source.augment))
      throw new Error(`training source ${source.id} uses a held-out degradation`);
  }
}
