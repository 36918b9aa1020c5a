/**
 * The one place where the user's presets (detail, smoothing, gradients, image_type, close_seams)
 * become engine settings. Every number the fill pipeline tunes lives here, so a reader can see what
 * each option does to each stage without reading the stages.
 */
import { fitSettingsFor, type FitSettings } from './fit/index.js';
import type { GradientBandSettings } from './segment/gradient-bands.js';
import type { Detail, ImageClass, Smoothing, TraceOptions } from './types.js';

export interface PrepareSettings {
  /**
   * Pixels with alpha below this are transparent: they form regions that are never painted, so a
   * transparent input stays transparent. 128 is the midpoint a renderer would round coverage to.
   */
  alphaThreshold: number;
  /** Edge-preserving smoothing passes (photo/scan): a 3×3 filter that only averages similar neighbours. */
  denoisePasses: number;
  /** Neighbours within this RGB distance take part in the denoise average. */
  denoiseRange: number;
}

export interface SegmentSettings {
  /** Flood fill joins a 4-neighbour to a seed while its RGB distance to the seed colour is ≤ this. */
  seedTolerance: number;
  /**
   * Region merging stops at this cost: the growth of the summed squared RGB error that a merge causes
   * (Ward's criterion, n₁n₂/(n₁+n₂)·|μ₁−μ₂|²), divided by the shared boundary factor. Higher merges more.
   */
  mergeCost: number;
  /** Regions smaller than this (pixels) are always merged into their cheapest neighbour. */
  minArea: number;
  /**
   * A single-pixel seed folds into its closest neighbour only when that neighbour is within this RGB
   * distance: on line art a lone dark pixel on paper is ink (a full stop, a speck the scan shows),
   * not an anti-aliasing step.
   */
  foldDistance: number;
  /** Model a region's colour as a plane (linear ramp) instead of a constant when judging merges. */
  gradientModel: boolean;
  /**
   * Give the pixels of thin anti-aliasing bands to the two sides they blend (segment/antialias.ts),
   * so edges run through the band instead of around it.
   */
  absorbBands: boolean;
  /** Join the bands of a curved ramp into one gradient-filled shape (segment/gradient-bands.ts); null: off. */
  gradientBands: GradientBandSettings | null;
}

/**
 * Fill mode for scans and drawings (engine/segment/line-art.ts): ink against paper instead of colour
 * regions. Specks and pin-holes are judged against the drawing's own line width w.
 */
export interface LineArtSettings {
  /** Ink specks with less area than this share of w² are dust (an i-dot or a full stop is about w², kept). */
  speckShareOfWidth: number;
  /** …and below this many pixels always, at any line width. */
  speckFloor: number;
  /** Paper pin-holes inside ink with at most this many pixels are filled (scanner noise). */
  pinholeMax: number;
  /** Two inks whose colours (as seen against the paper) lie further apart than this angle stay apart. */
  inkAngleDegrees: number;
  /** An ink colour needs this share of the drawing's ink to be an ink of its own, not a tint of another. */
  minInkShare: number;
  /** Drawings whose typical stroke is thinner than this (px) are traced at twice their size (engine/ink/upsample.ts)… */
  fineBelowWidth: number;
  /** …when the doubled page has at most this many pixels. */
  fineMaxPixels: number;
}

interface GradientSettings {
  enabled: boolean;
  /** Regions smaller than this never get a gradient: a flat fill is cheaper and looks the same. */
  minArea: number;
  /** Mean per-pixel colour residual a gradient may leave (passed to fitGradient). */
  maxResidual: number;
}

interface SeamSettings {
  close: boolean;
  /** docs/api.md, "Submitting" (close_seams): each fill runs this far under the neighbour painted on top of it. */
  overlapPx: number;
  /**
   * Where a fill runs under later shapes, its hidden outline takes straight shortcuts (svg/underlap.ts).
   * Clip art only: a photo's thousands of small regions made the checks cost a quarter of its trace.
   */
  hiddenShortcuts: boolean;
}

