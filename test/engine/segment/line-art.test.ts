import t from 'tap';
import { vectorize } from '../../../engine/index.js';
import { prepareImage } from '../../../engine/prepare/index.js';
import { segmentInk, segmentLineArt } from '../../../engine/segment/line-art.js';
import { engineSettingsFor } from '../../../engine/settings.js';
import { NO_CONTEXT } from '../../../engine/stage.js';
import { DEFAULT_TRACE_OPTIONS, type Smoothing } from '../../../engine/types.js';
import { seededRandom } from '../helpers/bmp-writer.js';
import { countMatches, png, raster, render, type Raster } from '../helpers/images.js';

/** A shape as "is (x, y) inside", sampled 4×4 per pixel for anti-aliased coverage. */
type Shape = (x: number, y: number) => boolean;

const disc =
  (cx: number, cy: number, r: number): Shape =>
  (x, y) =>
    (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
const ring =
  (cx: number, cy: number, r0: number, r1: number): Shape =>
  (x, y) => {
    const d = (x - cx) ** 2 + (y - cy) ** 2;
    return d <= r1 * r1 && d >= r0 * r0;
  };
/** A bar of width w from (x0, y0) to (x1, y1). */
const bar =
  (x0: number, y0: number, x1: number, y1: number, w: number): Shape =>
  (x, y) => {
    const dx = x1 - x0,
      dy = y1 - y0;
    const s = Math.max(0, Math.min(1, ((x - x0) * dx + (y - y0) * dy) / (dx * dx + dy * dy)));
    return (x - x0 - s * dx) ** 2 + (y - y0 - s * dy) ** 2 <= (w / 2) ** 2;
  };
const union =
  (...shapes: Shape[]): Shape =>
  (x, y) =>
    shapes.some((s) => s(x, y));

interface Glyph {
  shape: Shape;
  /** A point in the middle of a stroke, and the holes the glyph has. */
  at: [number, number];
  holes: number;
}

/** One "word" of text-like glyphs at x: o, l, i (with its dot), n, v, and a full stop. */
function word(x: number, base: number): Glyph[] {
  const top = base - 20;
  return [
    { shape: ring(x + 8, base - 8, 4.5, 8), at: [x + 8, base - 1.75], holes: 1 },
    { shape: bar(x + 22, top, x + 22, base, 3), at: [x + 22, base - 10], holes: 0 },
    { shape: bar(x + 30, base - 14, x + 30, base, 3), at: [x + 30, base - 7], holes: 0 },
    { shape: disc(x + 30, base - 19, 2), at: [x + 30, base - 19], holes: 0 },
    {
      shape: union(
        bar(x + 38, base - 14, x + 38, base, 3),
        bar(x + 50, base - 8, x + 50, base, 3),
        (px, py) => py <= base - 8 && ring(x + 44, base - 8, 4.5, 7.5)(px, py),
      ),
      at: [x + 38, base - 4],
      holes: 0,
    },
    { shape: union(bar(x + 56, base - 14, x + 61, base, 3), bar(x + 66, base - 14, x + 61, base, 3)), at: [x + 61, base - 1.5], holes: 0 },
    { shape: disc(x + 71, base - 1.5, 1.6), at: [x + 71, base - 1.5], holes: 0 },
  ];
}

function coverage(shape: Shape, x: number, y: number): number {
  let hits = 0;
  for (let sy = 0; sy < 4; sy++) for (let sx = 0; sx < 4; sx++) if (shape(x + (sx + 0.5) / 4, y + (sy + 0.5) / 4)) hits++;
  return hits / 16;
}

interface Page {
  image: Raster;
  glyphs: Glyph[];
  specks: Array<[number, number]>;
}

/**
 * A scanned page: two lines of glyphs in dark ink, light falling off from left to right (the paper
 * goes from 245 to about 150, the ink darkens with it), grain, and dust specks of one or two pixels
 * well away from the glyphs. `extra` adds marks in another ink.
 */
function page(extra?: { shape: Shape; rgb: [number, number, number] }): Page {
  const width = 320,
    height = 110;
  const glyphs: Glyph[] = [];
  for (let line = 0; line < 2; line++) for (let x = 6; x < width - 80; x += 80) glyphs.push(...word(x, 34 + line * 46));
  const ink = union(...glyphs.map((g) => g.shape));
  const random = seededRandom(7);
  const specks: Array<[number, number]> = [];
  const speckMask = new Uint8Array(width * height);
  while (specks.length < 30) {
    const x = 2 + Math.floor(random() * (width - 4)),
      y = 2 + Math.floor(random() * (height - 4));
    let clear = true;
    for (let dy = -4; dy <= 4 && clear; dy++)
      for (let dx = -4; dx <= 4; dx++)
        if (coverage(ink, x + dx, y + dy) > 0 || (extra && coverage(extra.shape, x + dx, y + dy) > 0)) {
          clear = false;
          break;
        }
    if (!clear) continue;
    specks.push([x, y]);
    speckMask[y * width + x] = 1;
    if (specks.length % 3 === 0) speckMask[y * width + x + 1] = 1;
  }
  const image = raster(width, height, (x, y) => {
    const light = 1 - 0.38 * (x / width);
    const grain = (random() - 0.5) * 8;
    const a = coverage(ink, x, y);
    let rgb = [245, 243, 238].map((p) => p * (1 - a) + 28 * a);
    if (extra) {
      const b = coverage(extra.shape, x, y);
      rgb = rgb.map((c, k) => c * (1 - b) + extra.rgb[k] * b);
    }
    if (speckMask[y * width + x]) rgb = [60, 60, 60];
    return rgb.map((c) => Math.max(0, Math.min(255, Math.round(c * light + grain)))) as [number, number, number];
  });
  return { image, glyphs, specks };
}

function segmentPage(image: Raster, smoothing: Smoothing = 'strong') {
  const settings = engineSettingsFor({ ...DEFAULT_TRACE_OPTIONS, smoothing }, 'scan');
  return segmentLineArt(prepareImage(image, settings.prepare, NO_CONTEXT), settings.lineArt!, NO_CONTEXT);
}

function fillColours(svg: string): string[] {
  return [...new Set([...svg.matchAll(/fill="(#[0-9a-f]{6})"/g)].map((m) => m[1]))];
}

t.test('a shaded, speckled page of glyphs is one ink on transparent paper, every glyph whole and the dust gone', async (t) => {
  const { image, glyphs, specks } = page();
  const seg = segmentPage(image);
  const { width } = image;
  const labelAt = (x: number, y: number) => seg.labels[Math.floor(y) * width + Math.floor(x)];
  const painted = [...seg.transparent.keys()].filter((r) => !seg.transparent[r]);
  t.equal(painted.length, 1, 'one painted region: the ink');
  const ink = painted[0];
  t.ok(seg.transparent[labelAt(1, 1)], 'the paper is left transparent');
  for (const g of glyphs) t.equal(labelAt(...g.at), ink, `the stroke at ${g.at} is ink`);
  t.equal(specks.filter(([x, y]) => labelAt(x, y) === ink).length, 0, 'no dust speck is ink');
  t.ok(seg.coverage, 'the anti-aliased coverage is kept');
  t.ok(seg.coverage![Math.floor(glyphs[1].at[1]) * width + Math.floor(glyphs[1].at[0])] > 200, 'a stroke centre is near full coverage');

  const result = await vectorize(await png(image), { imageType: 'scan' });
  t.same(fillColours(result.svg).length, 1, 'the SVG fills one ink colour');
  const ink0 = parseInt(fillColours(result.svg)[0].slice(1, 3), 16);
  t.ok(ink0 < 90, `the ink is dark (red channel ${ink0})`);
  // Outer rings: one per glyph component (the i's dot and the full stop are their own); holes: the o's.
  const rings = glyphs.length + glyphs.reduce((s, g) => s + g.holes, 0);
  const pathData = [...result.svg.matchAll(/ d="([^"]*)"/g)].map((m) => m[1]).join(' ');
  t.equal(countMatches(pathData, /[Mm]/g), rings, 'one outline per glyph and per hole');
  t.equal(countMatches(pathData, /[zZ]/g), rings, 'every outline is closed');
  t.notMatch(result.svg, /class="u"|stroke=/, 'no stroke-only shapes');
  // Smooth: the round glyphs (o, the arch of n, the dots) are curves, and no outline walks pixel stairs.
  for (const outline of pathData.split(/(?=[Mm])/)) t.ok(longestUnitStepRun(outline) <= 3, `no stairs in ${outline.slice(0, 40)}…`);
  t.ok(countMatches(pathData, /c/g) + countMatches(result.svg, /<(circle|ellipse)/g) >= 2 * 8, 'the round glyphs are drawn with curves');
});

/**
 * The longest run of unit axis steps (h/v/l of exactly one pixel along an axis) in relative path
 * data: pixel stairs.
 */
function longestUnitStepRun(d: string): number {
  const tokens = d.match(/[a-zA-Z]|-?(?:\d*\.\d+|\d+)/g) ?? [];
  const arity: Record<string, number> = { m: 2, l: 2, h: 1, v: 1, c: 6, a: 7, z: 0, M: 2 };
  let command = '',
    run = 0,
    longest = 0;
  for (let i = 0; i < tokens.length;) {
    if (/[a-zA-Z]/.test(tokens[i])) {
      command = tokens[i++];
      if (command === 'z') run = 0;
      continue;
    }
    const n = arity[command] ?? 1;
    const v = tokens.slice(i, i + n).map(Number);
    const unit =
      command === 'h' || command === 'v'
        ? Math.abs(v[0]) === 1
        : command === 'l' && Math.abs(v[0]) + Math.abs(v[1]) === 1 && v[0] * v[1] === 0;
    run = unit ? run + 1 : 0;
    longest = Math.max(longest, run);
    i += n;
    if (command === 'M' || command === 'm') command = command === 'M' ? 'L' : 'l';
  }
  return longest;
}

t.test('a 1-bit circle traced as a blueprint is a curve, not stairs', async (t) => {
  const image = raster(64, 64, (x, y) => (Math.hypot(x + 0.5 - 32, y + 0.5 - 32) <= 20 ? [0, 0, 0] : [255, 255, 255]));
  const result = await vectorize(await png(image), { imageType: 'blueprint' });
  const pathData = [...result.svg.matchAll(/ d="([^"]*)"/g)].map((m) => m[1]).join(' ');
  const curves = countMatches(pathData, /[ca]/g) + countMatches(result.svg, /<(circle|ellipse)/g);
  t.ok(curves >= 1, `drawn with curves or as a circle (${result.svg.length} bytes)`);
  t.ok(longestUnitStepRun(pathData) <= 1, 'no pixel stairs');
  t.ok(result.stats.nodes <= 12, `a handful of nodes, not one per pixel step (${result.stats.nodes})`);
});

t.test('a 1-bit drawing keeps its stroke weight: 2-px lines stay 2 px and a 1-px line 1 px, no slivers or bulges', async (t) => {
  // each stroke: its centre line and width; the lines cross as a drawing's do (a crossing makes a
  // hole in the ink, so each side of a stroke is part of a different outline)
  const strokes: { name: string; line: [number, number, number, number]; width: number }[] = [
    { name: 'long steep 2-px diagonal', line: [10, 90, 60, 12], width: 2 },
    { name: 'long shallow 2-px diagonal', line: [8, 30, 70, 8], width: 2 },
    { name: '1-px diagonal', line: [20, 60, 75, 95], width: 1 },
    { name: 'stem of the 1', line: [95, 20, 95, 85], width: 2 },
    { name: 'flag of the 1', line: [95, 20, 84, 30], width: 2 },
    { name: 'foot of the 1', line: [86, 85, 104, 85], width: 2 },
  ];
  const image = raster(120, 100, (x, y) =>
    strokes.some((s) => segmentDistance(x + 0.5, y + 0.5, ...s.line) <= s.width / 2) ? [0, 0, 0] : [255, 255, 255],
  );
  const result = await vectorize(await png(image), { imageType: 'blueprint' });
  const zoom = 8;
  const drawn = render(result.svg, image.width, zoom, 'white');
  const inkAt = (x: number, y: number): boolean => {
    const px = Math.floor(x * zoom),
      py = Math.floor(y * zoom);
    return px >= 0 && py >= 0 && px < drawn.width && py < drawn.height && drawn.data[(py * drawn.width + px) * 4] < 128;
  };
  for (const { name, line, width } of strokes) {
    const [ax, ay, bx, by] = line;
    const length = Math.hypot(bx - ax, by - ay);
    const ux = (bx - ax) / length,
      uy = (by - ay) / length;
    let thinnest = Infinity,
      thickest = 0;
    // across the stroke every quarter pixel along it, away from its ends and from the strokes it meets
    for (let along = 3; along <= length - 3; along += 0.25) {
      const cx = ax + ux * along,
        cy = ay + uy * along;
      if (strokes.some((other) => other.line !== line && segmentDistance(cx, cy, ...other.line) < 5)) continue;
      let left = 0,
        right = 0;
      while (left < 6 && inkAt(cx - uy * left, cy + ux * left)) left += 1 / 32;
      while (right < 6 && inkAt(cx + uy * right, cy - ux * right)) right += 1 / 32;
      thinnest = Math.min(thinnest, left + right);
      thickest = Math.max(thickest, left + right);
    }
    // a 1-px diagonal's pixels touch at corners, and the half-pixel bridges line art puts there
    // (fitChain's onHalfPixelGrid) weigh on one side: it may come out 0.4 px heavy, a 2-px line 0.3
    const heavy = width > 1 ? 0.3 : 0.4;
    t.ok(
      thinnest >= width - 0.4 && thickest <= width + heavy,
      `${name}: ${thinnest.toFixed(2)}-${thickest.toFixed(2)} px wide all along, the bitmap's ${width} -0.4/+${heavy}`,
    );
  }
});

t.test('ink pixels touching only at a corner are one mark with one outline, no junction', async (t) => {
  // a 1-px staircase line: each pixel meets the next only at a corner
  const image = raster(40, 40, (x, y) => (x >= 8 && x < 32 && y === x ? [0, 0, 0] : [255, 255, 255]));
  const seg = segmentPage(image);
  const ink = seg.labels[10 * 40 + 10];
  t.notOk(seg.transparent[ink]);
  t.equal(seg.labels[20 * 40 + 20], ink, 'the whole line is one ink region');
  const result = await vectorize(await png(image), { imageType: 'scan' });
  const pathData = [...result.svg.matchAll(/ d="([^"]*)"/g)].map((m) => m[1]).join(' ');
  t.equal(countMatches(pathData, /[Mm]/g), 1, 'one outline');
  t.ok(result.stats.nodes <= 8, `a thin bar of a few nodes, not one per pixel (${result.stats.nodes})`);
});

t.test('smoothing off keeps every speck; maximum still keeps the dots and full stops', async (t) => {
  const { image, glyphs, specks } = page();
  const off = segmentPage(image, 'off');
  const at = (seg: ReturnType<typeof segmentPage>, x: number, y: number) => seg.labels[Math.floor(y) * image.width + Math.floor(x)];
  t.equal(specks.filter(([x, y]) => off.transparent[at(off, x, y)]).length, 0, 'smoothing off: the specks stay ink');
  const maximum = segmentPage(image, 'maximum');
  for (const g of glyphs) t.notOk(maximum.transparent[at(maximum, ...g.at)], `smoothing maximum keeps the glyph at ${g.at}`);
  t.equal(specks.filter(([x, y]) => !maximum.transparent[at(maximum, x, y)]).length, 0, 'smoothing maximum drops the specks');
});

t.test('a dashed hairline is drawing, not dust: its short dashes stay', async (t) => {
  // dashes of 4 x 1 px, as small as dust in area but long and thin
  const dashes: Shape = (x, y) => y >= 96 && y < 97 && x >= 20 && x < 300 && Math.floor((x - 20) / 10) % 2 === 0 && (x - 20) % 10 < 4;
  const { image } = page({ shape: dashes, rgb: [28, 28, 28] });
  const seg = segmentPage(image, 'maximum');
  let kept = 0;
  for (let x = 22; x < 300; x += 20) if (!seg.transparent[seg.labels[96 * image.width + x]]) kept++;
  t.equal(kept, 14, 'every dash is ink');
});

t.test('a red stamp on a page of black glyphs keeps its own colour: two inks, no shards', async (t) => {
  const stamp = union(ring(270, 55, 22, 26), bar(252, 55, 288, 55, 4));
  const { image, glyphs } = page({ shape: stamp, rgb: [205, 30, 35] });
  const seg = segmentPage(image);
  const painted = [...seg.transparent.keys()].filter((r) => !seg.transparent[r]);
  t.equal(painted.length, 2, 'two painted regions: black ink and red ink');
  const labelAt = (x: number, y: number) => seg.labels[Math.floor(y) * image.width + Math.floor(x)];
  const black = labelAt(...glyphs[0].at),
    red = labelAt(270, 31);
  t.not(black, red);
  for (const g of glyphs) t.equal(labelAt(...g.at), black, `glyph at ${g.at} is black ink`);
  t.equal(labelAt(252, 55), red, 'the stamp bar is red ink');

  const result = await vectorize(await png(image), { imageType: 'scan' });
  const colours = fillColours(result.svg);
  t.equal(colours.length, 2, `two fill colours (${colours.join(', ')})`);
  const reddish = colours.filter((c) => parseInt(c.slice(1, 3), 16) > parseInt(c.slice(3, 5), 16) + 80);
  t.equal(reddish.length, 1, 'one of them is red');
});

t.test('white lines on a dark blueprint page: the page is painted behind the lines', async (t) => {
  const lines = union(bar(10, 10, 110, 10, 3), bar(10, 10, 10, 70, 3), ring(70, 45, 15, 18));
  const image = raster(120, 80, (x, y) => {
    const a = coverage(lines, x, y);
    return [20, 50, 140].map((p) => Math.round(p * (1 - a) + 245 * a)) as [number, number, number];
  });
  const seg = segmentPage(image);
  t.equal(seg.transparent.filter((v) => !v).length, 2, 'page and lines both painted');
  const result = await vectorize(await png(image), { imageType: 'blueprint' });
  t.equal(fillColours(result.svg).length, 2);
});

t.test('a one-pixel pin-hole in a thick stroke is filled; a glyph counter is kept', async (t) => {
  const image = raster(60, 40, (x, y) => {
    const inBar = x >= 10 && x < 30 && y >= 10 && y < 18 && !(x === 20 && y === 14);
    const inRing = (x - 45) ** 2 + (y - 20) ** 2 <= 64 && (x - 45) ** 2 + (y - 20) ** 2 > 9;
    return inBar || inRing ? [20, 20, 20] : [250, 250, 250];
  });
  const strong = segmentPage(image, 'strong');
  t.notOk(strong.transparent[strong.labels[14 * 60 + 20]], 'smoothing strong: the pin-hole is ink');
  t.ok(strong.transparent[strong.labels[20 * 60 + 45]], 'the ring keeps its counter');
  const off = segmentPage(image, 'off');
  t.ok(off.transparent[off.labels[14 * 60 + 20]], 'smoothing off: the pin-hole stays');
});

t.test("a mark's faint tail is ink, as wide as the scan draws it; a smudge as faint on its own is paper", async (t) => {
  // a dark blot with a comma-like tail not half as dark, and a streak of the same faintness apart from any mark
  const image = raster(80, 40, (x, y) => {
    if (x >= 10 && x < 20 && y >= 10 && y < 24) return [20, 20, 20];
    // the tail darkens towards the blot, as a blurred comma's does
    if (y === 17 && x >= 20 && x < 22) return [90, 90, 90];
    if ((y === 17 && x >= 22 && x < 34) || (y === 32 && x >= 45 && x < 60)) return [150, 150, 150];
    return [250, 250, 250];
  });
  const seg = segmentPage(image, 'off');
  const at = (x: number, y: number) => seg.transparent[seg.labels[y * 80 + x]];
  t.notOk(at(15, 15), 'the blot is ink');
  for (const x of [23, 27, 32]) t.notOk(at(x, 17), `the tail at x=${x} is ink`);
  t.ok(at(27, 16) && at(27, 18), 'the tail is one pixel wide, as drawn');
  for (const x of [47, 52, 58]) t.ok(at(x, 32), `the lone streak at x=${x} is paper`);
});

/** Distance from (x, y) to the segment (x0, y0)–(x1, y1). */
function segmentDistance(x: number, y: number, x0: number, y0: number, x1: number, y1: number): number {
  const dx = x1 - x0,
    dy = y1 - y0;
  const s = Math.max(0, Math.min(1, ((x - x0) * dx + (y - y0) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - x0 - s * dx, y - y0 - s * dy);
}

/** A 3×3 box blur of a coverage field: the scanner's optics spread a thin stroke over its neighbours. */
function blurred(field: Float64Array, width: number, height: number): Float64Array {
  const out = new Float64Array(field.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++)
          sum += field[Math.min(height - 1, Math.max(0, y + dy)) * width + Math.min(width - 1, Math.max(0, x + dx))];
      out[y * width + x] = sum / 9;
    }
  return out;
}

t.test('small blurred text keeps its shape: an x of 1.5-px strokes 9 px tall is an x, not a star', async (t) => {
  const width = 120,
    height = 24;
  // eight x glyphs, each two diagonal strokes from corner to corner of a 7×9 box
  const strokes: Array<[number, number, number, number]> = [];
  for (let k = 0; k < 8; k++) {
    const left = 6 + k * 14,
      top = 8;
    strokes.push([left, top, left + 7, top + 9], [left + 7, top, left, top + 9]);
  }
  const stroke = 1.5;
  const glyphs = union(...strokes.map(([a, b, c, d]) => bar(a, b, c, d, stroke)));
  const sharp = new Float64Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) sharp[y * width + x] = coverage(glyphs, x, y);
  const spread = blurred(sharp, width, height);
  const image = raster(width, height, (x, y) => {
    const v = Math.round(235 - 210 * Math.min(1, (sharp[y * width + x] + spread[y * width + x]) / 2));
    return [v, v, v];
  });
  const result = await vectorize(await png(image), { imageType: 'scan' });
  const zoom = 4;
  const drawn = render(result.svg, width, zoom, '#ffffff');
  const near = (px: number, py: number, reach: number) => strokes.some(([a, b, c, d]) => segmentDistance(px, py, a, b, c, d) <= reach);
  let stray = 0,
    inked = 0;
  for (let y = 0; y < drawn.height; y++)
    for (let x = 0; x < drawn.width; x++) {
      if (drawn.data[(y * drawn.width + x) * 4] > 128) continue;
      inked++;
      // half a pixel past the stroke's edge is the blur's reach at the half-way cut: ink further out
      // fills the notches between the arms (the x drawn as a four-pointed star) or juts out as a spike
      if (!near((x + 0.5) / zoom, (y + 0.5) / zoom, stroke / 2 + 0.5)) stray++;
    }
  t.ok(inked > 0, 'the glyphs are drawn');
  // the old fit drew stars: 7 % of the ink out there; this one 1.2 %
  t.ok(stray <= inked * 0.03, `at most 3 % of the ink more than half a pixel past the strokes (${stray} of ${inked} zoomed pixels)`);
  // every arm reaches its end: ink within a pixel of each stroke's two ends
  let missing = 0;
  for (const [a, b, c, d] of strokes)
    for (const [ex, ey] of [
      [a + (c - a) * 0.1, b + (d - b) * 0.1],
      [a + (c - a) * 0.9, b + (d - b) * 0.9],
    ]) {
      let found = false;
      for (let y = Math.floor((ey - 1) * zoom); y <= (ey + 1) * zoom && !found; y++)
        for (let x = Math.floor((ex - 1) * zoom); x <= (ex + 1) * zoom; x++) if (drawn.data[(y * drawn.width + x) * 4] <= 128) found = true;
      if (!found) missing++;
    }
  t.equal(missing, 0, 'every arm reaches its end');
});

t.test('the ink is drawn in its solid colour, not the grey of its thinnest strokes', async (t) => {
  const width = 160,
    height = 60;
  const ink = 20;
  // two thick strokes reach the ink's full density; ten hairlines, blurred, only about half of it
  const thick = union(bar(8, 8, 8, 52, 5), bar(20, 8, 20, 52, 5));
  const hairlines: Shape[] = [];
  for (let k = 0; k < 10; k++) hairlines.push(bar(34 + k * 12, 8, 34 + k * 12, 52, 0.8));
  const hairline = union(...hairlines);
  const thin = new Float64Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) thin[y * width + x] = coverage(hairline, x, y);
  const spread = blurred(thin, width, height);
  const image = raster(width, height, (x, y) => {
    const a = Math.min(1, coverage(thick, x, y) + (thin[y * width + x] + spread[y * width + x]) / 2);
    const v = Math.round(240 * (1 - a) + ink * a);
    return [v, v, v];
  });
  const result = await vectorize(await png(image), { imageType: 'scan' });
  const colours = fillColours(result.svg);
  t.equal(colours.length, 1, 'one ink');
  const red = parseInt(colours[0].slice(1, 3), 16);
  t.ok(red <= ink + 20, `the fill is the ink's own colour (red channel ${red}, the ink ${ink})`);
});

