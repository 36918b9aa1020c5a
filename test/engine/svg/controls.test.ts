import t, { type Test } from 'tap';
import { renderDocument, vectorize } from '../../../engine/index.js';
import type { TraceResult } from '../../../engine/types.js';
import { svgStats } from '../../../app/renderer/svg-stats.js';
import { coverage, hiddenShortcutArt, mismatch, mix, png, raster, render, testCard, type Raster } from '../helpers/images.js';

// The output controls on real traces of synthetic images: each done-when of issue #17 that the
// engine answers, checked on what the SVG paints (resvg) and on its text.

/** Forty-odd flat colours: twelve hue sectors in three rings, on white. */
const wheel = raster(160, 120, (x, y) => {
  const dx = x - 80,
    dy = y - 60;
  const r = Math.hypot(dx, dy);
  if (r > 50) return [255, 255, 255];
  const sector = Math.floor(((Math.atan2(dy, dx) + Math.PI) / (2 * Math.PI)) * 12);
  const ring = Math.floor(r / 17);
  return [(sector * 21 + ring * 60) % 256, (sector * 53) % 256, (255 - sector * 19 - ring * 40 + 512) % 256];
});
/** A ramp the trace writes as a gradient, above a flat band. */
const ramp = raster(96, 64, (x, y) => (y < 40 ? [40 + x * 2, 90, 200 - x] : [240, 200, 40]));
/** A logo on white: a red square and an anti-aliased blue disc, no counters. */
const logo = raster(120, 80, (x, y) => {
  if (x >= 10 && x < 50 && y >= 20 && y < 60) return [200, 30, 40];
  return mix(
    [30, 60, 190],
    [255, 255, 255],
    coverage(x, y, (u, v) => (u - 85) ** 2 + (v - 40) ** 2 < 22 ** 2),
  );
});
/**
 * Letters with counters on a coloured ground: a white ring whose counter is the ground's blue, a
 * black ring around a yellow dot. The trace stacks each counter on its letter (the hole is not cut).
 */
const BLUE = '#1e50c8';
const lettered = raster(160, 80, (x, y) => {
  const from = (cx: number) => Math.hypot(x + 0.5 - cx, y + 0.5 - 40);
  if (from(40) < 28 && from(40) >= 14) return [255, 255, 255];
  if (from(110) < 28 && from(110) >= 12) return [10, 10, 10];
  if (from(110) < 12) return [250, 210, 30];
  return [30, 80, 200];
});
const card = testCard();

const traces = new Map<Raster, TraceResult>();
async function traced(image: Raster): Promise<TraceResult> {
  let result = traces.get(image);
  if (!result) traces.set(image, (result = await vectorize(await png(image), { imageType: 'clipart' })));
  return result;
}

/** Every colour the SVG paints with: fills, strokes and gradient stops, as #rrggbb. */
function paints(svg: string): Set<string> {
  const colours = [...svg.matchAll(/(?:fill|stroke|stop-color)="(#[0-9a-f]{3}(?:[0-9a-f]{3})?)"/g)].map((m) => m[1]);
  return new Set(colours.map((c) => (c.length === 4 ? `#${c[1]}${c[1]}${c[2]}${c[2]}${c[3]}${c[3]}` : c)));
}

/** RGB PSNR of the SVG rendered on white against the source. */
function psnr(svg: string, source: Raster): number {
  const out = render(svg, source.width, 1, 'white');
  let sum = 0;
  for (let i = 0; i < source.data.length; i += 4) for (let c = 0; c < 3; c++) sum += (out.data[i + c] - source.data[i + c]) ** 2;
  return 10 * Math.log10(255 ** 2 / (sum / ((source.data.length / 4) * 3)));
}

function statsMatch(t: Test, rendered: { svg: string; stats: { nodes: number; paths: number } }): void {
  const counted = svgStats(rendered.svg);
  t.equal(rendered.stats.nodes, counted.nodes, 'stats.nodes are the SVG’s');
  t.equal(rendered.stats.paths, counted.paths, 'stats.paths are the SVG’s');
}

t.test('max_colors=4 on a many-colour image: at most 4 fills, fidelity falls with fewer colours', async (t) => {
  const result = await traced(wheel);
  t.ok(paints(result.svg).size > 30, `traced with ${paints(result.svg).size} colours`);
  const full = psnr(result.svg, wheel);
  const byCount = new Map<number, number>();
  for (const maxColors of [2, 4, 16]) {
    const rendered = renderDocument(result.document, { maxColors });
    t.ok(paints(rendered.svg).size <= maxColors, `max_colors=${maxColors}: ${paints(rendered.svg).size} colours`);
    byCount.set(maxColors, psnr(rendered.svg, wheel));
    statsMatch(t, rendered);
  }
  const db = (n: number) => byCount.get(n)?.toFixed(2);
  t.comment(`PSNR as traced ${full.toFixed(2)} dB; max_colors 16: ${db(16)}, 4: ${db(4)}, 2: ${db(2)}`);
  t.ok(byCount.get(2)! < byCount.get(4)! && byCount.get(4)! < byCount.get(16)!, 'more colours keep more fidelity');
  t.ok(byCount.get(16)! <= full + 0.01, 'no reduction beats the trace');
});

