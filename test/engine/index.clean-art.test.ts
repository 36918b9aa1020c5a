/**
 * Clean vector art, end to end (issue #13's "Done when" unit tests): what a designer checks when
 * zooming into the SVG of a rendered drawing.
 */
import t from 'tap';
import { vectorize } from '../../engine/index.js';
import { coverage, mix, png, raster, render } from './helpers/images.js';

/** End points of every segment of a path's d (absolute), for the commands the writer uses. */
function segmentEnds(d: string): Array<[number, number, number, number]> {
  const tokens = d.match(/[a-zA-Z]|-?(?:\d*\.\d+|\d+)/g) ?? [];
  const ends: Array<[number, number, number, number]> = [];
  const arity: Record<string, number> = { m: 2, l: 2, h: 1, v: 1, c: 6, a: 7, z: 0 };
  let i = 0,
    command = '',
    x = 0,
    y = 0,
    sx = 0,
    sy = 0;
  while (i < tokens.length) {
    if (/[a-zA-Z]/.test(tokens[i])) command = tokens[i++];
    const lower = command.toLowerCase(),
      relative = command === lower;
    const args = tokens.slice(i, i + arity[lower]).map(Number);
    i += arity[lower];
    let nx = x,
      ny = y;
    if (lower === 'z') [nx, ny] = [sx, sy];
    else if (lower === 'h') nx = relative ? x + args[0] : args[0];
    else if (lower === 'v') ny = relative ? y + args[0] : args[0];
    else {
      const [ex, ey] = args.slice(-2);
      [nx, ny] = relative ? [x + ex, y + ey] : [ex, ey];
    }
    if (lower === 'm') {
      [sx, sy] = [nx, ny];
      command = relative ? 'l' : 'L';
    } else ends.push([x, y, nx, ny]);
    [x, y] = [nx, ny];
  }
  return ends;
}

t.test('an anti-aliased disc traces to one circle or ellipse within 0.25 px of its true radius', async (t) => {
  for (const [cx, cy, radius] of [
    [32.4, 30.7, 17.3],
    [40.2, 36.9, 25.6],
    [20.5, 22.25, 9.8],
  ]) {
    const image = raster(80, 72, (x, y) =>
      mix(
        [40, 90, 170],
        [255, 255, 255],
        coverage(x, y, (sx, sy) => (sx - cx) ** 2 + (sy - cy) ** 2 < radius * radius),
      ),
    );
    const { svg } = await vectorize(await png(image), { imageType: 'clipart' });
    const round = svg.match(/<(circle|ellipse) [^>]*\/>/g) ?? [];
    t.equal(round.length, 1, `r=${radius}: one round element`);
    const number = (name: string) => Number((round[0]?.match(new RegExp(` ${name}="([^"]*)"`)) ?? [])[1]);
    const radii = /<circle/.test(round[0] ?? '') ? [number('r')] : [number('rx'), number('ry')];
    for (const r of radii) t.ok(Math.abs(r - radius) <= 0.25, `r=${radius}: fitted radius ${r} within 0.25 px`);
    t.ok(Math.hypot(number('cx') - cx, number('cy') - cy) <= 0.25, `r=${radius}: centre within 0.25 px`);
  }
});

t.test('an anti-aliased straight edge at any angle traces to one segment', async (t) => {
  const W = 64,
    H = 48;
  for (const degrees of [4, 17, 31, 45, 58, 72, 86, 101, 124, 139, 163]) {
    const angle = (degrees * Math.PI) / 180;
    // the edge through the image's centre; the dark side is where the normal points
    const nx = -Math.sin(angle),
      ny = Math.cos(angle);
    const image = raster(W, H, (x, y) =>
      mix(
        [150, 30, 40],
        [240, 220, 160],
        coverage(x, y, (sx, sy) => (sx - W / 2) * nx + (sy - H / 2) * ny > 0),
      ),
    );
    const { svg } = await vectorize(await png(image), { imageType: 'clipart' });
    const paths = [...svg.matchAll(/<path [^>]*d="([^"]*)"/g)].map((m) => m[1]);
    t.equal(paths.length, 2, `${degrees}°: two shapes`);
    // the shape on top keeps the exact edge: its segments off the image frame are the edge
    const near = (a: number, b: number) => Math.abs(a - b) < 1e-6; // relative path data sums in floating point
    const onFrame = (x0: number, y0: number, x1: number, y1: number) =>
      (near(x0, x1) && (near(x0, 0) || near(x0, W))) || (near(y0, y1) && (near(y0, 0) || near(y0, H)));
    const inner = segmentEnds(paths[1] ?? '').filter(([x0, y0, x1, y1]) => !onFrame(x0, y0, x1, y1) && Math.hypot(x1 - x0, y1 - y0) > 0.05);
    t.equal(inner.length, 1, `${degrees}°: the edge is one segment (${paths[1]})`);
  }
});

