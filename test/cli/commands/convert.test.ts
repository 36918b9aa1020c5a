import t, { type Test } from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { main, type CommandIo } from '../../../cli/main.js';
import { IMAGE_CLASSES } from '../../../engine/types.js';
import { plainOnCpu } from '../../../cli/commands/convert.js';
import type { ClassifierSessionFactory } from '../../../engine/classify/index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
// Runs the CLI from source in a real process (no build step).
const CLI_SCRIPT =
  `import { main } from ${JSON.stringify(path.join(ROOT, 'cli/main.ts'))}; ` + 'process.exitCode = await main(process.argv.slice(1));';

function fakeIo(): { io: CommandIo; out: () => string; err: () => string } {
  let out = '',
    err = '';
  const sink = (append: (s: string) => void) =>
    new Writable({
      write(chunk, _enc, done) {
        append(String(chunk));
        done();
      },
    });
  const io: CommandIo = {
    stdout: sink((s) => {
      out += s;
    }),
    stderr: sink((s) => {
      err += s;
    }),
    stdin: new PassThrough(),
    env: {},
  };
  return { io, out: () => out, err: () => err };
}

async function cli(args: string[]) {
  const f = fakeIo();
  const code = await main(args, f.io);
  return { code, stdout: f.out(), stderr: f.err() };
}

/** A 40×30 PNG: a dark blue disc on a light background, made here (no shared fixtures). */
async function makePng(file: string): Promise<void> {
  const w = 40,
    h = 30,
    data = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const inside = (x + 0.5 - 20) ** 2 + (y + 0.5 - 15) ** 2 < 100;
      data.set(inside ? [20, 40, 160] : [240, 235, 220], 3 * (y * w + x));
    }
  await sharp(data, { raw: { width: w, height: h, channels: 3 } })
    .png()
    .toFile(file);
}

function assertOneLineError(t: Test, r: { code: number; stdout: string; stderr: string }, code: number, errorCode: string): void {
  t.equal(r.code, code, `exit ${code}`);
  t.equal(r.stdout, '', 'nothing on stdout');
  t.match(r.stderr, /^vectorize (convert|classify): [^\n]+\n$/, 'exactly one line on stderr');
  t.match(r.stderr, `(${errorCode})`, `names ${errorCode}`);
  t.notMatch(r.stderr, /\bat .*:\d+:\d+/, 'no stack trace');
}

t.test('convert --help lists every option', async (t) => {
  const r = await cli(['convert', '--help']);
  t.equal(r.code, 0);
  for (const flag of ['--output', '--image-type', '--detail', '--gradients', '--smoothing', '--trace-style', '--close-seams'])
    t.match(r.stdout, flag);
  for (const flag of [
    '--max-colors',
    '--palette',
    '--background',
    '--group-by',
    '--width',
    '--height',
    '--unit',
    '--dpi',
    '--stroke-order',
  ])
    t.match(r.stdout, flag);
});