/**
 * Small, low-resolution text: legs 1.3 px wide (an m's at 7 px text height), blurred as a scanner
 * blurs them, on grey paper. `hard`: the same page thresholded to two levels (a 1-bit scan).
 */
function thinLegs(hard = false, withBlock = false): Raster {
  const legs = [12.5, 22.5, 32.5].map((x) => bar(x, 8, x, 24, 1.3));
  // a solid block of the same ink, 3 px wide, whose inside reaches the ink's full density
  const ink = withBlock ? union(...legs, (x, y) => x >= 40 && x < 43 && y >= 10 && y < 22) : union(...legs);
  const sharp = Array.from({ length: 32 }, (_, y) => Array.from({ length: 48 }, (_, x) => coverage(ink, x, y)));
  const at = (x: number, y: number) => sharp[Math.min(31, Math.max(0, y))][Math.min(47, Math.max(0, x))];
  return raster(48, 32, (x, y) => {
    // a light blur: a quarter of each neighbour's ink spills over
    let a = at(x, y);
    for (const [dx, dy] of [
      [-1, 0],
      [1, 0],
      [0, -1],
      [0, 1],
    ])
      a += at(x + dx, y + dy) / 4;
    a /= 2;
    if (hard) a = a > 0.35 ? 1 : 0;
    const v = Math.round(235 * (1 - a) + 30 * a);
    return [v, v, v];
  });
}

