import t from 'tap';
import { MAX_ZOOM, MIN_ZOOM, clampZoom, fitZoom, nextZoom } from '../../../app/renderer/viewer.js';

t.test('zoom steps reach 800 % and stop there', async (t) => {
  let zoom = 1;
  const seen = [zoom];
  for (let i = 0; i < 20; i++) seen.push((zoom = nextZoom(zoom, 1)));
  t.equal(zoom, 8);
  t.equal(MAX_ZOOM, 8);
  t.same(seen.slice(0, 8), [1, 1.5, 2, 3, 4, 6, 8, 8]);
  t.equal(nextZoom(8, -1), 6);
  t.equal(nextZoom(0.3, -1), 0.25, 'an in-between zoom steps to the next lower step');
  t.equal(nextZoom(MIN_ZOOM, -1), MIN_ZOOM);
});

t.test('clamp and fit', async (t) => {
  t.equal(clampZoom(100), 8);
  t.equal(clampZoom(0), MIN_ZOOM);
  t.equal(fitZoom(2000, 1000, 1048, 1048), 0.5, 'a large image is scaled down to the pane minus margins');
  t.equal(fitZoom(16, 16, 800, 600), 1, 'a small icon is not blown up by fit');
  t.equal(fitZoom(0, 0, 800, 600), 1);
});