t.test('a radial-gradient disc round-trips to one shape with a radial gradient, rendered close to the input', async (t) => {
  const cx = 36.3,
    cy = 33.6,
    radius = 26.5;
  const image = raster(72, 68, (x, y) => {
    const inside = coverage(x, y, (sx, sy) => (sx - cx) ** 2 + (sy - cy) ** 2 < radius * radius);
    // a shaded ball: light at a highlight up and left of the centre, darker towards the rim
    const d = Math.min(1, Math.hypot(x + 0.5 - (cx - 6), y + 0.5 - (cy - 7)) / (radius + 8));
    return mix(mix([250, 214, 150], [170, 60, 30], 1 - d), [255, 255, 255], inside);
  });
  const { svg } = await vectorize(await png(image), { imageType: 'clipart' });
  const shapes = svg.match(/<(path|circle|ellipse) [^>]*\/>/g) ?? [];
  const ball = shapes.filter((shape) => /fill="url\(#/.test(shape));
  t.equal(ball.length, 1, 'the ball is one shape');
  const id = (ball[0]?.match(/url\(#([^)]+)\)/) ?? [])[1];
  t.match(svg, new RegExp(`<radialGradient id="${id}"`), 'filled with a radial gradient');
  // rendered error inside the ball, away from its anti-aliased rim
  const out = render(svg, 72, 1, 'white');
  let squared = 0,
    count = 0;
  for (let y = 0; y < 68; y++)
    for (let x = 0; x < 72; x++) {
      if (Math.hypot(x + 0.5 - cx, y + 0.5 - cy) > radius - 1.5) continue;
      for (let c = 0; c < 3; c++) {
        const d = out.data[(y * 72 + x) * 4 + c] - image.data[(y * 72 + x) * 4 + c];
        squared += d * d;
        count++;
      }
    }
  const psnr = 10 * Math.log10((255 * 255) / (squared / count));
  t.ok(psnr >= 32, `PSNR inside the ball ${psnr.toFixed(1)} dB`);
});

t.test('a soft drop shadow is one ellipse filled with a radial gradient fading to transparent', async (t) => {
  const ground: [number, number, number] = [235, 240, 225];
  const [cx, cy, rx, ry] = [47.3, 33.6, 38, 17];
  // a grey shadow on a flat ground, darkest at its centre and smoothly gone at its elliptical rim
  const image = raster(96, 64, (x, y) => {
    const a = Math.max(0, 1 - Math.hypot((x + 0.5 - cx) / rx, (y + 0.5 - cy) / ry));
    return mix([60, 60, 70], ground, 0.5 * a * a * (3 - 2 * a));
  });
  const { svg } = await vectorize(await png(image), { imageType: 'clipart' });
  const shapes = svg.match(/<(path|circle|ellipse) [^>]*\/>/g) ?? [];
  t.equal(shapes.length, 2, 'the ground and the shadow, no bands');
  const id = (shapes[1]?.match(/fill="url\(#([^)]+)\)"/) ?? [])[1];
  const gradient = svg.match(new RegExp(`<radialGradient id="${id}"[^>]*>.*?</radialGradient>`))?.[0] ?? '';
  t.match(gradient, /scale\(1 \.4\d+\)/, 'elliptical rings, as flat as the shadow');
  t.match(gradient, /stop-opacity="0"\/><\/radialGradient>$/, 'the last stop is transparent');
  const out = render(svg, 96, 1, 'white');
  let squared = 0;
  for (let i = 0; i < out.data.length; i++) if (i % 4 < 3) squared += (out.data[i] - image.data[i]) ** 2;
  const psnr = 10 * Math.log10((255 * 255) / (squared / (96 * 64 * 3)));
  t.ok(psnr >= 36, `PSNR ${psnr.toFixed(1)} dB`);

  const stepped = await vectorize(await png(image), { imageType: 'clipart', gradients: 'stepped' });
  t.notMatch(stepped.svg, /Gradient/, 'gradients=stepped: no gradient');
  t.ok((stepped.svg.match(/<(path|circle|ellipse) /g) ?? []).length > 3, 'gradients=stepped: the shadow in bands');
});

t.test('an anti-aliased rectangle traces with each side within 0.1 px of where it truly lies', async (t) => {
  const colour = [40, 90, 170];
  const zoom = 8;
  for (const [left, top, right, bottom] of [
    // on the 1/8 px grid of the raster's 8×8 coverage samples, so the pixels say exactly where the edges are
    [10.375, 12.625, 40.75, 35.25],
    [11.5, 9.25, 37.125, 41.625],
    [8.875, 14.375, 44.375, 30.125],
  ]) {
    const W = 56,
      H = 50;
    const image = raster(W, H, (x, y) =>
      mix(
        colour,
        [255, 255, 255],
        coverage(x, y, (sx, sy) => sx >= left && sx < right && sy >= top && sy < bottom),
      ),
    );
    const { svg } = await vectorize(await png(image), { imageType: 'clipart' });
    // Each side where the rendered coverage of the colour, summed along the middle row or column,
    // says it is: an edge drawn in the wrong place and a fill that fades towards its edge (the
    // anti-aliased fringe taken for a gradient) both move it.
    const out = render(svg, W, zoom, 'white');
    const share = (x: number, y: number) => (255 - out.data[(y * out.width + x) * 4 + 1]) / (255 - colour[1]);
    const middleX = Math.round(((left + right) / 2) * zoom),
      middleY = Math.round(((top + bottom) / 2) * zoom);
    let before = 0,
      after = 0,
      above = 0,
      below = 0;
    for (let x = 0; x < middleX; x++) before += share(x, middleY);
    for (let x = middleX; x < out.width; x++) after += share(x, middleY);
    for (let y = 0; y < middleY; y++) above += share(middleX, y);
    for (let y = middleY; y < out.height; y++) below += share(middleX, y);
    const sides = {
      left: [(middleX - before) / zoom, left],
      right: [(middleX + after) / zoom, right],
      top: [(middleY - above) / zoom, top],
      bottom: [(middleY + below) / zoom, bottom],
    };
    for (const [side, [traced, truth]] of Object.entries(sides))
      t.ok(Math.abs(traced - truth) <= 0.1, `${side} at ${traced.toFixed(3)} for ${truth} (${svg.match(/<path[^>]*\/>\n(<path.*)/)?.[1]})`);
  }
});

t.test('a one-pixel strip drawn off the pixel grid keeps its colour and width when zoomed in', async (t) => {
  // dark | grey from x = 20.25 to 21.5 | light, as a renderer draws an artist's inner highlight line
  const DARK = [52, 52, 52],
    GREY = [150, 150, 150],
    LIGHT = [219, 220, 221];
  const at = (x: number) => (x < 20.25 ? DARK : x < 21.5 ? GREY : LIGHT);
  const image = raster(40, 48, (x) => {
    if (x === 20) return mix(DARK, GREY, 0.25);
    if (x === 21) return mix(GREY, LIGHT, 0.5);
    return at(x + 0.5) as [number, number, number];
  });
  const { svg } = await vectorize(await png(image), { imageType: 'clipart' });
  const zoom = 4,
    zoomed = render(svg, 40, zoom, 'white');
  // mean error (0-255) over the columns from x = 18 to 24, away from the image's top and bottom rows
  // (read as one band, the strip's column 21 comes out light: about 15)
  let error = 0,
    count = 0;
  for (let y = 8 * zoom; y < 40 * zoom; y++) {
    for (let x = 18 * zoom; x < 24 * zoom; x++) {
      error += Math.abs(zoomed.data[4 * (y * zoomed.width + x)] - at((x + 0.5) / zoom)[0]);
      count++;
    }
  }
  t.ok(error / count <= 5, `mean error ${(error / count).toFixed(1)} across the strip at ${zoom}x`);
});