t.test('max_colors counts gradient stops as colours', async (t) => {
  const result = await traced(ramp);
  t.match(result.svg, /<linearGradient|<radialGradient/, 'the ramp is a gradient');
  const rendered = renderDocument(result.document, { maxColors: 2 });
  t.ok(paints(rendered.svg).size <= 2, `${[...paints(rendered.svg)].join(' ')}`);
});

t.test('a palette of 3 gives exactly those 3 colours, stops included', async (t) => {
  const palette = ['#c81e28', '#1e3cbe', '#ffffff'];
  const rendered = renderDocument((await traced(logo)).document, { palette });
  t.same([...paints(rendered.svg)].sort(), [...palette].sort());
  const stops = renderDocument((await traced(ramp)).document, { palette: ['#000000', '#ffff00', '#ff0000'] });
  t.ok(
    [...paints(stops.svg)].every((c) => ['#000000', '#ffff00', '#ff0000'].includes(c)),
    'gradient stops snap too',
  );
  statsMatch(t, rendered);
});

t.test('background=remove on a logo on white: no white shape, transparent where the white was', async (t) => {
  const result = await traced(logo);
  t.ok(
    [...paints(result.svg)].some((c) => c === '#ffffff'),
    'the trace has a white shape',
  );
  for (const background of ['remove', '#ffffff']) {
    const rendered = renderDocument(result.document, { background });
    t.notOk(paints(rendered.svg).has('#ffffff'), `${background}: no white shape`);
    const out = render(rendered.svg, logo.width);
    const alpha = (x: number, y: number) => out.data[(y * logo.width + x) * 4 + 3];
    t.equal(alpha(2, 2), 0, 'a corner is transparent');
    t.equal(alpha(60, 40), 0, 'between the shapes is transparent');
    t.equal(alpha(30, 40), 255, 'the square is painted');
    t.equal(alpha(85, 40), 255, 'the disc is painted');
    statsMatch(t, rendered);
  }
});