t.test('convert takes the output controls: palette, background, layers and a physical size', async (t) => {
  const dir = t.testdir();
  const input = path.join(dir, 'disc.png');
  await makePng(input);
  const r = await cli(
    ['convert', input, '--image-type', 'clipart', '--palette', '#1E3CA0,#FFFFFF', '--background', 'remove'].concat([
      '--group-by',
      'color',
      '--width',
      '100',
      '--unit',
      'mm',
    ]),
  );
  t.equal(r.code, 0, r.stderr);
  t.match(r.stdout, /^<svg [^>]*xmlns:inkscape="[^"]+" viewBox="0 0 40 30" width="100mm" height="75mm">/);
  t.match(r.stdout, /<g id="layer1" inkscape:groupmode="layer" inkscape:label="#1e3ca0">/);
  const colours = new Set([...r.stdout.matchAll(/fill="([^"]+)"/g)].map((m) => m[1]));
  t.same([...colours], ['#1e3ca0'], 'the disc in the palette colour, the light background left out');
  const bad = await cli(['convert', input, '--max-colors', '1']);
  assertOneLineError(t, bad, 2, 'invalid_parameter');
  t.match(bad.stderr, 'max_colors must be a whole number 2–256');
});

t.test('convert writes an SVG at the input size to stdout, or to -o OUT', async (t) => {
  const dir = t.testdir();
  const input = path.join(dir, 'disc.png');
  await makePng(input);
  const r = await cli(['convert', input, '--image-type', 'clipart']);
  t.equal(r.code, 0, r.stderr);
  t.match(r.stdout, /^<svg[^>]*viewBox="0 0 40 30"/);
  t.match(r.stdout, /<\/svg>\s*$/);
  const out = path.join(dir, 'disc.svg');
  const w = await cli([
    'convert',
    input,
    '-o',
    out,
    '--image-type',
    'clipart',
    '--smoothing',
    '80',
    '--close-seams',
    'false',
    '--detail',
    'low',
  ]);
  t.equal(w.code, 0, w.stderr);
  t.equal(w.stdout, '', 'nothing on stdout when writing a file');
  t.match(readFileSync(out, 'utf8'), /^<svg[^>]*viewBox="0 0 40 30"/);
});

t.test('bad input files: one line on stderr with the typed error, exit 1', async (t) => {
  const dir = t.testdir({ 'empty.png': '', 'notes.png': 'this is plain text, not a PNG\n' });
  assertOneLineError(t, await cli(['convert', path.join(dir, 'missing.png')]), 1, 'missing_file');
  assertOneLineError(t, await cli(['convert', path.join(dir, 'empty.png')]), 1, 'empty_file');
  assertOneLineError(t, await cli(['convert', path.join(dir, 'notes.png')]), 1, 'unsupported_format');
  const truncated = path.join(dir, 'truncated.png');
  await makePng(truncated);
  writeFileSync(truncated, readFileSync(truncated).subarray(0, 60));
  const r = await cli(['convert', truncated]);
  t.equal(r.code, 1);
  t.match(r.stderr, /^vectorize convert: [^\n]+ \((unreadable_file|unsupported_format)\)\n$/);
});

t.test('bad command lines: one line on stderr naming the problem, exit 2', async (t) => {
  const dir = t.testdir();
  const input = path.join(dir, 'disc.png');
  await makePng(input);
  const unknownValue = await cli(['convert', input, '--smoothing', 'silky']);
  assertOneLineError(t, unknownValue, 2, 'invalid_parameter');
  t.match(unknownValue.stderr, 'smoothing');
  assertOneLineError(t, await cli(['convert', input, '--detail', '101']), 2, 'invalid_parameter');
  assertOneLineError(t, await cli(['convert', input, '--close-seams', 'maybe']), 2, 'invalid_parameter');
  assertOneLineError(t, await cli(['convert', input, '--image-type', 'logo']), 2, 'invalid_parameter');
  assertOneLineError(t, await cli(['convert', input, '--frobnicate']), 2, 'invalid_parameter');
  assertOneLineError(t, await cli(['convert']), 2, 'invalid_parameter');
  assertOneLineError(t, await cli(['convert', input, '--jobs', '0']), 2, 'invalid_parameter');
  assertOneLineError(t, await cli(['convert', input, '--max-megapixels', 'lots']), 2, 'invalid_parameter');
});

t.test('option errors name the option, suggest the near one, and list what is allowed', async (t) => {
  const dir = t.testdir();
  const input = path.join(dir, 'disc.png');
  await makePng(input);
  const typo = await cli(['convert', input, '--detial', 'high']);
  assertOneLineError(t, typo, 2, 'invalid_parameter');
  t.match(typo.stderr, 'unknown option --detial; did you mean --detail?');
  t.notMatch(typo.stderr, /positional/);
  const far = await cli(['convert', input, '--frobnicate']);
  t.match(far.stderr, 'unknown option --frobnicate');
  t.notMatch(far.stderr, 'did you mean');
  const ultra = await cli(['convert', input, '--detail', 'ultra']);
  assertOneLineError(t, ultra, 2, 'invalid_parameter');
  t.match(ultra.stderr, /low, medium, high or a number 1–100/);
  const noFolder = await cli(['convert', input, '-o', '/nonexistent/dir/x.svg']);
  assertOneLineError(t, noFolder, 2, 'invalid_parameter');
  t.match(noFolder.stderr, 'the folder /nonexistent/dir does not exist');
  const classifyTypo = await cli(['classify', input, '--hlep']);
  t.match(classifyTypo.stderr, 'did you mean --help?');
});

t.test('one file with -o never overwrites an SVG unless --force', async (t) => {
  const dir = t.testdir({ 'disc.svg': 'keep me' });
  const input = path.join(dir, 'disc.png');
  await makePng(input);
  const refused = await cli(['convert', input, '-o', path.join(dir, 'disc.svg'), '--image-type', 'clipart']);
  assertOneLineError(t, refused, 2, 'invalid_parameter');
  t.match(refused.stderr, '--force overwrites it');
  t.equal(readFileSync(path.join(dir, 'disc.svg'), 'utf8'), 'keep me');
  const forced = await cli(['convert', input, '-o', path.join(dir, 'disc.svg'), '--image-type', 'clipart', '--force']);
  t.equal(forced.code, 0, forced.stderr);
  t.match(readFileSync(path.join(dir, 'disc.svg'), 'utf8'), /^<svg/);
  // an existing folder as OUT takes NAME.svg
  mkdirSync(path.join(dir, 'into'));
  const intoFolder = await cli(['convert', input, '-o', path.join(dir, 'into'), '--image-type', 'clipart']);
  t.equal(intoFolder.code, 0, intoFolder.stderr);
  t.ok(existsSync(path.join(dir, 'into', 'disc.svg')));
});

t.test('--max-megapixels refuses a larger image from its header', async (t) => {
  const dir = t.testdir();
  const big = path.join(dir, 'big.png');
  await sharp({ create: { width: 1100, height: 1000, channels: 3, background: '#808080' } })
    .png()
    .toFile(big);
  const r = await cli(['convert', big, '--max-megapixels', '1', '--image-type', 'clipart']);
  assertOneLineError(t, r, 1, 'megapixels_exceeded');
});

t.test('the classifier provider is said only with --verbose when it is the expected CPU', async (t) => {
  const dir = t.testdir();
  const input = path.join(dir, 'disc.png');
  await makePng(input);
  const quiet = await cli(['convert', input]);
  t.equal(quiet.code, 0, quiet.stderr);
  t.equal(quiet.stderr, '', 'nothing on stderr: no CUDA path, no provider line');
  const verbose = await cli(['convert', input, '--verbose']);
  t.equal(verbose.code, 0);
  t.match(verbose.stderr, /^classifier: (cpu|cuda)\n$/, 'one short line');
});

t.test('on the CPU the classifier runs without onnxruntime; CUDA or a model it refuses goes to onnxruntime', async (t) => {
  const opened: string[] = [];
  const factory =
    (name: string, refuse = false): ClassifierSessionFactory =>
    async (model, provider) => {
      opened.push(`${name} ${provider} ${model}`);
      if (refuse) throw new Error('operator Tanh is not supported');
      return { provider, run: async () => new Float32Array(4) };
    };
  const sessions = plainOnCpu(factory('plain'), factory('onnxruntime'));
  t.equal((await sessions('m.onnx', 'cpu')).provider, 'cpu');
  t.equal((await sessions('m.onnx', 'cuda')).provider, 'cuda');
  t.same(opened, ['plain cpu m.onnx', 'onnxruntime cuda m.onnx']);
  opened.length = 0;
  await plainOnCpu(factory('plain', true), factory('onnxruntime'))('other.onnx', 'cpu');
  t.same(opened, ['plain cpu other.onnx', 'onnxruntime cpu other.onnx']);
});

t.test('a closed stdout (| head -c 100) ends the command quietly', async (t) => {
  const dir = t.testdir();
  const noisy = path.join(dir, 'noisy.png');
  // random pixels traced as a photo give an SVG far larger than a pipe's buffer
  const pixels = Buffer.alloc(200 * 200 * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761) >>> 24;
  await sharp(pixels, { raw: { width: 200, height: 200, channels: 3 } })
    .png()
    .toFile(noisy);
  const convert = `node --import tsx --input-type=module -e '${CLI_SCRIPT}' convert ${JSON.stringify(noisy)}`;
  const errFile = JSON.stringify(path.join(dir, 'err.txt')),
    outFile = JSON.stringify(path.join(dir, 'out.txt'));
  const command = `${convert} --image-type photo --detail high 2>${errFile} | head -c 100 >${outFile}; echo $?`;
  const r = spawnSync('bash', ['-o', 'pipefail', '-c', command], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  t.equal(readFileSync(path.join(dir, 'out.txt'), 'utf8').length, 100, 'head got its 100 bytes');
  t.equal(readFileSync(path.join(dir, 'err.txt'), 'utf8'), '', 'no EPIPE stack trace');
  t.equal(r.stdout.trim(), '0', 'exit 0');
});

t.test('classify prints the class as the last line of stdout and the provider on stderr', async (t) => {
  const dir = t.testdir();
  const input = path.join(dir, 'disc.png');
  await makePng(input);
  const r = await cli(['classify', input]);
  t.equal(r.code, 0, r.stderr);
  const last = r.stdout.trimEnd().split('\n').pop();
  t.ok((IMAGE_CLASSES as readonly string[]).includes(last ?? ''), `class ${last}`);
  t.match(r.stderr, /classifier: \S+/);
  assertOneLineError(t, await cli(['classify', path.join(dir, 'nope.png')]), 1, 'missing_file');
  assertOneLineError(t, await cli(['classify']), 2, 'invalid_parameter');
  t.equal((await cli(['classify', '--help'])).code, 0);
});

t.test('a real process exits non-zero with one line and no stack trace', async (t) => {
  const dir = t.testdir({ 'notes.png': 'plain text' });
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', CLI_SCRIPT, 'convert', path.join(dir, 'notes.png')],
    { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
  );
  t.equal(r.status, 1, r.stderr);
  t.match(r.stderr, /^vectorize convert: [^\n]+ \(unsupported_format\)\n$/);
});

t.test('a batch: folders and files, SVGs under OUT with the structure kept, one line per file, exit 0', async (t) => {
  const dir = t.testdir({ art: { deep: {}, 'notes.txt': 'not an image' } });
  await makePng(path.join(dir, 'art', 'one.png'));
  await makePng(path.join(dir, 'art', 'deep', 'two.png'));
  await makePng(path.join(dir, 'three.png'));
  const out = path.join(dir, 'out');
  const r = await cli(['convert', path.join(dir, 'art'), path.join(dir, 'three.png'), '-o', out, '--jobs', '2']);
  t.equal(r.code, 0, r.stdout + r.stderr);
  t.equal(r.stderr, '', 'nothing on stderr (the expected CPU classifier is not announced)');
  const lines = r.stdout.trimEnd().split('\n');
  t.equal(lines.length, 5, 'one line per file and the summary');
  t.equal(lines.filter((l) => l.startsWith('converted ') && l.includes(' -> ')).length, 3);
  t.ok(lines.includes(`skipped ${path.join(dir, 'art', 'notes.txt')}: not an image`));
  t.match(lines[4], /^converted 3, skipped 1 \(not an image 1\), failed 0 in /);
  for (const file of ['one.svg', 'deep/two.svg', 'three.svg'])
    t.match(readFileSync(path.join(out, file), 'utf8'), /^<svg[^>]*viewBox="0 0 40 30"/, file);

  // the same batch again: every SVG exists, nothing is overwritten, still exit 0
  writeFileSync(path.join(out, 'three.svg'), 'keep me');
  const again = await cli(['convert', path.join(dir, 'art'), path.join(dir, 'three.png'), '-o', out]);
  t.equal(again.code, 0);
  t.match(again.stdout, /^converted 0, skipped 4 \(not an image 1, exists 3\), failed 0/m);
  t.equal(readFileSync(path.join(out, 'three.svg'), 'utf8'), 'keep me');
  const forced = await cli([
    'convert',
    path.join(dir, 'three.png'),
    path.join(dir, 'art'),
    '-o',
    out,
    '--force',
    '--image-type',
    'clipart',
  ]);
  t.match(forced.stdout, /^converted 3, /m);
  t.match(readFileSync(path.join(out, 'three.svg'), 'utf8'), /^<svg/);
});

t.test('a batch without -o writes beside each image; any failure makes exit 1 and is counted by code', async (t) => {
  const dir = t.testdir({ 'missing-end.png': '' });
  await makePng(path.join(dir, 'good.png'));
  await makePng(path.join(dir, 'missing-end.png'));
  writeFileSync(path.join(dir, 'missing-end.png'), readFileSync(path.join(dir, 'missing-end.png')).subarray(0, 60));
  for (const jobs of ['1', '2']) {
    const r = await cli(['convert', dir, path.join(dir, 'nope.png'), '--jobs', jobs, '--image-type', 'clipart', '--force']);
    t.equal(r.code, 1, `--jobs ${jobs}: exit 1`);
    t.match(r.stdout, /failed 2 \(missing_file 1, unreadable_file 1\)/);
    t.match(r.stdout, `failed ${path.join(dir, 'missing-end.png')}: `);
    t.ok(existsSync(path.join(dir, 'good.svg')), 'the good image was converted beside itself');
    t.notOk(existsSync(path.join(dir, 'missing-end.svg')), 'no SVG for the failed one');
  }
  const folderAsOut = await cli(['convert', dir, '-o', path.join(dir, 'good.png')]);
  assertOneLineError(t, folderAsOut, 2, 'invalid_parameter');
});
