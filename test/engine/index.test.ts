import t from 'tap';
import { vectorize } from '../../engine/index.js';
import type { Progress } from '../../engine/types.js';
import { countMatches, coverage, mismatch, mix, png, raster, render, testCard } from './helpers/images.js';

t.test('close_seams=false paints an exact partition: the flat test card comes back almost pixel for pixel', async (t) => {
  const card = testCard();
  const result = await vectorize(await png(card), { imageType: 'clipart', closeSeams: false, smoothing: 'off' });
  t.match(result.svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 96 72" width="96" height="72">/);
  t.equal(result.width, 96);
  t.equal(result.mode, 'clipart');
  // Only anti-aliased boundary pixels of the disc and triangle may differ noticeably.
  t.ok(mismatch(card, render(result.svg, 96, 1, 'white'), 48) < 0.03, 'few pixels differ');
  t.equal(countMatches(result.svg, /class="u"/g), 0, 'no underlap strokes');
  t.equal(result.stats.paths, countMatches(result.svg, /<(path|circle|ellipse) /g));
  t.ok(result.stats.nodes > 0);
});

/** Each shape of the SVG rendered alone, in black on nothing, at `zoom`: its coverage of every output pixel (0..255). */
function shapeCoverages(svg: string, width: number, zoom: number): Uint8Array[] {
  const paths = svg.match(/<path [^>]*\/>/g) ?? [];
  const head = svg.slice(0, svg.indexOf('>') + 1);
  return paths.map((path) => {
    const alone = `${head}${path.replace(/fill="[^"]*"/, 'fill="#000"')}</svg>`;
    const out = render(alone, width, zoom);
    const alpha = new Uint8Array(out.width * out.height);
    for (let i = 0; i < alpha.length; i++) alpha[i] = out.data[4 * i + 3];
    return alpha;
  });
}

t.test('close_seams=false: the shapes cover every point of the image exactly once (no gap, no double cover)', async (t) => {
  // the test card drawn anti-aliased, so its edges land between pixel centres
  const samples = 8;
  const flat = testCard(96 * samples, 72 * samples);
  const card = raster(96, 72, (x, y) => {
    const sum = [0, 0, 0];
    for (let j = 0; j < samples; j++)
      for (let i = 0; i < samples; i++)
        for (let c = 0; c < 3; c++) sum[c] += flat.data[((y * samples + j) * 96 * samples + x * samples + i) * 4 + c];
    return sum.map((v) => Math.round(v / samples / samples)) as [number, number, number];
  });
  const result = await vectorize(await png(card), { imageType: 'clipart', closeSeams: false });
  const zoom = 4;
  const coverages = shapeCoverages(result.svg, 96, zoom);
  t.equal(coverages.length, result.stats.paths, 'the stats count the paths written');
  let gaps = 0,
    doubles = 0,
    worst = 0;
  for (let i = 0; i < coverages[0].length; i++) {
    let total = 0;
    for (const c of coverages) total += c[i];
    worst = Math.max(worst, Math.abs(total - 255));
    if (total < 255 - 40) gaps++;
    if (total > 255 + 40) doubles++;
  }
  t.equal(gaps, 0, 'no point is left uncovered');
  t.equal(doubles, 0, `no point is covered twice (worst deviation ${worst} of 255)`);
});

/** Pixels along the edge that are clearly lighter than both colours: a hairline of page showing through. */
function hairlinePixels(svg: string, width: number, zoom: number, lightest: number): number {
  const out = render(svg, width, zoom, 'white');
  let light = 0;
  for (let i = 0; i < out.width * out.height; i++) {
    const luma = 0.299 * out.data[i * 4] + 0.587 * out.data[i * 4 + 1] + 0.114 * out.data[i * 4 + 2];
    if (luma > lightest + 12) light++;
  }
  return light;
}

t.test('a diagonal edge shows a light hairline with close_seams=false and none with true, at 1× and 8×', async (t) => {
  const dark: [number, number, number] = [150, 20, 20];
  const other: [number, number, number] = [20, 20, 150];
  const image = raster(64, 48, (x, y) => (y < 0.6 * x + 6 ? dark : other));
  const bytes = await png(image);
  const lightest = Math.max(0.299 * 150 + 0.587 * 20 + 0.114 * 20, 0.299 * 20 + 0.587 * 20 + 0.114 * 150);
  const open = await vectorize(bytes, { imageType: 'clipart', closeSeams: false });
  const closed = await vectorize(bytes, { imageType: 'clipart', closeSeams: true });
  for (const zoom of [1, 8]) {
    t.ok(hairlinePixels(open.svg, 64, zoom, lightest) > 0, `hairline without seam closing at ${zoom}×`);
    t.equal(hairlinePixels(closed.svg, 64, zoom, lightest), 0, `no hairline with seam closing at ${zoom}×`);
  }
  t.notMatch(closed.svg, /stroke|class="u"/, 'the seam is closed by the fills themselves, with no stroke');
});

t.test('with close_seams the shape below runs at least 0.75 px under the one above, by its own outline', async (t) => {
  const line = (x: number, y: number) => (0.6 * x + 6 - y) / Math.hypot(0.6, 1); // > 0 above the edge
  const image = raster(64, 48, (x, y) =>
    mix(
      [150, 20, 20],
      [20, 20, 150],
      coverage(x, y, (sx, sy) => line(sx, sy) > 0),
    ),
  );
  const closed = await vectorize(await png(image), { imageType: 'clipart', closeSeams: true });
  const paths = closed.svg.match(/<path [^>]*\/>/g) ?? [];
  t.equal(paths.length, 2);
  // the lower shape alone, on nothing: which pixels does it cover?
  const lower = closed.svg.replace(paths[1], '');
  const zoom = 4;
  const out = render(lower, 64, zoom);
  let side = 0;
  for (let y = 0; y < out.height; y++)
    for (let x = 0; x < out.width; x++)
      if (Math.abs(line((x + 0.5) / zoom, (y + 0.5) / zoom)) > 3)
        side += out.data[(y * out.width + x) * 4 + 3] === 255 ? Math.sign(line((x + 0.5) / zoom, (y + 0.5) / zoom)) : 0;
  let uncovered = 0,
    checked = 0;
  for (let y = 0; y < out.height; y++) {
    for (let x = 0; x < out.width; x++) {
      const px = (x + 0.5) / zoom,
        py = (y + 0.5) / zoom;
      if (px < 3 || py < 3 || px > 61 || py > 45) continue;
      const into = -Math.sign(side) * line(px, py); // how far past the true edge, into the shape above
      if (into < 0 || into > 0.6) continue;
      checked++;
      if (out.data[(y * out.width + x) * 4 + 3] < 255) uncovered++;
    }
  }
  t.ok(checked > 500);
  t.equal(uncovered, 0, 'every point up to 0.6 px past the true edge is under the lower shape');
});

t.test('the shape on top keeps its exact edge when seams are closed', async (t) => {
  const card = testCard();
  const bytes = await png(card);
  const open = await vectorize(bytes, { imageType: 'clipart', closeSeams: false });
  const closed = await vectorize(bytes, { imageType: 'clipart', closeSeams: true });
  // Rendered, the two differ only where a hairline was: never more than a few boundary pixels.
  t.ok(mismatch(render(open.svg, 96, 1, 'white'), render(closed.svg, 96, 1, 'white'), 40) < 0.01);
});

t.test('transparent input stays transparent', async (t) => {
  const image = raster(60, 40, (x, y) => {
    const dx = x - 40,
      dy = y - 20;
    if (dx * dx + dy * dy < 12 * 12) return [200, 30, 30, 255];
    if (x < 20) return [0, 0, 0, 0];
    return [240, 240, 240, 255];
  });
  for (const closeSeams of [true, false]) {
    const result = await vectorize(await png(image), { imageType: 'clipart', closeSeams });
    const out = render(result.svg, 60);
    let leaked = 0,
      painted = 0;
    for (let y = 1; y < 39; y++) {
      for (let x = 1; x < 59; x++) {
        let clearAround = true;
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) if (image.data[((y + dy) * 60 + x + dx) * 4 + 3] !== 0) clearAround = false;
        const alpha = out.data[(y * 60 + x) * 4 + 3];
        if (clearAround && alpha !== 0) leaked++;
        if (x > 25 && alpha === 255) painted++;
      }
    }
    t.equal(leaked, 0, `nothing painted where the input is transparent (close_seams=${closeSeams})`);
    t.ok(painted > 30 * 30, 'the opaque part is painted');
  }
});