t.test('group_by=color: one Inkscape layer per colour, bottom to top as first stacked', async (t) => {
  const result = await traced(logo);
  const rendered = renderDocument(result.document, { groupBy: 'color' });
  const { svg } = rendered;
  t.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" xmlns:inkscape="http:\/\/www\.inkscape\.org\/namespaces\/inkscape" /);
  const layers = [...svg.matchAll(/<g id="([^"]+)" inkscape:groupmode="layer" inkscape:label="([^"]+)">([\s\S]*?)<\/g>/g)];
  const colours = [...svg.matchAll(/<(?:path|circle|ellipse) fill="([^"]+)"/g)].map((m) => m[1]);
  t.equal(layers.length, new Set(colours).size, 'a layer per colour');
  t.equal(new Set(layers.map((l) => l[1])).size, layers.length, 'ids are unique');
  // a colour's layer is named by the colour, a gradient's by its id
  const labelOf = (paint: string) => paint.replace(/^url\(#(\w+)\)$/, 'gradient $1');
  for (const [, , label, body] of layers) {
    const inside = [...body.matchAll(/fill="([^"]+)"/g)].map((m) => labelOf(m[1]));
    t.ok(inside.length > 0 && inside.every((c) => c === label), `layer ${label} holds its colour only`);
  }
  const firstSeen = [...new Set([...result.svg.matchAll(/<(?:path|circle|ellipse) fill="([^"]+)"/g)].map((m) => m[1]))];
  t.same(
    layers.map((l) => l[2]),
    firstSeen.map(labelOf),
    'layers in stacking order',
  );
  t.ok(render(svg, logo.width).width === logo.width, 'resvg reads the namespaced document');
  statsMatch(t, rendered);
});

t.test('group_by=color draws the same picture: a counter stays on top of its letter', async (t) => {
  for (const [name, image] of [
    ['test card', card],
    ['letters', lettered],
  ] as const) {
    const result = await traced(image);
    const grouped = renderDocument(result.document, { groupBy: 'color' });
    const layers = [...grouped.svg.matchAll(/inkscape:groupmode="layer"/g)].length;
    t.equal(layers, new Set([...result.svg.matchAll(/fill="([^"]+)"/g)].map((m) => m[1])).size, `${name}: one layer per colour`);
    // anti-aliased edges drawn as one evenodd path or two shapes may differ by a level or two
    const wrong = mismatch(render(result.svg, image.width), render(grouped.svg, image.width), 8);
    t.equal(wrong, 0, `${name}: ${(wrong * 100).toFixed(2)} % of pixels changed`);
    statsMatch(t, grouped);
  }
});

t.test('group_by=color and a left-out colour keep a hidden outline’s shortcut hidden', async (t) => {
  const art = hiddenShortcutArt();
  const result = await traced(art);
  const items = result.document.style === 'fill' ? result.document.items : [];
  const blue = items.find((item) => item.paint === '#285aaa');
  t.ok(blue?.kind === 'fill' && blue.withoutShortcuts !== undefined, 'the blue outline takes a shortcut under the band and the dot');
  // the server keeps the document as JSON (POST /v1/jobs/{id}/render draws it from there)
  const kept = JSON.parse(JSON.stringify(result.document));
  const traced1x = render(result.svg, art.width, 1, 'white');
  for (const controls of [{ groupBy: 'color' as const }, { background: '#ffffff' }, { background: '#ffffff', groupBy: 'color' as const }]) {
    const drawn = renderDocument(kept, controls);
    // composited on white, a left-out white is the same picture
    const wrong = mismatch(traced1x, render(drawn.svg, art.width, 1, 'white'), 8);
    t.equal(wrong, 0, `${JSON.stringify(controls)}: ${(wrong * 100).toFixed(2)} % of pixels changed`);
    statsMatch(t, drawn);
  }
});

/**
 * A white dot on a light panel on a blue card, on white: group_by=color puts the dot (white, the
 * page's colour) below both, so it is cut out of the two.
 */
const nested = raster(120, 90, (x, y) => {
  const card = coverage(x, y, (u, v) => u >= 8.3 && u < 111.6 && v >= 7.4 && v < 82.7);
  const panel = coverage(x, y, (u, v) => u >= 24.6 && u < 95.2 && v >= 20.3 && v < 70.5);
  const dot = coverage(x, y, (u, v) => Math.hypot(u - 60.2, v - 45.4) < 13.7);
  return mix([255, 255, 255], mix([200, 205, 210], mix([30, 60, 150], [255, 255, 255], card), panel), dot);
});

t.test('a shape cut out of two shapes it lay in keeps one anti-aliased edge', async (t) => {
  const result = await traced(nested);
  const grouped = renderDocument(result.document, { groupBy: 'color' });
  t.equal((grouped.svg.match(/fill-rule="evenodd"/g) ?? []).length, 2, 'the dot is cut out of the card and the panel');
  const wrong = mismatch(render(result.svg, nested.width, 1, 'white'), render(grouped.svg, nested.width, 1, 'white'), 8);
  t.equal(wrong, 0, `${(wrong * 100).toFixed(2)} % of pixels changed`);
  statsMatch(t, grouped);
});

t.test('background=#rrggbb takes a left-out shape’s hole with it: the page shows there', async (t) => {
  const { document } = await traced(lettered);
  const [white, blue, yellow, black] = [
    [255, 255, 255],
    [30, 80, 200],
    [250, 210, 30],
    [10, 10, 10],
  ];
  // per left-out colour: points (x, y) and what must be there, null for transparent
  const cases: Array<[string, Array<[number, number, number[] | null, string]>]> = [
    [
      BLUE,
      [
        [2, 2, null, 'the ground'],
        [40, 40, null, 'the white letter’s counter'],
        [61, 40, white, 'the white letter'],
        [110, 40, yellow, 'the yellow dot'],
        [131, 40, black, 'the black letter'],
      ],
    ],
    [
      '#ffffff',
      [
        [61, 40, null, 'the white letter, not the ground below it'],
        [20, 40, null, 'the white letter across its width'],
        [40, 40, blue, 'its counter'],
        [2, 2, blue, 'the ground'],
        [110, 40, yellow, 'the other letter’s dot'],
      ],
    ],
    [
      '#fad21e',
      [
        [110, 40, null, 'the dot, a hole in the black letter'],
        [131, 40, black, 'the ring around it'],
      ],
    ],
  ];
  for (const [background, points] of cases) {
    const out = render(renderDocument(document, { background }).svg, lettered.width);
    for (const [x, y, expected, what] of points) {
      const i = (y * out.width + x) * 4;
      const seen = out.data[i + 3] === 0 ? null : [...out.data.subarray(i, i + 4)];
      t.same(seen, expected === null ? null : [...expected, 255], `${background} left out: ${what}`);
    }
  }
});

t.test('width=100 unit=mm: the root is 100mm wide, the aspect kept, the viewBox unchanged', async (t) => {
  const { document } = await traced(logo);
  const root = (controls: Parameters<typeof renderDocument>[1]) => /^<svg [^>]*>/.exec(renderDocument(document, controls).svg)![0];
  t.match(root({ width: 100, unit: 'mm' }), / viewBox="0 0 120 80" width="100mm" height="66\.667mm">$/);
  t.match(root({ height: 2, unit: 'in' }), / width="3in" height="2in">$/);
  t.match(root({ width: 50, height: 10, unit: 'cm' }), / width="50cm" height="10cm">$/, 'both sides as given');
  t.match(root({ unit: 'in', dpi: 40 }), / width="3in" height="2in">$/, 'no size: the pixels at dpi');
  t.match(root({ unit: 'pt' }), / width="90pt" height="60pt">$/, '96 px per inch by default');
  t.match(root({ width: 240 }), / viewBox="0 0 120 80" width="240" height="160">$/, 'px without a suffix');
});
