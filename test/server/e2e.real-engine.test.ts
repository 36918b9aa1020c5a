/**
 * End to end over real HTTP with the real engine: the server started as `vectorize serve` starts
 * it (server/runtime.ts startServer: lowdb store, worker-thread pool, the engine), on port 0 and a
 * temp data dir, one worker. Only the account and key are made through the services.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import sharp from 'sharp';
import { loadConfig } from '../../server/config.js';
import { startServer, type Running } from '../../server/runtime.js';
import { IMAGE_CLASSES } from '../../engine/types.js';

const WIDTH = 48;
const HEIGHT = 32;
/** Bound on one job's wall time on a loaded 2-core box; a trace of 48×32 takes far less. */
const JOB_WAIT_MS = 60_000;

/** Two colour areas (left red, right blue) and a transparent 12×8 top-left corner. */
async function twoColourPng(): Promise<Buffer> {
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 4);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const i = (y * WIDTH + x) * 4;
      const left = x < WIDTH / 2;
      pixels[i] = left ? 220 : 20;
      pixels[i + 1] = left ? 30 : 60;
      pixels[i + 2] = left ? 30 : 200;
      pixels[i + 3] = x < 12 && y < 8 ? 0 : 255;
    }
  }
  return sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 4 } })
    .png()
    .toBuffer();
}

/**
 * A 24-bit BI_RGB BMP written by hand: bottom-up rows of BGR, each padded to 4 bytes (a width of
 * 30 makes 90-byte rows, so the padding is exercised). Top half yellow, bottom half dark green.
 */
function bmp24(width: number, height: number): Buffer {
  const rowBytes = Math.ceil((width * 3) / 4) * 4;
  const pixelBytes = rowBytes * height;
  const out = Buffer.alloc(54 + pixelBytes);
  out.write('BM', 0, 'latin1');
  out.writeUInt32LE(out.length, 2);
  out.writeUInt32LE(54, 10); // pixel data offset
  out.writeUInt32LE(40, 14); // BITMAPINFOHEADER
  out.writeInt32LE(width, 18);
  out.writeInt32LE(height, 22); // positive: bottom-up
  out.writeUInt16LE(1, 26); // planes
  out.writeUInt16LE(24, 28); // bits per pixel
  out.writeUInt32LE(0, 30); // BI_RGB
  out.writeUInt32LE(pixelBytes, 34);
  out.writeInt32LE(2835, 38); // 72 dpi
  out.writeInt32LE(2835, 42);
  for (let row = 0; row < height; row++) {
    const y = height - 1 - row; // the first stored row is the bottom one
    const top = y < height / 2;
    for (let x = 0; x < width; x++) {
      const at = 54 + row * rowBytes + x * 3;
      out[at] = top ? 20 : 30; // B
      out[at + 1] = top ? 220 : 110; // G
      out[at + 2] = top ? 230 : 20; // R
    }
  }
  return out;
}

interface JobView {
  id: string;
  status: string;
  progress: number;
  queue_position?: number;
  mode: string | null;
  width: number;
  height: number;
  download_url?: string;
  error?: { code: string; message: string };
}

async function serve(t: { teardown(fn: () => Promise<void>): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'vectorize-e2e-'));
  const env = { VECTORIZE_DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', VECTORIZE_WORKERS: '1', VECTORIZE_LOG_LEVEL: 'silent' };
  let running: Running | undefined;
  // Registered before the start so a failed start still removes the temp dir.
  t.teardown(async () => {
    await running?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  running = await startServer(loadConfig(env), new PassThrough());
  const { accounts, keys } = running.app.services;
  const account = accounts.create('E2E Studio', 'pro');
  const { secret } = keys.create(account, { scope: 'api' });
  return { url: running.url, auth: { authorization: `Bearer ${secret}` } };
}

async function submit(url: string, auth: Record<string, string>, bytes: Buffer, fileName: string, type = 'application/octet-stream') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), fileName);
  const res = await fetch(`${url}/v1/vectorize`, { method: 'POST', body: form, headers: auth });
  return { status: res.status, body: (await res.json()) as JobView & { error?: { code: string; details?: Record<string, unknown> } } };
}

