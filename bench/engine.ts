/**
 * `npm run bench [-- --class clipart,photo] [--ids a,b] [--trace-style centerline] [--auto] [--peers vtracer,potrace-cli]
 *  [--cold] [--source]`
 *
 * Our engine beside VTracer and potrace on the public corpus, in one run, with the shared harness
 * (../shared/bench/measure.mjs, never copied into this repo). Three harness runs (ours in-process
 * through bench/measure-adapter.ts, then the peers), merged into one table of medians per class,
 * printed and written to bench/results/latest.md (a local record, kept out of git: it names this
 * machine's paths; docs/performance.md holds the numbers worth keeping). Per-image results stay in a
 * temp dir (printed).
 *
 * Our engine is timed warm: bench/measure-adapter.ts first traces every selected image once, untimed
 * (as bench/speed.ts does), so no class pays for V8 compiling the engine while it is measured. The
 * harness's own warm-up is one trace of the smallest image, which leaves most of the engine to
 * compile during whichever class comes first. `--cold` leaves our pass out.
 *
 * And it is timed as the server runs it: tsc's output, not the TypeScript through tsx (whose
 * keepNames transform wraps every closure, ~10-15 % slower on the centerline scans). engine/ is
 * compiled by the project's tsc (emit only) into node_modules/.cache/vectorize-bench, as
 * bench/speed.ts does; `--source` traces the TypeScript through tsx instead.
 *
 * The harness needs sharp, @resvg/resvg-js and @neplex/vectorizer; when ../shared/bench has no
 * node_modules of its own (it is read-only here) they are resolved from this project's
 * node_modules through NODE_PATH. potrace-cli needs the Debian `potrace` package.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { compileEngine } from './compile-engine.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BENCH_DIR = path.resolve(ROOT, '..', 'shared', 'bench');
const MEASURE = path.join(BENCH_DIR, 'measure.mjs');
const LATEST = path.join(ROOT, 'bench', 'results', 'latest.md');

const { values } = parseArgs({
  options: {
    class: { type: 'string' },
    ids: { type: 'string' },
    'trace-style': { type: 'string', default: 'fill' },
    auto: { type: 'boolean', default: false },
    peers: { type: 'string', default: 'vtracer,potrace-cli' },
    timeout: { type: 'string', default: '180' },
    'keep-svg': { type: 'boolean', default: false },
    'no-latest': { type: 'boolean', default: false },
    cold: { type: 'boolean', default: false },
    source: { type: 'boolean', default: false },
  },
});

if (!existsSync(MEASURE)) {
  console.log(`No benchmark harness at ${BENCH_DIR}.
Put the shared bench (corpus/ + measure.mjs) there, beside this repository:
  <parent>/main   (this repo)
  <parent>/shared/bench/measure.mjs
then run \`npm run bench\` again. Nothing was measured.`);
  process.exit(0);
}

const env: NodeJS.ProcessEnv = { ...process.env };
if (!existsSync(path.join(BENCH_DIR, 'node_modules'))) {
  env.NODE_PATH = [path.join(ROOT, 'node_modules'), env.NODE_PATH].filter(Boolean).join(path.delimiter);
}
env.VECTORIZE_BENCH_IMAGE_TYPE = values.auto ? 'auto' : 'class';
env.VECTORIZE_BENCH_TRACE_STYLE = values['trace-style'];
if (!values.cold) {
  // The images the harness is about to measure (its selection: --class, --ids), for the adapter's untimed pass.
  const manifest = JSON.parse(readFileSync(path.join(BENCH_DIR, 'corpus', 'manifest.json'), 'utf8')) as {
    images: { id: string; file: string; class: string }[];
  };
  const classes = values.class?.split(','),
    ids = values.ids?.split(',');
  env.VECTORIZE_BENCH_WARMUP = JSON.stringify(
    manifest.images
      .filter((m) => (!classes || classes.includes(m.class)) && (!ids || ids.includes(m.id)))
      .map((m) => ({ file: path.join(BENCH_DIR, 'corpus', m.file), class: m.class })),
  );
}

if (!values.source) {
  try {
    env.VECTORIZE_BENCH_ENGINE = compileEngine('vectorize-bench');
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}

const selection: string[] = ['--timeout', values.timeout];
if (values.class) selection.push('--class', values.class);
if (values.ids) selection.push('--ids', values.ids);
if (values['keep-svg']) selection.push('--keep-svg');

const runDir = mkdtempSync(path.join(os.tmpdir(), 'vectorize-bench-'));
const label = values['trace-style'] === 'centerline' ? 'ours-centerline' : 'ours';

function measure(args: string[], what: string): void {
  console.error(`\n== ${what}`);
  // --import tsx lets the harness import our TypeScript adapter; cwd = repo so tsx resolves here
  const r = spawnSync(process.execPath, ['--import', 'tsx', MEASURE, ...args], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) {
    console.error(`measure.mjs failed (${what}): exit ${r.status ?? r.signal}`);
    process.exit(1);
  }
}

if (values.peers.includes('potrace-cli') && spawnSync('potrace', ['--version']).status !== 0) {
  console.error('potrace is not installed (apt-get install -y potrace); leaving potrace-cli out');
  values.peers = values.peers
    .split(',')
    .filter((p) => p !== 'potrace-cli')
    .join(',');
}

const parts: string[] = [];
measure(
  ['--module', path.join(ROOT, 'bench', 'measure-adapter.ts'), '--label', label, '--out', path.join(runDir, label), ...selection],
  `${label}: our engine, in-process`,
);
parts.push(path.join(runDir, label, 'results.json'));
if (values.peers) {
  measure(['--tracer', values.peers, '--out', path.join(runDir, 'peers'), ...selection], `peers: ${values.peers}`);
  parts.push(path.join(runDir, 'peers', 'results.json'));
}
measure(['--merge', parts.join(','), '--out', path.join(runDir, 'all')], 'merge');

const summary = readFileSync(path.join(runDir, 'all', 'summary.md'), 'utf8');
const results = JSON.parse(readFileSync(path.join(runDir, 'all', 'results.json'), 'utf8')) as { host?: string; node?: string };
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
const command = ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ');
const imageTypeNote = values.auto ? 'auto (classifier)' : "the corpus manifest's class";
const warmNote = values.cold ? 'cold (no warm-up pass of ours)' : 'warm (one untimed pass over the selected images first)';
const buildNote = values.source ? 'TypeScript through tsx' : "tsc's output (as the server runs)";
const report = `# Benchmark: latest run

- date: ${new Date().toISOString()}
- commit: ${commit || 'unknown'}; host: ${results.host ?? os.cpus()[0]?.model}; node ${process.version}
- command: \`${command}\`
- ours: image type = ${imageTypeNote}, trace style ${values['trace-style']}, other options default; ${warmNote}; ${buildNote}
- per-image results: ${path.join(runDir, 'all', 'results.json')}

${summary}`;
console.log(summary);
if (!values['no-latest']) {
  mkdirSync(path.dirname(LATEST), { recursive: true });
  writeFileSync(LATEST, report);
  console.error(`written ${path.relative(ROOT, LATEST)}`);
}
