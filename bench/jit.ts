/**
 * `npm run bench:jit [-- --rounds 5] [--class clipart,photo] [--ids a,b] [--workers 1]`
 *
 * How much of a warm trace V8 spends recompiling and in unoptimised code. The public clip art and
 * photos (../shared/bench/corpus, read in place) are traced round after round, interleaved as
 * bench:speed and a server see them, by the compiled engine (./compile-engine.ts) in a child
 * process started with --trace-opt and --trace-deopt; per round this prints how many functions
 * TurboFan compiled (and the milliseconds its background thread took for them), how many
 * deoptimisations there were (both threads: the worker's lines come through the same output), and
 * the functions compiled most after the first two rounds, and the optimised code that bails out
 * again and again after them (the same bailout, by function, reason and place, in every round).
 * --ids traces only those images, round after round: a batch of similar images (a folder of icons)
 * shows its own bailouts, which a mix of classes can hide.
 *
 * A warm engine should compile little: code V8 keeps throwing away shows up here as the same
 * functions compiled round after round (a closure made per trace loses its optimised code between
 * traces), and optimised code V8 keeps shows up as one function bailing out at the same place round
 * after round: V8 does not always replace it, so every call that gets there finishes in the
 * interpreter (arithmetic speculated on small integers that overflow or turn fractional, code after
 * a long loop compiled on-stack before it ever ran, a branch first taken after optimisation).
 * Compiles happen on a background thread, but on a two-core machine that thread takes the worker's
 * core, and until a function is compiled again it runs unoptimised.
 * The counts move a little from run to run (V8 tiers up by sampling); compare trees side by side.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { compileEngine } from './compile-engine.js';
import { findCorpus, readManifest } from './corpus.js';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    class: { type: 'string', default: 'clipart,photo' },
    ids: { type: 'string' },
    workers: { type: 'string' },
    corpus: { type: 'string', default: findCorpus() },
    child: { type: 'string' },
  },
});

const MARK = '@@round';

/** The public images of the classes asked for, or the ones --ids names (in the manifest's order). */
function chosen(m: { id: string; class: string }): boolean {
  if ((m as { split?: string }).split !== 'public') return false;
  return args.ids ? args.ids.split(',').includes(m.id) : args.class.split(',').includes(m.class);
}

if (args.child) {
  // the child: traces every image once per round, printing a marker line before each round
  const engine = await import(pathToFileURL(path.join(args.child, 'index.js')).href);
  const { parseTraceOptions } = await import(pathToFileURL(path.join(args.child, 'options.js')).href);
  if (args.workers !== undefined) engine.fitConcurrency(Number(args.workers));
  const inputs = readManifest(args.corpus)
    .filter(chosen)
    .map((m) => ({
      bytes: new Uint8Array(readFileSync(path.join(args.corpus, m.file))),
      options: parseTraceOptions({ image_type: m.class }),
    }));
  for (let round = 0; round < Number(args.rounds); round++) {
    console.log(`${MARK} ${round}`);
    for (const input of inputs) await engine.vectorize(input.bytes, input.options);
  }
  process.exit(0);
}

let images: number;
try {
  images = readManifest(args.corpus).filter(chosen).length;
} catch {
  console.log(`No corpus at ${args.corpus} (put ../shared/bench beside this repository). Nothing was measured.`);
  process.exit(0);
}
const engineDir = compileEngine('vectorize-jit');
const child = spawnSync(
  process.execPath,
  [
    '--trace-opt',
    '--trace-deopt',
    '--import',
    'tsx',
    fileURLToPath(import.meta.url),
    '--child',
    engineDir,
    '--rounds',
    args.rounds,
    '--class',
    args.class,
    ...(args.ids !== undefined ? ['--ids', args.ids] : []),
    '--corpus',
    args.corpus,
    ...(args.workers !== undefined ? ['--workers', args.workers] : []),
  ],
  { encoding: 'utf8', maxBuffer: 1 << 30 },
);
if (child.status !== 0) {
  console.error(child.stderr);
  process.exit(1);
}

interface Round {
  compiles: number;
  compileMs: number;
  deopts: number;
}
const rounds: Round[] = [];
const lateCompiles = new Map<string, { count: number; ms: number }>();
/** Bailouts after round 2 by function, reason and bytecode offset (the same place in the same code). */
const lateBailouts = new Map<string, number>();
for (const line of child.stdout.split('\n')) {
  if (line.startsWith(MARK)) {
    rounds.push({ compiles: 0, compileMs: 0, deopts: 0 });
    continue;
  }
  const round = rounds.at(-1);
  if (round === undefined) continue;
  const compiled = /^\[completed compiling .*<JSFunction ([^ >]*).* - took [0-9.]+, ([0-9.]+),/.exec(line);
  if (compiled) {
    round.compiles++;
    round.compileMs += Number(compiled[2]);
    if (rounds.length > 2) {
      const name = compiled[1] === '' || compiled[1].startsWith('(') ? '(anonymous)' : compiled[1];
      const seen = lateCompiles.get(name) ?? { count: 0, ms: 0 };
      seen.count++;
      seen.ms += Number(compiled[2]);
      lateCompiles.set(name, seen);
    }
  } else if (line.startsWith('[bailout (kind: deopt')) {
    round.deopts++;
    const bailout = /reason: (.*?)\): begin\. deoptimizing \S+ <JSFunction ([^ >]*).*bytecode offset (\d+)/.exec(line);
    if (bailout && rounds.length > 2) {
      const name = bailout[2] === '' || bailout[2].startsWith('(') ? '(anonymous)' : bailout[2];
      const key = `${name} (${bailout[1]}, offset ${bailout[3]})`;
      lateBailouts.set(key, (lateBailouts.get(key) ?? 0) + 1);
    }
  }
}

console.log(
  `JIT activity, ${images} images a round in one process (${args.ids ?? args.class}), ${new Date().toISOString().slice(0, 10)}\n`,
);
console.log('| round | functions compiled | compiling ms (background) | deoptimisations |');
console.log('|---:|---:|---:|---:|');
rounds.forEach((r, i) => console.log(`| ${i + 1} | ${r.compiles} | ${Math.round(r.compileMs)} | ${r.deopts} |`));
const late = [...lateCompiles].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12);
if (late.length > 0) {
  console.log('\nCompiled most after round 2 (name: times, ms):');
  console.log(late.map(([name, { count, ms }]) => `${name}: ${count}, ${Math.round(ms)}`).join('; '));
}
const repeated = [...lateBailouts].filter(([, count]) => count >= rounds.length - 2).sort((a, b) => b[1] - a[1]);
if (repeated.length > 0) {
  console.log(`\nBailed out at least once a round after round 2 (times in ${rounds.length - 2} rounds):`);
  console.log(repeated.map(([site, count]) => `${site}: ${count}`).join('; '));
}
