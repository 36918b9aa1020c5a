import t from 'tap';
import { vectorize } from '../../engine/index.js';
import { svgStats } from '../../app/renderer/svg-stats.js';
import { coverage, mix, png, raster, testCard } from './helpers/images.js';

// The stats a client is told (API, CLI, the page) are the SVG's own: the same shapes and nodes
// the page and the benchmark count in the file (moves, closes, four per ellipse element).

const disc = raster(80, 80, (x, y) =>
  mix([20, 60, 200], [255, 255, 255], coverage(x, y, (u, v) => (u - 40) ** 2 + (v - 40) ** 2 < 26 ** 2) / 255),
);
const ring = raster(90, 70, (x, y) => {
  const r = Math.hypot(x - 45, y - 35);
  return r > 14 && r < 24 ? [0, 0, 0] : [250, 250, 245];
});
const gradient = raster(96, 64, (x, y) => (y > 8 && y < 56 ? [40 + x * 2, 90, 200 - x] : [255, 255, 255]));
const transparent = raster(64, 64, (x, y) => (Math.abs(x - 32) + Math.abs(y - 32) < 20 ? [200, 30, 30, 255] : [0, 0, 0, 0]));

const cases = [
  { name: 'flat test card', image: testCard(), options: { imageType: 'clipart' as const } },
  { name: 'test card, exact partition', image: testCard(), options: { imageType: 'clipart' as const, closeSeams: false } },
  { name: 'anti-aliased disc (an ellipse element)', image: disc, options: { imageType: 'clipart' as const } },
  { name: 'gradient band', image: gradient, options: { imageType: 'clipart' as const } },
  { name: 'transparency', image: transparent, options: { imageType: 'clipart' as const } },
  { name: 'line art in fill mode', image: ring, options: { imageType: 'scan' as const } },
  { name: 'centerline strokes', image: ring, options: { imageType: 'blueprint' as const, traceStyle: 'centerline' as const } },
];

for (const { name, image, options } of cases) {
  t.test(`${name}: stats.nodes and stats.paths are the SVG's`, async (t) => {
    const result = await vectorize(await png(image), options);
    const counted = svgStats(result.svg);
    t.ok(counted.nodes > 0, 'something was drawn');
    t.equal(result.stats.nodes, counted.nodes, 'nodes');
    t.equal(result.stats.paths, counted.paths, 'shapes');
  });
}