function segmentInkOf(image: Raster) {
  const settings = engineSettingsFor(DEFAULT_TRACE_OPTIONS, 'scan');
  return segmentInk(prepareImage(image, settings.prepare, NO_CONTEXT), settings.lineArt!, NO_CONTEXT);
}

t.test('thin soft strokes are traced at twice the size; thick or hard-edged ones at their own', async (t) => {
  const thin = segmentInkOf(thinLegs());
  t.equal(thin.scale, 2, 'legs 1.3 px wide: twice the size');
  t.equal(thin.segmentation.width, 96);
  t.equal(thin.image.width, 96, 'the image the segmentation was cut from comes with it');
  t.equal(segmentInkOf(page().image).scale, 1, 'glyph strokes 3 px wide: their own size');
  t.equal(segmentInkOf(thinLegs(true)).scale, 1, 'a 1-bit page: its own size (interpolation would only round its steps)');
  // at twice the size a thin leg is a ridge two or three pixels wide: its faint peak must not pass
  // for the solid inside of a second, lighter ink
  const withBlock = segmentInkOf(thinLegs(false, true));
  t.equal(withBlock.scale, 2);
  t.equal([...withBlock.segmentation.transparent].filter((clear) => !clear).length, 1, 'thin legs beside a solid block: one ink');
});

