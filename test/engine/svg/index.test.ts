import t from 'tap';
import { reversePath, type FittedPath } from '../../../engine/fit/index.js';
import { FittedChains } from '../../../engine/fit/chain.js';
import { PathWriter, hexColour, writeSvg } from '../../../engine/svg/index.js';

/** A path of straight lines from the first point through the others. */
function polyline(...points: [number, number][]): FittedPath {
  const [[x, y], ...rest] = points;
  return { start: { x, y }, segments: rest.map(([x, y]) => ({ kind: 'L' as const, x, y })) };
}

t.test('paths are written relative, on a 0.1 px grid, with h/v for axis-aligned lines', async (t) => {
  const w = new PathWriter();
  w.append(
    {
      start: { x: 10, y: 20 },
      segments: [
        { kind: 'L', x: 15, y: 20 },
        { kind: 'L', x: 15, y: 12.04 },
        { kind: 'L', x: 10.5, y: 10 },
        { kind: 'C', x1: 9, y1: 9, x2: 8, y2: 9, x: 7.25, y: 10 },
      ],
    },
    false,
  );
  w.close();
  t.equal(w.toString(), 'M10 20h5v-8l-4.5-2c-1.5-1-2.5-1-3.2 0z');
  t.equal(w.segments, 6, 'the move, four drawn pieces and the close');
});

t.test('a last line back to the start is left to z; a curve back to it is not', async (t) => {
  const square = new PathWriter();
  square.append(polyline([0, 0], [4, 0], [4, 3], [0, 3], [0, 0]), false);
  square.close();
  square.append(polyline([6, 0], [8, 0], [8, 2], [6, 0]), false);
  square.close();
  t.equal(square.toString(), 'M0 0h4v3h-4zm6 0h2v2z');
  t.equal(square.segments, 9, 'the two moves, the lines written and the two closes');
  const rounded = new PathWriter();
  rounded.append(
    {
      start: { x: 0, y: 0 },
      segments: [
        { kind: 'L', x: 4, y: 0 },
        { kind: 'C', x1: 5, y1: 2, x2: 2, y2: 4, x: 0, y: 0 },
      ],
    },
    false,
  );
  rounded.close();
  t.equal(rounded.toString(), 'M0 0h4c1 2-2 4-4 0z');
  const lone = new PathWriter();
  lone.append(polyline([0, 0], [2, 0], [0, 0]), false);
  lone.close();
  t.equal(lone.toString(), 'M0 0h2z', 'a ring keeps at least one segment of its own');
});

/** Follows M/l/h/v through a d string (implicit repetition included) to the pen's last position. */
function penEnd(d: string): [number, number] {
  const tokens = d.match(/[a-zA-Z]|-?(?:\d*\.\d+|\d+)/g) ?? [];
  let command = '',
    x = 0,
    y = 0;
  for (let i = 0; i < tokens.length;) {
    if (/[a-zA-Z]/.test(tokens[i])) {
      command = tokens[i++];
      continue;
    }
    const n = (k: number) => Number(tokens[i + k]);
    if (command === 'M') {
      x = n(0);
      y = n(1);
      i += 2;
      command = 'L';
    } else if (command === 'l') {
      x += n(0);
      y += n(1);
      i += 2;
    } else if (command === 'h') {
      x += n(0);
      i += 1;
    } else if (command === 'v') {
      y += n(0);
      i += 1;
    } else throw new Error(`unexpected ${command}`);
  }
  return [x, y];
}

