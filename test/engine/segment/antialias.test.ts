import t from 'tap';
import { prepareImage } from '../../../engine/prepare/index.js';
import { segmentImage } from '../../../engine/segment/index.js';
import { absorbAntialiasBands, pixelsOfRegions, regionPerimeters } from '../../../engine/segment/antialias.js';
import { regionColourSums, rowRunsOf } from '../../../engine/segment/renumber.js';
import { engineSettingsFor } from '../../../engine/settings.js';
import { NO_CONTEXT } from '../../../engine/stage.js';
import { DEFAULT_TRACE_OPTIONS } from '../../../engine/types.js';
import { vectorize } from '../../../engine/index.js';
import { mix, png, randomLabelRuns, raster, render, type Raster } from '../helpers/images.js';
import { seededRandom } from '../helpers/bmp-writer.js';

function segment(image: Raster, absorbBands = true) {
  const settings = engineSettingsFor(DEFAULT_TRACE_OPTIONS, 'clipart');
  return segmentImage(prepareImage(image, settings.prepare, NO_CONTEXT), { ...settings.segment, absorbBands }, NO_CONTEXT);
}

const GREEN = [40, 170, 60],
  PURPLE = [120, 30, 150];

/**
 * A vertical edge at x = 20.3 at the top drifting to x = 20.7 at the bottom: column 20 is a band of
 * mixes, 30 % green at the top, 70 % at the bottom.
 */
const driftingEdge = (y: number) => 20.3 + (0.4 * y) / 47;
function driftingEdgeImage(): Raster {
  return raster(40, 48, (x, y) => {
    const green = Math.min(1, Math.max(0, driftingEdge(y + 0.5) - x));
    return [0, 1, 2].map((c) => Math.round(GREEN[c] * green + PURPLE[c] * (1 - green))) as [number, number, number];
  });
}

t.test('a long anti-aliasing band between two fills goes, pixel by pixel, to the side that covers more of it', async (t) => {
  const image = driftingEdgeImage();
  const kept = segment(image, false);
  t.equal(kept.regionCount, 3, 'without absorbing, the band is a region of its own');
  const seg = segment(image);
  t.equal(seg.regionCount, 2, 'with it, just the two fills');
  const green = seg.labels[0],
    purple = seg.labels[39];
  for (let y = 0; y < 48; y++) {
    const share = driftingEdge(y + 0.5) - 20;
    t.equal(seg.labels[y * 40 + 20], share >= 0.5 ? green : purple, `row ${y}: ${Math.round(share * 100)} % green`);
  }
});

t.test('a thin line whose colour is no mix of its neighbours stays', async (t) => {
  const image = raster(40, 30, (x) => (x === 20 ? [10, 10, 10] : x < 20 ? [250, 250, 250] : [200, 200, 120]));
  const seg = segment(image);
  t.equal(seg.regionCount, 3);
  t.not(seg.labels[20], seg.labels[19]);
  t.not(seg.labels[20], seg.labels[21]);
});

t.test('regions are renumbered in scan order with their areas and transparency', async (t) => {
  // labels: 0 | band 1 | 2, the band's pixels a half-and-half mix
  const width = 6,
    height = 4;
  const rgb = new Uint8Array(3 * width * height);
  const labels = new Int32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      const colour = x < 2 ? [0, 0, 0] : x === 2 ? [y < 2 ? 160 : 100, 0, 0] : [255, 0, 0];
      rgb.set(colour, 3 * p);
      labels[p] = x < 2 ? 0 : x === 2 ? 1 : 2;
    }
  }
  const out = absorbAntialiasBands(
    { width, height, rgb },
    { labels, regionCount: 3, area: Int32Array.from([8, 4, 12]), transparent: new Uint8Array(3) },
  );
  t.equal(out.regionCount, 2);
  t.same(Array.from(out.area), [10, 14]);
  t.same(Array.from(labels.subarray(0, 6)), [0, 0, 1, 1, 1, 1], 'the lighter mixes join the red side');
  t.same(Array.from(labels.subarray(18, 24)), [0, 0, 0, 1, 1, 1], 'the darker ones the black side');
});

t.test('two bands side by side along an axis-aligned edge are a thin strip of its own, not anti-aliasing', async (t) => {
  // dark | a grey strip from x = 20.25 to 21.5 | light: columns 20 and 21 are both mixes of dark and
  // light, which no single edge makes (across a vertical edge only one pixel is a mix)
  const DARK: [number, number, number] = [52, 52, 52],
    GREY: [number, number, number] = [150, 150, 150],
    LIGHT: [number, number, number] = [219, 220, 221];
  const image = raster(40, 48, (x) => {
    if (x === 20) return mix(DARK, GREY, 0.25);
    if (x === 21) return mix(GREY, LIGHT, 0.5);
    return x < 20 ? DARK : LIGHT;
  });
  const seg = segment(image);
  t.equal(seg.regionCount, 3, 'dark, strip and light');
  for (const y of [0, 20, 47]) {
    t.equal(seg.labels[y * 40 + 20], seg.labels[y * 40 + 21], `row ${y}: both columns are the strip`);
    t.not(seg.labels[y * 40 + 20], seg.labels[y * 40 + 19], `row ${y}: not the dark side`);
    t.not(seg.labels[y * 40 + 21], seg.labels[y * 40 + 22], `row ${y}: not the light side`);
  }
});

