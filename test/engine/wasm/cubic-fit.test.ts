import t from 'tap';
import { fitCubics, fitOneCubic, MAX_ARC_TURN, type CubicFit, type CubicFitPolicy } from '../../../engine/fit/index.js';
import { seededRandom } from '../helpers/bmp-writer.js';
import { referenceFitCubics, referenceFitOneCubic } from '../helpers/reference-cubic-fit.js';

/** The two policies engine/fit uses: samples of smooth pieces, and sub-pixel edge points. */
const POLICIES: CubicFitPolicy[] = [
  { newtonSteps: 4, newtonReach: 4, newtonReachEachStep: false, splitWindow: 1 },
  { newtonSteps: 8, newtonReach: 8, newtonReachEachStep: true, splitWindow: 3 },
];

/** Points along an arc, a wave, a line, a zigzag or one spot, jittered, with their cumulative turning. */
function randomRun(random: () => number, count: number): { px: Float64Array; py: Float64Array; turned: Float64Array } {
  const px = new Float64Array(count),
    py = new Float64Array(count);
  const shape = Math.floor(random() * 5);
  const radius = 3 + random() * 60,
    sweep = (random() * 2 - 1) * Math.PI * 3,
    jitter = random() < 0.3 ? 0 : random() * 0.6;
  for (let i = 0; i < count; i++) {
    const f = count > 1 ? i / (count - 1) : 0;
    let x: number, y: number;
    if (shape === 0) [x, y] = [radius * Math.cos(sweep * f), radius * Math.sin(sweep * f)];
    else if (shape === 1) [x, y] = [f * radius * 4, Math.sin(f * sweep * 3) * radius * 0.3];
    else if (shape === 2) [x, y] = [f * radius * 3, f * radius];
    else if (shape === 3) [x, y] = [i * 0.5, i % 2];
    else [x, y] = [5, 5];
    px[i] = x + (random() * 2 - 1) * jitter;
    py[i] = y + (random() * 2 - 1) * jitter;
  }
  // a scratch buffer may run past the points: the turning gets a tail the fit must not read
  const turned = new Float64Array(count + Math.floor(random() * 4)).fill(1e9);
  turned[0] = 0;
  for (let i = 1; i < count; i++) {
    const a = Math.atan2(py[i] - py[i - 1], px[i] - px[i - 1]),
      b = i > 1 ? Math.atan2(py[i - 1] - py[i - 2], px[i - 1] - px[i - 2]) : a;
    let d = a - b;
    if (d > Math.PI) d -= 2 * Math.PI;
    else if (d < -Math.PI) d += 2 * Math.PI;
    turned[i] = turned[i - 1] + Math.abs(d);
  }
  return { px, py, turned };
}

type Emitted = number[];

function fitOf(run: ReturnType<typeof randomRun>, tolerance: number, policy: CubicFitPolicy, into: Emitted[]): CubicFit {
  return {
    ...run,
    tolerance,
    policy,
    emit: (first, last, t1x, t1y, t2x, t2y, bez) => into.push([first, last, t1x, t1y, t2x, t2y, ...bez]),
  };
}

function unitTangent(random: () => number): [number, number] {
  const a = random() * Math.PI * 2;
  return [Math.cos(a), Math.sin(a)];
}

t.test('the kernel splits runs into the cubics the TypeScript fit made, number for number', async (t) => {
  const random = seededRandom(4711);
  let cubics = 0,
    arcSplits = 0;
  for (let round = 0; round < 300; round++) {
    // mostly short runs; now and then longer than the kernel's first layout (1 024 points)
    const count = random() < 0.05 ? 1100 + Math.floor(random() * 1500) : 2 + Math.floor(random() * 120);
    const run = randomRun(random, count);
    const tolerance = 0.05 + random() * 1.5;
    const policy = POLICIES[round % 2];
    const [t1x, t1y] = unitTangent(random),
      [t2x, t2y] = unitTangent(random);
    const want: Emitted[] = [],
      got: Emitted[] = [];
    referenceFitCubics(fitOf(run, tolerance, policy, want), 0, count - 1, t1x, t1y, t2x, t2y, 0);
    fitCubics(fitOf(run, tolerance, policy, got), 0, count - 1, t1x, t1y, t2x, t2y, 0);
    if (JSON.stringify(got) !== JSON.stringify(want)) t.strictSame(got, want, `round ${round}: ${count} points`);
    cubics += want.length;
    if (run.turned[count - 1] > MAX_ARC_TURN && count >= 5) arcSplits++;
  }
  t.ok(cubics > 600, `${cubics} cubics compared`);
  t.ok(arcSplits > 30, `${arcSplits} runs turning past one cubic's limit`);
});

t.test('single cubics over stretches of a run, two fits taking turns: the same errors and cubics', async (t) => {
  const random = seededRandom(99);
  const runs = [randomRun(random, 400), randomRun(random, 90)];
  const fits = runs.map((run, k) => fitOf(run, 0.3 + k, POLICIES[k], []));
  for (let round = 0; round < 400; round++) {
    // alternating between the two fits: the kernel must load each one's points again
    const k = round % 3 === 0 ? 1 : 0;
    const fit = fits[k],
      count = runs[k].px.length;
    const first = Math.floor(random() * (count - 1)),
      last = first + 1 + Math.floor(random() * (count - 1 - first));
    const [t1x, t1y] = unitTangent(random),
      [t2x, t2y] = unitTangent(random);
    const want = new Float64Array(8).fill(7),
      got = new Float64Array(8).fill(7);
    const wantError = referenceFitOneCubic(fit, first, last, t1x, t1y, t2x, t2y, want);
    const gotError = fitOneCubic(fit, first, last, t1x, t1y, t2x, t2y, got);
    if (!Object.is(gotError, wantError)) t.equal(gotError, wantError, `round ${round}: the error`);
    if (wantError >= 0 && want.some((v, i) => !Object.is(v, got[i])))
      t.strictSame(Array.from(got), Array.from(want), `round ${round}: the cubic`);
  }
  // points in one spot: no cubic, the caller's numbers untouched
  const spot = { px: new Float64Array([2, 2, 2, 2]), py: new Float64Array([3, 3, 3, 3]), turned: new Float64Array(4) };
  const untouched = new Float64Array(8).fill(7);
  t.equal(fitOneCubic(fitOf(spot, 0.5, POLICIES[0], []), 0, 3, 1, 0, -1, 0, untouched), -1, 'coincident points: -1');
  t.strictSame(Array.from(untouched), new Array(8).fill(7), 'and no cubic written');
});
