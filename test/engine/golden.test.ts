/**
 * Golden SVG tests: synthetic inputs (golden.images.ts) traced with a few option sets, each SVG
 * compared byte for byte with the one committed under test/fixtures/golden/. Any change to the
 * engine's output fails here and shows up as a diff of those files that a reviewer reads.
 *
 * After an intended output change, regenerate the files and commit them with the change:
 *
 *   VECTORIZE_UPDATE_GOLDEN=1 npx tap test/engine/golden.test.ts
 *
 * On a mismatch the SVG the engine made is written to test-output/golden/ for a side-by-side look.
 */
import t from 'tap';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fitConcurrency, vectorize } from '../../engine/index.js';
import type { ImageClass, TraceOptions } from '../../engine/types.js';
import {
  antiAliasedDisc,
  flatShapes,
  lineArt,
  linearGradient,
  noiseField,
  oneBitDrawing,
  radialDisc,
  transparency,
} from './helpers/golden-images.js';
import { png, type Raster } from './helpers/images.js';

const GOLDEN_DIR = fileURLToPath(new URL('../fixtures/golden/', import.meta.url));
const ACTUAL_DIR = fileURLToPath(new URL('../../test-output/golden/', import.meta.url));
const UPDATE = process.env.VECTORIZE_UPDATE_GOLDEN === '1';

/** The option sets (the defaults but for the one named), named as the files are: `<input>.<option set>.svg`. */
const OPTION_SETS = {
  default: {},
  'open-seams': { closeSeams: false },
  stepped: { gradients: 'stepped' },
  'low-detail': { detail: 'low' },
  centerline: { traceStyle: 'centerline' },
} satisfies Record<string, Partial<TraceOptions>>;
type OptionSet = keyof typeof OPTION_SETS;

interface GoldenInput {
  image: () => Raster;
  /** Given, not classified: the goldens pin the tracer, and a retrained classifier must not flip a preset here. */
  imageType: ImageClass;
  optionSets: OptionSet[];
}

const INPUTS: Record<string, GoldenInput> = {
  'flat-shapes': { image: flatShapes, imageType: 'clipart', optionSets: ['default', 'open-seams', 'low-detail'] },
  'anti-aliased-disc': { image: antiAliasedDisc, imageType: 'clipart', optionSets: ['default', 'open-seams'] },
  'linear-gradient': { image: linearGradient, imageType: 'clipart', optionSets: ['default', 'stepped'] },
  'radial-disc': { image: radialDisc, imageType: 'clipart', optionSets: ['default', 'stepped', 'low-detail'] },
  'line-art': { image: lineArt, imageType: 'scan', optionSets: ['default', 'open-seams', 'centerline'] },
  'one-bit-drawing': { image: oneBitDrawing, imageType: 'blueprint', optionSets: ['default', 'centerline'] },
  transparency: { image: transparency, imageType: 'clipart', optionSets: ['default', 'centerline'] },
  'noise-field': { image: noiseField, imageType: 'photo', optionSets: ['default', 'stepped', 'low-detail'] },
};

/** A line of `text` around `at`, so a reader sees where two long path strings part. */
function excerpt(text: string, at: number): string {
  const start = Math.max(0, at - 40);
  return `${start > 0 ? '…' : ''}${text.slice(start, at + 60)}${at + 60 < text.length ? '…' : ''}`;
}

/** What a reviewer needs from a mismatch: sizes, shape counts and the first line that differs. */
function describeMismatch(expected: string, actual: string): Record<string, string> {
  const paths = (svg: string) => (svg.match(/<path /g) ?? []).length;
  const expectedLines = expected.split('\n');
  const actualLines = actual.split('\n');
  let line = 0;
  while (line < expectedLines.length && expectedLines[line] === actualLines[line]) line++;
  const want = expectedLines[line] ?? '(end of file)';
  const got = actualLines[line] ?? '(end of file)';
  let column = 0;
  while (column < want.length && want[column] === got[column]) column++;
  const lineCount = Math.max(expectedLines.length, actualLines.length);
  let differing = 0;
  for (let i = 0; i < lineCount; i++) if (expectedLines[i] !== actualLines[i]) differing++;
  return {
    sizes: `expected ${expected.length} bytes, ${paths(expected)} paths; got ${actual.length} bytes, ${paths(actual)} paths`,
    lines: `${differing} of ${lineCount} differ; the first is line ${line + 1}, from column ${column + 1}`,
    expected: excerpt(want, column),
    actual: excerpt(got, column),
  };
}