interface ExactnessSettings {
  /**
   * A region whose fitted outline gains or loses more than this share of its area (plus half a pixel) is
   * written with its exact crack polylines: for drawn shapes and text a fit that folds a 1-px line
   * flat or rounds a glyph away is wrong. Photos leave it off (Infinity): their regions are fuzzy
   * and the polylines would cost bytes no one sees.
   */
  lostAreaShare: number;
  /** Check every chain point by point against its fit (same purpose, finer). */
  guardChains: boolean;
  /**
   * How much further than the fitter's own tolerance (px) a fit may stray from the pixel boundary
   * before the chain is written exactly. Line art is tight (a folded 1-px spur loses ink); clip
   * art leaves room for smooth curves over anti-aliased staircases, which keeps files small.
   */
  guardSlack: number;
  /**
   * Write every chain as its exact crack polyline: only for true pixel art (hard edges, no
   * anti-aliasing, a tiny image), where the pixel steps are the drawing. Nothing detects pixel art
   * yet, so it is off.
   */
  exactCracks: boolean;
}

export interface EngineSettings {
  mode: ImageClass;
  prepare: PrepareSettings;
  segment: SegmentSettings;
  /** Set for scan and blueprint: the segmentation separates ink from paper (engine/segment/line-art.ts). */
  lineArt: LineArtSettings | null;
  fit: FitSettings;
  exactness: ExactnessSettings;
  gradients: GradientSettings;
  seams: SeamSettings;
}

/** Merge cost per class at detail=high; medium and low multiply it (higher merges more). */
const BASE_MERGE_COST: Record<ImageClass, number> = {
  clipart: 6_000,
  photo: 40_000,
  scan: 60_000,
  blueprint: 60_000,
};
const DETAIL_FACTOR: Record<Detail, number> = { high: 1, medium: 6, low: 40 };

const SEED_TOLERANCE: Record<ImageClass, number> = { clipart: 6, photo: 14, scan: 24, blueprint: 24 };
const MIN_AREA: Record<ImageClass, number> = { clipart: 3, photo: 6, scan: 1, blueprint: 1 };
const MIN_AREA_DETAIL_FACTOR: Record<Detail, number> = { high: 1, medium: 2, low: 4 };

/**
 * Speck limits per smoothing level: `off` keeps every dot; stronger smoothing drops larger dust
 * (potrace's default drops 2 px, about `light`).
 */
const SPECKS: Record<Smoothing, { share: number; floor: number; pinhole: number }> = {
  off: { share: 0, floor: 0, pinhole: 0 },
  light: { share: 0.25, floor: 2, pinhole: 1 },
  strong: { share: 0.5, floor: 3, pinhole: 1 },
  maximum: { share: 0.8, floor: 5, pinhole: 2 },
};

/**
 * Line art's fitting (see FitSettings). A glyph of small text has an outline of at most about 60
 * steps: its polygon follows the sub-pixel edge within 0.3 px, so an x stays an x and a stroke
 * end stays blunt (scan-skimage-page's 7-px text turned into stars and wedges at 0.6). Straight
 * parts shorter than 4 px join the curve beside them instead of being lines of their own, which
 * pays for the extra vertices (measure.mjs scan medians: 9004 nodes before, 8992 after, potrace
 * 9063; PSNR 18.45 -> 19.01 dB, the ink's core colour included). On a 1-bit page (hard edges)
 * the fitter keeps close to the cracks (`hardEdge`), so both sides of a thin stroke stay parallel:
 * bp-autotrace-lego-1bit's ink per 5x5 window differs from the bitmap's by 1.25 px² on average
 * before, 0.50 after (potrace 0.45), at 813 measure.mjs nodes (potrace 816); rounding a vertex by
 * 1 px instead of 0.85 gives 0.53 at 750 nodes, 0.6 px 0.46 at 963, and a 2-px line's end tapers
 * at the preset's 4 px.
 */
const LINE_ART_FIT = {
  collapseChamfers: false,
  shortChain: { maxSteps: 60, corridor: 0.3 },
  minLineRun: 4,
  hardEdge: { tolerance: 0.3, roundingReach: 0.85 },
} as const;

/** What the settings need to know of the input itself. */
interface InputTraits {
  /** Lossy compression (decode's isLossy): its block noise and ringing would shatter flat fills. */
  lossy: boolean;
}

