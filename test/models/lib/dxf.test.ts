import t from 'tap';
import { dxfToSvg, parseDxfShapes } from '../../../models/lib/dxf.js';

const dxf = (entities: string[][]) => ['0', 'SECTION', '2', 'ENTITIES', ...entities.flat(), '0', 'ENDSEC', '0', 'EOF'].join('\n');

t.test('LINE, CIRCLE, ARC and LWPOLYLINE entities become shapes', async (t) => {
  const text = dxf([
    ['0', 'LINE', '8', '0', '10', '0', '20', '0', '11', '10', '21', '0'],
    ['0', 'CIRCLE', '10', '5', '20', '5', '40', '2'],
    ['0', 'ARC', '10', '0', '20', '0', '40', '3', '50', '0', '51', '90'],
    ['0', 'LWPOLYLINE', '90', '3', '70', '1', '10', '0', '20', '0', '10', '4', '20', '0', '10', '4', '20', '4'],
    ['0', 'TEXT', '10', '1', '20', '1', '1', 'ignored'],
  ]);
  const shapes = parseDxfShapes(text);
  t.same(
    shapes.map((s) => s.kind),
    ['line', 'circle', 'arc', 'poly'],
  );
  const svg = dxfToSvg(text, 200);
  t.match(svg, /^<svg [^>]*width="200"/);
  t.match(svg, /<path d="M[^"]+Z/);
});

t.test('a drawing with too little in it gives no SVG', async (t) => {
  t.equal(dxfToSvg(dxf([['0', 'LINE', '10', '0', '20', '0', '11', '1', '21', '1']]), 100), null);
  t.equal(dxfToSvg('not a dxf', 100), null);
});
