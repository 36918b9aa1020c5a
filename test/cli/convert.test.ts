import t, { type Test } from 'tap';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { main, type CommandIo } from '../../cli/main.js';
import { IMAGE_CLASSES } from '../../engine/types.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function fakeIo(): { io: CommandIo; out: () => string; err: () => string } {
  let out = '', err = '';
  const sink = (append: (s: string) => void) => new Writable({ write(chunk, _enc, done) { append(String(chunk)); done(); } });
  const io: CommandIo = { stdout: sink((s) => { out += s; }), stderr: sink((s) => { err += s; }), stdin: new PassThrough(), env: {} };
  return { io, out: () => out, err: () => err };
}

async function cli(args: string[]) {
  const f = fakeIo();
  const code = await main(args, f.io);
  return { code, stdout: f.out(), stderr: f.err() };
}

/** A 40×30 PNG: a dark blue disc on a light background, made here (no shared fixtures). */
async function makePng(file: string): Promise<void> {
  const w = 40, h = 30, data = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const inside = (x + 0.5 - 20) ** 2 + (y + 0.5 - 15) ** 2 < 100;
    data.set(inside ? [20, 40, 160] : [240, 235, 220], 3 * (y * w + x));
  }
  await sharp(data, { raw: { width: w, height: h, channels: 3 } }).png().toFile(file);
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
  for (const flag of ['--output', '--image-type', '--detail', '--gradients', '--smoothing', '--trace-style', '--close-seams']) t.match(r.stdout, flag);
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
  const w = await cli(['convert', input, '-o', out, '--image-type', 'clipart', '--smoothing', '80', '--close-seams', 'false', '--detail', 'low']);
  t.equal(w.code, 0, w.stderr);
  t.equal(w.stdout, '', 'nothing on stdout when writing a file');
  t.match(readFileSync(out, 'utf8'), /^<svg[^>]*viewBox="0 0 40 30"/);
});

t.test('bad input files: one line on stderr with the typed error, exit 1', async (t) => {
  const dir = t.testdir({ 'empty.png': '', 'notes.png': 'this is plain text, not a PNG\n' });
  assertOneLineError(t, await cli(['convert', path.join(dir, 'missing.png')]), 1, 'missing_file');
  assertOneLineError(t, await cli(['convert', path.join(dir, 'empty.png')]), 1, 'empty_file');
  assertOneLineError(t, await cli(['convert', path.join(dir, 'notes.png')]), 1, 'unsupported_format');
  assertOneLineError(t, await cli(['convert', dir]), 1, 'missing_file');
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
  assertOneLineError(t, await cli(['convert', input, input]), 2, 'invalid_parameter');
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
  const script = `import { main } from ${JSON.stringify(path.join(ROOT, 'cli/main.ts'))}; process.exitCode = await main(process.argv.slice(1));`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, 'convert', path.join(dir, 'notes.png')], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  t.equal(r.status, 1, r.stderr);
  t.match(r.stderr, /^vectorize convert: [^\n]+ \(unsupported_format\)\n$/);
});