t.test('a dark line beside a white line stays two lines: neither is a mix of the fills on each side', async (t) => {
  const BLUE: [number, number, number] = [150, 170, 240],
    NAVY: [number, number, number] = [30, 40, 90];
  const image = raster(40, 48, (x) => (x === 20 ? [10, 10, 10] : x === 21 ? [250, 250, 250] : x < 20 ? NAVY : BLUE));
  const seg = segment(image);
  t.equal(seg.regionCount, 4, 'navy, black, white, blue');
  t.not(seg.labels[20 * 40 + 20], seg.labels[20 * 40 + 21], 'the two lines apart');
});

/**
 * A dark frame with a rounded inner corner (radius 10, centre (24.3, 24.3)) round a light fill,
 * and inside it a grey highlight 1.4 px wide down the left side that follows the corner, thinning
 * to nothing at the top: how Tango draws an inner highlight. Anti-aliased by 8×8 supersampling.
 */
const FRAME = { inner: 14.3, radius: 10, size: 64, highlight: 1.4 };
const FRAME_DARK = [52, 52, 52],
  HIGHLIGHT = [150, 150, 150],
  FILL = [219, 219, 219],
  PAPER = [255, 255, 255];
const CORNER = FRAME.inner + FRAME.radius;

/** Signed distance to the frame's inner edge (px): negative inside the light fill. */
function innerEdgeDistance(x: number, y: number): number {
  const far = FRAME.size - FRAME.inner;
  if (x < CORNER && y < CORNER) return Math.hypot(CORNER - x, CORNER - y) - FRAME.radius;
  return Math.max(FRAME.inner - x, FRAME.inner - y, x - far, y - far);
}

function framePaint(x: number, y: number): number[] {
  if (x < 3 || y < 3 || x > FRAME.size - 3 || y > FRAME.size - 3) return PAPER;
  const d = innerEdgeDistance(x, y);
  if (d > 0) return FRAME_DARK;
  // down the left side the highlight is full width and ends square on the bottom edge; round the
  // corner it tapers to nothing at the top
  if (y >= CORNER) return x - FRAME.inner < FRAME.highlight ? HIGHLIGHT : FILL;
  const turned = x >= CORNER ? 1 : Math.atan2(CORNER - y, CORNER - x) / (Math.PI / 2);
  return -d < FRAME.highlight * (1 - turned) ? HIGHLIGHT : FILL;
}

/** The frame's left side with a straight inner edge, its highlight tapering to nothing up the edge between y = 40 and 20. */
function taperPaint(x: number, y: number): number[] {
  if (x < 3 || y < 3 || x > FRAME.size - 3 || y > FRAME.size - 3) return PAPER;
  if (x < FRAME.inner || y < FRAME.inner || x > FRAME.size - FRAME.inner || y > FRAME.size - FRAME.inner) return FRAME_DARK;
  const width = FRAME.highlight * Math.min(1, Math.max(0, (y - 20) / 20));
  return x - FRAME.inner < width ? HIGHLIGHT : FILL;
}

function highlightFrame(paint = framePaint): Raster {
  const SAMPLES = 8;
  return raster(FRAME.size, FRAME.size, (x, y) => {
    const sum = [0, 0, 0];
    for (let i = 0; i < SAMPLES; i++)
      for (let j = 0; j < SAMPLES; j++) {
        const c = paint(x + (i + 0.5) / SAMPLES, y + (j + 0.5) / SAMPLES);
        for (let k = 0; k < 3; k++) sum[k] += c[k];
      }
    return sum.map((v) => Math.round(v / SAMPLES ** 2)) as [number, number, number];
  });
}