export function engineSettingsFor(options: TraceOptions, mode: ImageClass, input: InputTraits = { lossy: false }): EngineSettings {
  const photoLike = mode === 'photo';
  const lineArt = mode === 'scan' || mode === 'blueprint';
  const gradientsOn = options.gradients === 'smooth';
  return {
    mode,
    prepare: {
      alphaThreshold: 128,
      // Clip art saved as a JPEG gets the pass too: its 8x8 block noise floods into tens of
      // thousands of specks that the merging then has to sweep up (corpus cityscape: 0.4 dB more
      // PSNR, a fifth fewer bytes, a segmentation twice as fast). Flat PNG clip art needs none.
      denoisePasses: photoLike || lineArt || input.lossy ? 1 : 0,
      denoiseRange: photoLike ? 24 : 40,
    },
    segment: {
      seedTolerance: SEED_TOLERANCE[mode],
      mergeCost: BASE_MERGE_COST[mode] * DETAIL_FACTOR[options.detail],
      minArea: MIN_AREA[mode] * MIN_AREA_DETAIL_FACTOR[options.detail],
      foldDistance: lineArt ? 120 : Infinity,
      gradientModel: gradientsOn && !lineArt,
      absorbBands: !lineArt,
      // Clip art's shading is drawn smooth; a photo's regions are its texture, left to the merging.
      // A band step of a drawn ramp is 1–5 levels a pixel; the slack and the cap keep a join from
      // flattening what the bands painted (clean.cjs: a cap of 6 gives storm 6.4x the artist's nodes
      // instead of 7.0x, but calculator's 4x PSNR falls 0.2 dB).
      gradientBands:
        gradientsOn && mode === 'clipart' ? { maxStep: 8, maxHardShare: 0.05, hardStep: 24, residualSlack: 2, maxResidual: 5 } : null,
    },
    lineArt: lineArt
      ? {
          speckShareOfWidth: SPECKS[options.smoothing].share,
          speckFloor: SPECKS[options.smoothing].floor,
          pinholeMax: SPECKS[options.smoothing].pinhole,
          // Black vs navy is about 19 degrees, black vs red 27; black on yellowed paper vs grey on
          // it about 3 (one ink at two densities).
          inkAngleDegrees: 14,
          minInkShare: 0.005,
          // Strokes of about a pixel (text 5-8 px high): at their own size an m's legs end in
          // wedges and a t loses its top. Twice the size brings serifs back too, at about 40 %
          // more nodes, which wider strokes (groff's 2-px text and figures) do not need to stay
          // legible (measure.mjs scan medians: PSNR 19.01 -> 19.87 dB, nodes 8989, potrace's 9063).
          fineBelowWidth: 1.6,
          // the doubled page's labels, colours and graph: about 40 bytes a pixel
          fineMaxPixels: 16e6,
        }
      : null,
    // Corner rounding per smoothing level is the fitter's own preset table. Line art keeps its
    // blunted corners blunt: on a small blurred glyph every bowl and stroke end is a run of short
    // edges, and collapsing it to the meeting point of its long neighbours drew spikes out past the ink.
    // Clip art's anti-aliased edges are fitted to their sub-pixel points (fit/data-fit.ts): clean.cjs
    // storm edge error 32.6 -> 20.7, 4x PSNR 30.3 -> 34.6 dB, at about the same node count.
    fit: lineArt
      ? { ...fitSettingsFor(options.smoothing), ...LINE_ART_FIT }
      : { ...fitSettingsFor(options.smoothing), followEdges: mode === 'clipart' },
    // Clip art's anti-aliased edges reach the fitter as sub-pixel points (boundary/subpixel.ts),
    // which its curves follow closely: checking them chain by chain against those points only
    // turned good curves into dense polylines (clean.cjs storm: 22x the artist's nodes, 10x without).
    exactness: photoLike
      ? { lostAreaShare: Infinity, guardChains: false, guardSlack: 0, exactCracks: false }
      : { lostAreaShare: 0.2, guardChains: lineArt, guardSlack: lineArt ? 0.6 : 0, exactCracks: false },
    gradients: { enabled: gradientsOn && !lineArt, minArea: photoLike ? 200 : 400, maxResidual: photoLike ? 10 : 6 },
    seams: { close: options.closeSeams, overlapPx: 0.75, hiddenShortcuts: mode === 'clipart' },
  };
}