t.test('thin strokes traced at twice the size come back in input pixels, one closed outline each, at their weight', async (t) => {
  const image = thinLegs();
  const result = await vectorize(await png(image), { imageType: 'scan' });
  t.match(result.svg, /viewBox="0 0 48 32"/, 'drawn in input pixels');
  const pathData = [...result.svg.matchAll(/ d="([^"]*)"/g)].map((m) => m[1]).join(' ');
  t.equal(countMatches(pathData, /[Mm]/g), 3, 'one outline per leg');
  t.equal(countMatches(pathData, /[zZ]/g), 3, 'each closed');
  const zoom = 8;
  const out = render(result.svg, image.width, zoom, 'white');
  /** Dark output pixels across the middle leg (x 17..27) on input row y, in input pixels. */
  const inkAcross = (y: number) => {
    let dark = 0;
    for (let x = 17 * zoom; x < 27 * zoom; x++) if (out.data[4 * (Math.round(y * zoom) * out.width + x)] < 128) dark++;
    return dark / zoom;
  };
  // drawn 1.3 px wide and blurred by a quarter pixel on each side
  for (const y of [10, 16, 22]) t.ok(inkAcross(y) >= 1.2 && inkAcross(y) <= 2.2, `at row ${y} the leg is ${inkAcross(y)} px wide`);
  t.equal(inkAcross(7), 0, 'nothing above the leg');
  t.equal(inkAcross(25.5), 0, 'nothing below it');
});