t.test('a fork carries on as the writer it came from would, and apart from it', async (t) => {
  // mid straight run, so the fork must merge its next line into the run without touching the original's
  const original = new PathWriter();
  original.moveTo(0, 0);
  original.lineTo(1, 0);
  original.lineTo(2, 0);
  const fork = original.fork();
  const reference = new PathWriter();
  reference.moveTo(0, 0);
  reference.lineTo(1, 0);
  reference.lineTo(2, 0);
  for (const w of [fork, reference]) {
    w.lineTo(3, 0);
    w.lineTo(3, 2);
    w.lineTo(0, 0);
    w.close();
  }
  t.equal(fork.toString(), reference.toString(), 'the fork writes what one writer would have');
  t.equal(fork.segments, reference.segments);
  t.equal(fork.toString(), 'M0 0h3v2z');
  // the fork's merged line must not have added its points to the original's straight run
  original.lineTo(4, 0);
  original.close();
  t.equal(original.toString(), 'M0 0h4z', 'the original goes on from where it stood, untouched by the fork');
});

t.test('rounding never drifts: deltas come from snapped absolute points', async (t) => {
  const w = new PathWriter();
  const segments = Array.from({ length: 30 }, (_, i) => ({ kind: 'L' as const, x: (i + 1) * 0.33, y: (i % 2) * 0.33 }));
  w.append({ start: { x: 0, y: 0 }, segments }, false);
  const [x, y] = penEnd(w.toString());
  t.ok(Math.abs(x - 9.9) < 1e-9 && Math.abs(y - 0.3) < 1e-9, `the pen ends on the snapped last point (${x}, ${y})`);
});

t.test('a repeated command letter is left out and numbers stay separable', async (t) => {
  const w = new PathWriter();
  w.append(polyline([0, 0], [1, 1], [2, 0.5], [3.5, 1]), false);
  t.equal(w.toString(), 'M0 0l1 1 1-.5 1.5.5');
});

t.test('long steps (past the table of common numbers) are written like short ones', async (t) => {
  const w = new PathWriter();
  w.append(
    {
      start: { x: 1234.56, y: 0 },
      segments: [
        { kind: 'L', x: 2134.86, y: 0 }, // +900.3: beyond the looked-up range of ±819.2
        { kind: 'L', x: 2134.86, y: -850 },
        { kind: 'L', x: 1235.06, y: 0.5 },
        { kind: 'L', x: 1234.56, y: 0.05 }, // short steps again, from the table
      ],
    },
    false,
  );
  t.equal(w.toString(), 'M1234.6 0h900.3v-850l-899.8 850.5-.5-.4');
  const [x, y] = penEnd(w.toString());
  t.ok(Math.abs(x - 1234.6) < 1e-9 && Math.abs(y - 0.1) < 1e-9, `the pen ends on the snapped last point (${x}, ${y})`);
});

t.test('appendReversed writes exactly what append(reversePath()) writes, without the copy', async (t) => {
  const path: FittedPath = {
    start: { x: 3.33, y: 4 },
    segments: [
      { kind: 'L', x: 8, y: 4 },
      { kind: 'C', x1: 9.1, y1: 4.2, x2: 10.27, y2: 6.8, x: 10, y: 9.05 },
      { kind: 'L', x: 2, y: 12.5 },
    ],
  };
  for (const continuing of [false, true]) {
    const viaCopy = new PathWriter(),
      direct = new PathWriter();
    viaCopy.moveTo(1, 1);
    direct.moveTo(1, 1);
    viaCopy.append(reversePath(path), continuing);
    direct.appendReversed(path, continuing);
    viaCopy.close();
    direct.close();
    t.equal(direct.toString(), viaCopy.toString());
    t.equal(direct.segments, viaCopy.segments);
  }
  const lonely = new PathWriter();
  lonely.appendReversed({ start: { x: 5, y: 6 }, segments: [] }, false);
  t.equal(lonely.toString(), 'M5 6');
});

