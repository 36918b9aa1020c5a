import t from 'tap';
import { countPathSegments, formatBytes, svgStats } from '../../../app/renderer/svg-stats.js';

t.test('path segments count the moveto and every drawn piece, as the benchmark does', async (t) => {
  t.equal(countPathSegments('M0 0L10 0L10 10Z'), 4, 'the move, two lines and the closing line');
  t.equal(countPathSegments('M0 0 10 0 10 10'), 3, 'pairs after a moveto are implicit linetos');
  t.equal(countPathSegments('M0,0C1,1,2,2,3,3 4,4,5,5,6,6'), 3, 'repeated curve arguments are more curves');
  t.equal(countPathSegments('m0 0h10v10h-10z'), 5, 'relative commands count the same');
  t.equal(countPathSegments('M0 0Q5 5 10 0T20 0A5 5 0 0 1 30 0'), 4);
  t.equal(countPathSegments('M-1.5e1-2.5.5.5L1 1'), 3, 'packed numbers (no separators) are split as SVG does');
  t.equal(countPathSegments('M0 0h1zm5 5h1z'), 6, 'each subpath its move');
  t.equal(countPathSegments(''), 0);
});

t.test('svgStats counts bytes, shapes and nodes over the whole document', async (t) => {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0H4V4Z" fill="#000"/><path fill="red" d=\'M1 1L2 2\'/><polygon points="0,0 1,0 1,1"/><rect width="1" height="1"/><circle r="2"/><line x2="3"/></svg>';
  const stats = svgStats(svg);
  t.equal(stats.bytes, svg.length);
  t.equal(stats.paths, 6);
  t.equal(stats.nodes, 4 + 2 + 3 + 4 + 4 + 1, 'paths, polygon points, rect and circle four, a line one');
  t.equal(svgStats('<svg>é</svg>').bytes, 13, 'bytes are UTF-8 bytes, as saved on disk');
});

t.test('formatBytes', async (t) => {
  t.equal(formatBytes(512), '512 B');
  t.equal(formatBytes(2048), '2.0 KiB');
  t.equal(formatBytes(3 * 1024 * 1024), '3.0 MiB');
  t.equal(formatBytes(60.8e6), '58.0 MiB', 'the same unit as the 50 MiB limit');
});