const cases = Object.entries(INPUTS).flatMap(([input, spec]) =>
  spec.optionSets.map((set) => ({ file: `${input}.${set}.svg`, spec, options: { imageType: spec.imageType, ...OPTION_SETS[set] } })),
);

t.test('each synthetic input traces to the committed SVG, byte for byte', async (t) => {
  if (UPDATE) mkdirSync(GOLDEN_DIR, { recursive: true });
  for (const { file, spec, options } of cases) {
    const { svg } = await vectorize(await png(spec.image()), options);
    const path = GOLDEN_DIR + file;
    if (UPDATE) {
      writeFileSync(path, svg);
      t.pass(`${file} written`);
      continue;
    }
    if (!existsSync(path)) {
      t.fail(`${file} has no golden; run VECTORIZE_UPDATE_GOLDEN=1 npx tap test/engine/golden.test.ts`);
      continue;
    }
    const expected = readFileSync(path, 'utf8');
    if (expected === svg) {
      t.pass(file);
      continue;
    }
    mkdirSync(ACTUAL_DIR, { recursive: true });
    writeFileSync(ACTUAL_DIR + file, svg);
    t.fail(`${file} differs from its golden (the new SVG is in test-output/golden/)`, {
      diagnostic: true,
      ...describeMismatch(expected, svg),
    });
  }
});

t.test('no golden file is left over from a case that no longer exists', async (t) => {
  const known = new Set(cases.map((c) => c.file));
  for (const file of readdirSync(GOLDEN_DIR).filter((name) => !known.has(name))) {
    if (UPDATE) rmSync(GOLDEN_DIR + file);
    else t.fail(`${file} is not a case any more; delete it or regenerate with VECTORIZE_UPDATE_GOLDEN=1`);
  }
  t.pass('golden files match the cases');
});

t.test('the output is the same whatever the number of worker threads', async (t) => {
  // The golden inputs are too small to be split between threads; this one passes the engine's
  // thresholds for banded smoothing (2^18 pixels), parallel region paints (2^16) and chain fits
  // (80 000 crack points; it has about 130 000).
  const bytes = await png(noiseField(512, 24));
  const before = fitConcurrency();
  t.teardown(() => void fitConcurrency(before));
  const svgs: string[] = [];
  for (const workers of [0, 2]) {
    fitConcurrency(workers);
    svgs.push((await vectorize(bytes, { imageType: 'photo' })).svg);
  }
  // t.ok, not t.equal: a failure should not print two 600 kB strings.
  t.ok(svgs[1] === svgs[0], 'two workers give the bytes of none');
});

t.test('a mismatch report names the sizes, the line and the place where the SVGs part', async (t) => {
  const expected = '<svg>\n<path fill="#fff" d="M0 0h4v4h-4z"/>\n<path fill="#000" d="M1 1h2v2h-2z"/>\n</svg>';
  const actual = expected.replace('M1 1h2', 'M1 1h3');
  t.same(describeMismatch(expected, actual), {
    sizes: 'expected 86 bytes, 2 paths; got 86 bytes, 2 paths',
    lines: '1 of 4 differ; the first is line 3, from column 27',
    expected: '<path fill="#000" d="M1 1h2v2h-2z"/>',
    actual: '<path fill="#000" d="M1 1h3v2h-2z"/>',
  });
  const longer = describeMismatch(expected, `${expected}\n<!-- extra -->`);
  t.equal(longer.lines, '1 of 5 differ; the first is line 5, from column 1');
  t.equal(longer.expected, '(end of file)');
});