t.test('appendChain writes from packed fits exactly what append and appendReversed write', async (t) => {
  const paths: FittedPath[] = [
    {
      start: { x: 3.33, y: 4 },
      segments: [
        { kind: 'L', x: 8, y: 4 },
        { kind: 'C', x1: 9.1, y1: 4.2, x2: 10.27, y2: 6.8, x: 10, y: 9.05 },
        { kind: 'L', x: 2, y: 12.5 },
      ],
    },
    { start: { x: 5, y: 6 }, segments: [] },
    {
      start: { x: 0, y: 0 },
      segments: [
        { kind: 'C', x1: 1, y1: 2, x2: 3, y2: 2, x: 4, y: 0 },
        { kind: 'C', x1: 5, y1: -2, x2: 7, y2: -2, x: 8, y: 0 },
      ],
    },
  ];
  const fitted = new FittedChains(4, 1); // tiny, so storing has to grow the arrays
  paths.forEach((path, c) => fitted.set(c + 1, path));
  t.notOk(fitted.has(0));
  for (let c = 1; c <= paths.length; c++) {
    t.strictSame(fitted.path(c), paths[c - 1], 'stored as given');
    for (const reversed of [false, true]) {
      for (const continuing of [false, true]) {
        const objects = new PathWriter(),
          packed = new PathWriter();
        objects.moveTo(1, 1);
        packed.moveTo(1, 1);
        if (reversed) objects.appendReversed(paths[c - 1], continuing);
        else objects.append(paths[c - 1], continuing);
        packed.appendChain(fitted, c, reversed, continuing);
        t.equal(packed.toString(), objects.toString());
        t.equal(packed.segments, objects.segments);
      }
    }
  }
  // replacing a chain's fit (compose's exact fallback) points it at the new slice
  fitted.set(1, paths[2]);
  t.strictSame(fitted.path(1), paths[2]);
});

t.test('short hex colours where they exist', async (t) => {
  t.equal(hexColour(255, 255, 255), '#fff');
  t.equal(hexColour(0x12, 0x34, 0x56), '#123456');
  t.equal(hexColour(0, 0x11, 0xaa), '#01a');
});

t.test('the document has a viewBox at the input size, gradients in defs and filled paths only', async (t) => {
  const svg = writeSvg({
    width: 40,
    height: 30,
    gradients: [
      {
        id: 'g0',
        fill: {
          type: 'linear',
          x1: 0,
          y1: 0,
          x2: 40,
          y2: 0,
          stops: [
            { offset: 0, color: '#000' },
            { offset: 1, color: '#fff' },
          ],
        },
      },
    ],
    items: [
      { kind: 'fill', paint: 'url(#g0)', d: 'M0 0h40v30h-40z' },
      { kind: 'fill', paint: '#123', d: 'M0 0h40v1z' },
    ],
  });
  t.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 40 30" width="40" height="30">/);
  t.match(
    svg,
    /<defs>\s*<linearGradient id="g0" gradientUnits="userSpaceOnUse" x1="0" y1="0" x2="40" y2="0"><stop offset="0" stop-color="#000"\/><stop offset="1" stop-color="#fff"\/><\/linearGradient>\s*<\/defs>/,
  );
  t.match(svg, /<path fill="#123" d="M0 0h40v1z"\/>/);
  t.notMatch(svg, /stroke|<style/, 'no stroke in fill mode');
});

t.test('lines that carry on in the same direction are written as one, across chains; a bend or a way back is kept', async (t) => {
  const w = new PathWriter();
  // a straight edge that three chains share: it meets two junctions on the way
  w.append({ start: { x: 0, y: 5 }, segments: [{ kind: 'L', x: 4, y: 5 }] }, false);
  w.append({ start: { x: 4, y: 5 }, segments: [{ kind: 'L', x: 9.5, y: 5 }] }, true);
  w.append({ start: { x: 9.5, y: 5 }, segments: [{ kind: 'L', x: 12, y: 5 }] }, true);
  // a diagonal whose middle point is off the line by less than half a tenth on the grid: one line
  w.lineTo(14, 7);
  w.lineTo(16, 9.04);
  // off by a tenth: kept
  w.lineTo(18, 11.2);
  // straight back along the same line: kept
  w.lineTo(17, 11.2);
  w.close();
  t.equal(w.toString(), 'M0 5h12l4 4 2 2.2h-1z');
  t.equal(w.segments, 6, 'the move, four lines and the close');
});