t.test('the same input and options give byte-identical SVG', async (t) => {
  const bytes = await png(testCard());
  const a = await vectorize(bytes, { imageType: 'photo' });
  const b = await vectorize(bytes, { imageType: 'photo' });
  t.equal(a.svg, b.svg);
});

/** A busy image with many close colours: blotches of noise-like texture over two tones. */
function busyImage() {
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const blotch = new Float64Array(12 * 9).map(() => random());
  return raster(96, 72, (x, y) => {
    const v = blotch[Math.floor(y / 8) * 12 + Math.floor(x / 8)];
    const base = x < 48 ? 60 : 170;
    const level = Math.round(base + v * 50);
    return [level, Math.round(level * 0.8), 255 - level];
  });
}

t.test('detail: low merges more than high', async (t) => {
  const bytes = await png(busyImage());
  const paths: Record<string, number> = {};
  for (const detail of ['low', 'medium', 'high'] as const) {
    paths[detail] = (await vectorize(bytes, { imageType: 'clipart', detail, closeSeams: false })).stats.paths;
  }
  t.ok(paths.low < paths.medium, `low ${paths.low} < medium ${paths.medium}`);
  t.ok(paths.medium < paths.high, `medium ${paths.medium} < high ${paths.high}`);
});

t.test('gradients: smooth paints a ramp with a gradient, stepped and auto keep flat fills', async (t) => {
  const ramp = raster(120, 60, (x) => [Math.round(30 + x * 1.8), 80, Math.round(230 - x * 1.6)]);
  const bytes = await png(ramp);
  const smooth = await vectorize(bytes, { imageType: 'clipart', gradients: 'smooth' });
  t.match(smooth.svg, /<linearGradient|<radialGradient/);
  t.match(smooth.svg, /fill="url\(#g/);
  for (const gradients of ['stepped', 'auto'] as const) {
    const flat = await vectorize(bytes, { imageType: 'clipart', gradients });
    t.notMatch(flat.svg, /Gradient/, `${gradients} has no gradient`);
    t.ok(flat.stats.paths > 1, `${gradients} bands the ramp into flat shapes`);
  }
});

t.test('smoothing: off keeps a disc as corners and lines, maximum as a few curves', async (t) => {
  const disc = raster(80, 80, (x, y) => ((x + 0.5 - 40) ** 2 + (y + 0.5 - 40) ** 2 < 28 * 28 ? [20, 20, 20] : [255, 255, 255]));
  const bytes = await png(disc);
  const off = await vectorize(bytes, { imageType: 'clipart', smoothing: 'off', closeSeams: false });
  const maximum = await vectorize(bytes, { imageType: 'clipart', smoothing: 'maximum', closeSeams: false });
  const curves = (svg: string) =>
    countMatches(svg, /<circle |<ellipse /g) + [...svg.matchAll(/ d="([^"]*)"/g)].reduce((n, m) => n + countMatches(m[1], /[cCaA]/g), 0);
  t.equal(curves(off.svg), 0, 'off: no curves, arcs or circles');
  t.ok(curves(maximum.svg) > 0, 'maximum: a circle or curves');
  t.not(off.svg, maximum.svg);
});

t.test('image_type presets trace differently', async (t) => {
  const bytes = await png(busyImage());
  const svgs = new Set<string>();
  for (const imageType of ['clipart', 'photo', 'scan', 'blueprint'] as const) {
    const result = await vectorize(bytes, { imageType });
    t.equal(result.mode, imageType, 'an explicit type is used as given');
    svgs.add(result.svg);
  }
  t.ok(svgs.size >= 3, `at least three different traces (${svgs.size})`);
});

t.test('progress is reported by stage, never goes back and reaches 1', async (t) => {
  const seen: Progress[] = [];
  await vectorize(await png(testCard()), { imageType: 'clipart' }, { onProgress: (p) => seen.push(p) });
  t.ok(seen.length >= 6);
  for (let i = 1; i < seen.length; i++) t.ok(seen[i].fraction >= seen[i - 1].fraction, 'monotonic');
  t.equal(seen[seen.length - 1].fraction, 1);
  t.same([...new Set(seen.map((p) => p.stage))], ['decode', 'classify', 'prepare', 'segment', 'fit', 'write']);
});

t.test('aborting rejects with canceled, before the start or between stages', async (t) => {
  const bytes = await png(testCard());
  const before = new AbortController();
  before.abort();
  await t.rejects(vectorize(bytes, { imageType: 'clipart' }, { signal: before.signal }), { code: 'canceled' });
  const during = new AbortController();
  await t.rejects(
    vectorize(
      bytes,
      { imageType: 'clipart' },
      {
        signal: during.signal,
        onProgress: (p) => {
          if (p.stage === 'segment') during.abort();
        },
      },
    ),
    { code: 'canceled' },
  );
});

t.test('bad input keeps its typed error', async (t) => {
  await t.rejects(vectorize(new Uint8Array(0)), { code: 'empty_file' });
  await t.rejects(vectorize(new TextEncoder().encode('GIF89a not really')), { code: 'unsupported_format' });
});

t.test('trace_style=centerline hands the decoded image to the centerline tracer', async (t) => {
  const drawing = raster(80, 60, (x, y) => (Math.abs(y - 30) <= 1 && x > 10 && x < 70 ? [0, 0, 0] : [255, 255, 255]));
  const seen: string[] = [];
  const result = await vectorize(
    await png(drawing),
    { imageType: 'blueprint', traceStyle: 'centerline' },
    { onProgress: (p) => seen.push(p.stage) },
  );
  t.match(result.svg, /fill="none"/);
  t.match(result.svg, /stroke/);
  t.ok(result.stats.paths >= 1);
  t.equal(result.mode, 'blueprint');
  t.ok(seen.includes('write'));
});
