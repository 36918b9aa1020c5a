/**
 * The busiest valid input a trial key may send: 16 MP of pure noise (a 50.7 MB PNG). Without a
 * bound it peaked at 3.0 GB; the trace must stay under 1.5 GB for the whole process, decode
 * included, and still answer an SVG at the image's size.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const fixture = fileURLToPath(new URL('../fixtures/engine/noise-trace.ts', import.meta.url));
const PEAK_LIMIT_MB = 1536;
// A 16 MP trace on a loaded 2-core box took up to 3 min; the runner's default is 4 min per file.
t.setTimeout(900_000);

t.test('16 MP of pure noise traces under 1.5 GB peak and keeps its size', { timeout: 600_000 }, async (t) => {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, '4000', '4000'], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => child.kill('SIGKILL'));
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  t.equal(code, 0, 'the trace finished');
  const result = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { root: string; width: number; height: number; maxRssMb: number };
  t.ok(result.maxRssMb < PEAK_LIMIT_MB, `peak RSS ${result.maxRssMb} MB`);
  t.match(result.root, / width="4000" height="4000">$/, 'the SVG displays at the image size');
  t.same([result.width, result.height], [4000, 4000]);
});