t.test('a highlight strip follows the rounded corner its run leads into, as one region', async (t) => {
  const image = highlightFrame();
  const seg = segment(image);
  const { width } = image;
  const strip = seg.labels[40 * width + 14];
  t.not(strip, seg.labels[40 * width + 10], 'down the side the strip is not the frame');
  t.not(strip, seg.labels[40 * width + 20], 'nor the fill');
  // round the corner (45°) the highlight is still over a pixel wide: the strip goes on there
  const at45 = { x: Math.floor(CORNER - FRAME.radius * Math.SQRT1_2 + 0.5), y: Math.floor(CORNER - FRAME.radius * Math.SQRT1_2 + 0.5) };
  const round = [-1, 0, 1].some((k) => seg.labels[(at45.y + k) * width + at45.x + k] === strip);
  t.ok(round, `the strip reaches round the corner to (${at45.x}, ${at45.y})`);
  t.equal(seg.labels[FRAME.inner * width + 40] === strip, false, 'it does not run along the top, where the highlight has faded');
  // at the bottom it ends square on the frame's edge, whose anti-aliased row is as near the strip's grey as the fill's
  const bottomRow = Math.floor(FRAME.size - FRAME.inner);
  const along = [18, 22, 26, 30].filter((x) => seg.labels[bottomRow * width + x] === strip);
  t.same(along, [], 'nor along the bottom edge it ends against');
});

t.test(
  'the colour sums handed on are those of the pixels each region ends with: band moves, strip growth and its undoing, bridges',
  async (t) => {
    const settings = engineSettingsFor(DEFAULT_TRACE_OPTIONS, 'clipart');
    for (const [name, image] of [
      ['drifting edge', driftingEdgeImage()],
      ['highlight frame', highlightFrame()],
      // along a straight edge what grew from the strip's end is undone
      ['tapering highlight', highlightFrame(taperPaint)],
    ] as const) {
      const prepared = prepareImage(image, settings.prepare, NO_CONTEXT);
      const seg = segmentImage(prepared, settings.segment, NO_CONTEXT);
      const counts = new Float64Array(seg.regionCount);
      const pixelSums = regionColourSums(prepared.rgb, seg.labels, seg.regionCount, counts);
      t.ok(seg.colourSums, `${name}: the segmentation hands its colour sums on`);
      t.same(Array.from(seg.colourSums ?? []), Array.from(pixelSums), `${name}: equal to a pass over the final labels`);
      t.same(Array.from(seg.area), Array.from(counts), `${name}: and so are the areas they divide by`);
    }
  },
);

t.test("traced, the frame's inner edge keeps its round corner where the highlight strip ends: no notch, no spike", async (t) => {
  const image = highlightFrame();
  const { svg } = await vectorize(await png(image), { imageType: 'clipart' });
  const ZOOM = 8;
  const out = render(svg, image.width, ZOOM, 'white');
  // where the traced frame (darker than halfway to the highlight) and the drawn one disagree, how far from the drawn edge
  const threshold = (FRAME_DARK[0] + HIGHLIGHT[0]) / 2;
  let worst = 0,
    where = '';
  for (let Y = Math.floor((FRAME.inner - 4) * ZOOM); Y < (CORNER + 8) * ZOOM; Y++) {
    for (let X = Math.floor((FRAME.inner - 4) * ZOOM); X < (CORNER + 8) * ZOOM; X++) {
      const x = (X + 0.5) / ZOOM,
        y = (Y + 0.5) / ZOOM;
      const d = innerEdgeDistance(x, y);
      const traced = out.data[4 * (Y * out.width + X)] < threshold;
      if (traced !== d > 0 && Math.abs(d) > worst) {
        worst = Math.abs(d);
        where = `(${x.toFixed(1)}, ${y.toFixed(1)})`;
      }
    }
  }
  t.ok(worst < 0.5, `the traced inner edge stays within half a pixel of the drawn one (at most ${worst.toFixed(2)} px off, at ${where})`);
});

t.test('perimeters and the pixels of marked regions, read by runs, are those counted pixel by pixel', async (t) => {
  const random = seededRandom(11);
  for (const [width, height, regionCount] of [
    [1, 1, 1],
    [1, 9, 3],
    [9, 1, 3],
    [37, 29, 6],
    [64, 40, 2],
  ]) {
    // runs of one label, long and short, so rows' runs end both together and apart
    const labels = randomLabelRuns(width, height, regionCount, 0.3, random);
    const expected = new Int32Array(regionCount);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const p = y * width + x;
        for (const q of [x + 1 < width ? p + 1 : -1, y + 1 < height ? p + width : -1])
          if (q >= 0 && labels[q] !== labels[p]) {
            expected[labels[p]]++;
            expected[labels[q]]++;
          }
      }
    const runs = rowRunsOf(labels, width, height);
    t.same(Array.from(regionPerimeters(labels, width, height, regionCount, runs)), Array.from(expected), `${width}x${height}: perimeters`);
    const marked = Uint8Array.from({ length: regionCount }, (_, r) => r % 2);
    const area = new Int32Array(regionCount);
    for (const label of labels) area[label]++;
    const listed = Array.from(labels.keys()).filter((p) => marked[labels[p]] === 1);
    t.same(Array.from(pixelsOfRegions(labels, marked, area, runs)), listed, `${width}x${height}: marked regions' pixels in scan order`);
  }
});