t.test('a drawing in black and a designed grey keeps both inks, each mark in one of them', async (t) => {
  const width = 120,
    height = 80;
  // a black box outline 4 px wide, grey pins 3 px wide beside it, grey and black blocks of "text"
  const black = union(
    bar(20, 10, 100, 10, 4),
    bar(100, 10, 100, 70, 4),
    bar(100, 70, 20, 70, 4),
    bar(20, 70, 20, 10, 4),
    bar(40, 40, 60, 40, 5),
  );
  const grey = union(bar(2, 25, 14, 25, 3), bar(2, 55, 14, 55, 3), bar(106, 25, 118, 25, 3), bar(70, 30, 85, 30, 5));
  const image = raster(width, height, (x, y) => {
    const b = coverage(black, x, y),
      g = coverage(grey, x, y) * (1 - b);
    const v = Math.round(250 * (1 - b - g) + 10 * b + 110 * g);
    return [v, v, v];
  });
  const result = await vectorize(await png(image), { imageType: 'blueprint' });
  const colours = fillColours(result.svg)
    .map((c) => parseInt(c.slice(1, 3), 16))
    .sort((a, b) => a - b);
  t.equal(colours.length, 2, `two inks (${fillColours(result.svg).join(', ')})`);
  t.ok(colours[0] <= 30 && colours[1] >= 90 && colours[1] <= 130, `black and the grey (${colours})`);
  const drawn = render(result.svg, width, 1, '#ffffff');
  const at = (x: number, y: number) => drawn.data[(y * width + x) * 4];
  t.ok(at(10, 25) > 80 && at(10, 25) < 150, `a pin is grey (${at(10, 25)})`);
  t.ok(at(50, 40) < 50, `the black block is black (${at(50, 40)})`);
});
