import t from 'tap';
import { renderDocument, vectorize } from '../../../engine/index.js';
import { VECTOR_DOCUMENT_VERSION } from '../../../engine/svg/document.js';
import { png, raster, testCard } from '../helpers/images.js';

// The trace draws its SVG through renderDocument: drawing the kept document again (after a trip
// through JSON, as the server keeps it) with the default controls gives the same bytes and stats.

const ring = raster(90, 70, (x, y) => {
  const r = Math.hypot(x - 45, y - 35);
  return r > 14 && r < 24 ? [0, 0, 0] : [250, 250, 245];
});

const cases = [
  { name: 'fill', image: testCard(), options: { imageType: 'clipart' as const } },
  { name: 'centerline', image: ring, options: { imageType: 'blueprint' as const, traceStyle: 'centerline' as const } },
];

for (const { name, image, options } of cases) {
  t.test(`${name}: the kept document draws the same SVG again`, async (t) => {
    const result = await vectorize(await png(image), options);
    t.equal(result.document.version, VECTOR_DOCUMENT_VERSION);
    t.equal(result.document.style, options.traceStyle ?? 'fill');
    const kept = JSON.parse(JSON.stringify(result.document));
    const again = renderDocument(kept);
    t.equal(again.svg, result.svg, 'same bytes');
    t.equal(again.stats.nodes, result.stats.nodes, 'same nodes');
    t.equal(again.stats.paths, result.stats.paths, 'same shapes');
    t.equal(again.stats.bytes, result.stats.bytes, 'same size');
  });
}

t.test('a document traced smaller than its input keeps the input size on the root, the viewBox traced', async (t) => {
  const { svg } = renderDocument({
    version: VECTOR_DOCUMENT_VERSION,
    style: 'fill',
    width: 60,
    height: 30,
    displayWidth: 200,
    displayHeight: 100,
    gradients: [],
    items: [{ kind: 'fill', paint: '#123', d: 'M0 0h60v30h-60z' }],
  });
  t.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 60 30" width="200" height="100">/);
});