/** Polls until the job leaves queued/processing; returns every progress value seen, in order. */
async function untilEnded(url: string, auth: Record<string, string>, id: string) {
  const seen: { status: string; progress: number }[] = [];
  const deadline = Date.now() + JOB_WAIT_MS;
  for (;;) {
    const res = await fetch(`${url}/v1/jobs/${id}`, { headers: auth });
    if (res.status !== 200) throw new Error(`GET /v1/jobs/${id} answered ${res.status}`);
    const job = (await res.json()) as JobView;
    seen.push({ status: job.status, progress: job.progress });
    if (job.status !== 'queued' && job.status !== 'processing') return { job, seen };
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.status} after ${JOB_WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

t.test('real engine over HTTP: PNG and BMP traced, bad uploads refused at submit', async (t) => {
  const { url, auth } = await serve(t);

  await t.test('a PNG is queued, traced and downloaded as an SVG attachment', async (t) => {
    const submitted = await submit(url, auth, await twoColourPng(), 'logo draft.png', 'image/png');
    t.equal(submitted.status, 202, JSON.stringify(submitted.body));
    const accepted = submitted.body;
    t.equal(accepted.status, 'queued');
    t.equal(accepted.queue_position, 1, 'the only job is first in line');
    t.equal(accepted.progress, 0);
    t.equal(accepted.width, WIDTH);
    t.equal(accepted.height, HEIGHT);

    const { job, seen } = await untilEnded(url, auth, accepted.id);
    t.equal(job.status, 'completed', JSON.stringify(job.error ?? {}));
    const before = seen.slice(0, -1);
    t.ok(
      before.every((s, i) => i === 0 || s.progress >= before[i - 1]!.progress),
      `progress never decreases (${seen.map((s) => s.progress).join(' ')})`,
    );
    t.ok(
      before.every((s) => s.progress <= 95),
      'progress stays at or under 95 before completion',
    );
    t.equal(job.progress, 100, '100 once completed');
    t.ok((IMAGE_CLASSES as readonly string[]).includes(job.mode ?? ''), `mode ${job.mode} is one of the four classes`);
    t.equal(job.download_url, `${url}/v1/jobs/${job.id}/download`);

    const download = await fetch(job.download_url!, { headers: auth });
    t.equal(download.status, 200);
    t.match(download.headers.get('content-type'), /^image\/svg\+xml/);
    const disposition = download.headers.get('content-disposition') ?? '';
    t.match(disposition, /^attachment;/);
    t.match(disposition, /filename="logo draft\.svg"/, 'the upload name with .svg');
    const svg = await download.text();
    t.match(svg, /<svg[\s>]/);
    t.match(svg, /viewBox="0 0 48 32"/);
    t.match(svg, /<path/, 'the colour areas were traced');
  });

  await t.test('a hand-written 24-bit BMP is traced', async (t) => {
    const submitted = await submit(url, auth, bmp24(30, 20), 'scan.bmp', 'image/bmp');
    t.equal(submitted.status, 202, JSON.stringify(submitted.body));
    t.equal(submitted.body.width, 30);
    t.equal(submitted.body.height, 20);
    const { job } = await untilEnded(url, auth, submitted.body.id);
    t.equal(job.status, 'completed', JSON.stringify(job.error ?? {}));
    const download = await fetch(`${url}/v1/jobs/${job.id}/download`, { headers: auth });
    t.equal(download.status, 200);
    t.match(download.headers.get('content-disposition'), /filename="scan\.svg"/);
    t.match(await download.text(), /viewBox="0 0 30 20"/);
  });

  await t.test('a text file named .png: 415 unsupported_format', async (t) => {
    const text = Buffer.from('this is not an image, whatever its name says\n'.repeat(4));
    const submitted = await submit(url, auth, text, 'notes.png', 'image/png');
    t.equal(submitted.status, 415);
    t.equal(submitted.body.error?.code, 'unsupported_format');
  });

  await t.test('a truncated PNG: 400 unreadable_file at submit', async (t) => {
    const png = await twoColourPng();
    // The signature survives, the IHDR chunk is cut: the format is known, the image cannot be read.
    const submitted = await submit(url, auth, png.subarray(0, 20), 'cut.png', 'image/png');
    t.equal(submitted.status, 400, JSON.stringify(submitted.body));
    t.equal(submitted.body.error?.code, 'unreadable_file');
  });

  await t.test('a PNG cut inside its pixel data: 400 unreadable_file at submit, though its header is whole', async (t) => {
    const png = await twoColourPng();
    const submitted = await submit(url, auth, png.subarray(0, png.length - 30), 'cut-late.png', 'image/png');
    t.equal(submitted.status, 400, JSON.stringify(submitted.body));
    t.equal(submitted.body.error?.code, 'unreadable_file');
    t.match(submitted.body.error?.details, { format: 'png', reason: /runs past the end/ }, 'details say where it was cut');
  });

  const list = await fetch(`${url}/v1/jobs?limit=100`, { headers: auth });
  const jobs = ((await list.json()) as { jobs: JobView[] }).jobs;
  t.same(jobs.map((j) => j.status).sort(), ['completed', 'completed'], 'the uploads refused at submit made no jobs');
});
