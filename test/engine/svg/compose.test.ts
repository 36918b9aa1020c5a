import t from 'tap';
import { vectorize } from '../../../engine/index.js';
import { mismatch, png, raster, render } from '../helpers/images.js';

/** A thin dark ring round a light disc larger than the ring itself, on white: an outlined drawing. */
function outlinedDisc() {
  const inside = (x: number, y: number, radius: number) => (x - 48) ** 2 + (y - 48) ** 2 < radius * radius;
  return raster(96, 96, (x, y) => {
    let ring = 0,
      disc = 0;
    // 4×4 samples a pixel: anti-aliased edges, as a renderer draws them
    for (let j = 0; j < 4; j++)
      for (let i = 0; i < 4; i++) {
        const sx = x + (i + 0.5) / 4,
          sy = y + (j + 0.5) / 4;
        if (inside(sx, sy, 27)) disc++;
        else if (inside(sx, sy, 31)) ring++;
      }
    const colour = (c: number[]) => ((ring * c[0] + disc * c[1] + (16 - ring - disc) * 255) / 16) | 0;
    return [colour([60, 200]), colour([60, 220]), colour([60, 160])];
  });
}

const subpaths = (d: string) => (d.match(/[Mm]/g) ?? []).length;

t.test('stacked shapes: an outline ring goes under the larger disc it encloses and its hole is not cut', async (t) => {
  const image = outlinedDisc();
  const bytes = await png(image);
  const stacked = await vectorize(bytes, { imageType: 'clipart', closeSeams: true });
  const items = stacked.svg.match(/<(path|circle|ellipse) [^>]*\/>/g) ?? [];
  // the white page first, then the ring (its fill may be a gradient: its anti-aliased rims ramp) and the disc
  t.equal(items.length, 3, 'page, ring and disc, each one shape');
  const discAt = items.findIndex((item) => /fill="#c[78]d[bc][9a]/.test(item));
  const ringAt = 3 - discAt;
  t.ok(discAt > 0, 'the disc keeps its colour');
  t.ok(ringAt < discAt, 'the ring is painted first although its area is the smaller');
  const ringPath = items[ringAt].match(/ d="([^"]*)"/);
  t.ok(ringPath !== null && subpaths(ringPath[1]) === 1, 'the ring is one outline, with no hole cut for the disc');
  t.ok(mismatch(render(stacked.svg, 96, 1, 'white'), image, 40) < 0.01, 'and it still looks like the input');

  // an exact partition keeps the hole: nothing is painted twice
  const partition = await vectorize(bytes, { imageType: 'clipart', closeSeams: false });
  const shapes = partition.svg.match(/<(path|circle|ellipse) [^>]*\/>/g) ?? [];
  const ring = shapes.find((item, k) => k > 0 && !/fill="#c[78]d[bc][9a]/.test(item))?.match(/ d="([^"]*)"/);
  t.equal(ring ? subpaths(ring[1]) : 0, 2, 'close_seams=false: the ring is its outer outline and its hole');
});
