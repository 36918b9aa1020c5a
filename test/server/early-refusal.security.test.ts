/**
 * Every refusal reaches the client, including those the server gives before reading the upload:
 * Node's fetch, curl and a raw socket that writes slowly each send small and 20 MB bodies, and every
 * request must get its status and JSON error (Node's fetch used to get EPIPE instead of the 401).
 * BATTERY_REPEAT (default 5 small, 1 large for the early refusals only, to keep `npm test` short on a shared box) sets how
 * many of each; the figures in docs/operations.md come from BATTERY_REPEAT=100.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { harness, hugePngHeader, multipart } from './helpers.js';

const LARGE = 20 * 1024 * 1024;
const repeatSmall = Number(process.env.BATTERY_REPEAT ?? 5);
const repeatLarge = Number(process.env.BATTERY_REPEAT ?? 1);
/** By default 20 MB bodies go only to the refusals given before the body is read; the rest read it whole anyway. */
const largeForAll = process.env.BATTERY_REPEAT !== undefined;
const EARLY = new Set(['unauthorized', 'forbidden', 'invalid_parameter', 'file_too_large']);
const CONCURRENCY = 8;

interface Refusal {
  name: string;
  status: number;
  code: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

interface Answer {
  status?: number;
  code?: string;
  error?: string;
}

function codeOf(body: string): string | undefined {
  try {
    return (JSON.parse(body) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}

async function viaFetch(port: number, r: Refusal): Promise<Answer> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}${r.path}`, {
      method: 'POST',
      headers: r.headers,
      body: new Blob([r.body as Uint8Array<ArrayBuffer>]),
    });
    return { status: res.status, code: codeOf(await res.text()) };
  } catch (error) {
    return { error: String((error as Error & { cause?: Error }).cause?.message ?? error) };
  }
}

function viaCurl(port: number, r: Refusal, bodyFile: string): Promise<Answer> {
  const args = ['-sS', '-o', '-', '-w', '\n%{http_code}', '-X', 'POST', '--data-binary', `@${bodyFile}`];
  for (const [name, value] of Object.entries(r.headers)) args.push('-H', `${name}: ${value}`);
  args.push(`http://127.0.0.1:${port}${r.path}`);
  return new Promise((resolve) => {
    const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('close', () => {
      const cut = out.lastIndexOf('\n');
      const status = Number(out.slice(cut + 1));
      resolve(status ? { status, code: codeOf(out.slice(0, cut)), error: err || undefined } : { error: err || 'no answer' });
    });
  });
}

/** Writes the request in small pieces with pauses, as a slow uplink does, then reads the answer. */
function viaSlowSocket(port: number, r: Refusal): Promise<Answer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const head = [`POST ${r.path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', `Content-Length: ${r.body.length}`];
    for (const [name, value] of Object.entries(r.headers)) head.push(`${name}: ${value}`);
    const chunks: Buffer[] = [];
    let writeError: string | undefined;
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error) => (writeError = error.message));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
      resolve(
        status
          ? { status: Number(status), code: codeOf(text.split('\r\n\r\n').slice(1).join('\r\n\r\n')) }
          : { error: writeError ?? 'closed without an answer' },
      );
    });
    socket.on('connect', async () => {
      socket.write(`${head.join('\r\n')}\r\n\r\n`);
      const piece = r.body.length > 1024 * 1024 ? 256 * 1024 : 512;
      for (let at = 0; at < r.body.length && !socket.destroyed; at += piece) {
        if (!socket.write(r.body.subarray(at, at + piece))) await new Promise((resolve) => socket.once('drain', resolve));
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    });
  });
}

async function inBatches(count: number, run: () => Promise<Answer>): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let done = 0; done < count; done += CONCURRENCY) {
    answers.push(...(await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count - done) }, run))));
  }
  return answers;
}

t.test('early and late refusals reach fetch, curl and a slow socket, small and 20 MB', async (t) => {
  const h = await harness(t, { env: { PORT: '0' } });
  await h.app.server.start();
  // fetch pools keep-alive sockets across phases; a phase of curl and slow sockets can outlast Node's
  // 5 s idle timeout, and a POST sent on a socket the server is closing at that instant gets an RST
  // unrelated to the refusal under test.
  h.app.server.listener.keepAliveTimeout = 120_000;
  const port = h.app.server.info.port as number;
  const pro = await h.account('pro');
  const lite = await h.account('lite');
  const trial = await h.account('trial');
  const busy = await h.account('trial');
  for (let i = 0; i < 2; i++) t.equal((await h.submit(busy.secret)).statusCode, 202, "fills the trial's two active jobs");
  const dir = mkdtempSync(join(tmpdir(), 'vectorize-battery-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));

  const padded = (data: Buffer, size: number) => (size > data.length ? Buffer.concat([data, Buffer.alloc(size - data.length)]) : data);
  const form = (data: Buffer, size: number) => multipart({}, { data: padded(data, size) });
  const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
  const refusals = (size: number): Refusal[] => {
    const upload = form(h.png, size);
    const brokenBoundary = '----broken';
    const broken = Buffer.concat([
      Buffer.from(`--${brokenBoundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nno colon here\r\n\r\n`),
      Buffer.alloc(size),
    ]);
    const huge = form(hugePngHeader(5000, 5000), size);
    const text = form(Buffer.from('name,value\n'), size);
    return [
      { name: '401 no key', status: 401, code: 'unauthorized', path: '/v1/vectorize', headers: upload.headers, body: upload.payload },
      {
        name: '403 lite api key',
        status: 403,
        code: 'forbidden',
        path: '/v1/vectorize',
        headers: { ...upload.headers, ...bearer(lite.secret) },
        body: upload.payload,
      },
      {
        name: '400 broken multipart',
        status: 400,
        code: 'invalid_parameter',
        path: '/v1/vectorize',
        headers: { 'content-type': `multipart/form-data; boundary=${brokenBoundary}`, ...bearer(pro.secret) },
        body: broken,
      },
      {
        name: '413 over the route limit',
        status: 413,
        code: 'file_too_large',
        path: '/v1/keys',
        headers: { 'content-type': 'application/json', ...bearer(pro.secret) },
        body: Buffer.from(`{"name":"${'a'.repeat(Math.max(size, 20 * 1024))}"}`),
      },
      {
        name: '415 not an image',
        status: 415,
        code: 'unsupported_format',
        path: '/v1/vectorize',
        headers: { ...text.headers, ...bearer(pro.secret) },
        body: text.payload,
      },
      {
        name: '402 megapixels',
        status: 402,
        code: 'megapixels_exceeded',
        path: '/v1/vectorize',
        headers: { ...huge.headers, ...bearer(trial.secret) },
        body: huge.payload,
      },
      {
        name: '429 active jobs',
        status: 429,
        code: 'too_many_active_jobs',
        path: '/v1/vectorize',
        headers: { ...upload.headers, ...bearer(busy.secret) },
        body: upload.payload,
      },
      {
        name: '503 storage full',
        status: 503,
        code: 'storage_full',
        path: '/v1/vectorize',
        headers: { ...upload.headers, ...bearer(pro.secret) },
        body: upload.payload,
      },
    ];
  };

  const rssBefore = process.memoryUsage().rss;
  for (const [label, size, repeat] of [
    ['small', 0, repeatSmall],
    ['20 MB', LARGE, repeatLarge],
  ] as const) {
    for (const refusal of refusals(size).filter((r) => size === 0 || largeForAll || EARLY.has(r.code))) {
      const bodyFile = join(dir, 'body');
      writeFileSync(bodyFile, refusal.body);
      h.disk.free = refusal.code === 'storage_full' ? 0 : 100 * 1024 ** 3;
      for (const [client, run] of [
        ['fetch', () => viaFetch(port, refusal)],
        ['curl', () => viaCurl(port, refusal, bodyFile)],
        ['slow socket', () => viaSlowSocket(port, refusal)],
      ] as const) {
        const answers = await inBatches(repeat, run);
        const wrong = answers.filter((a) => a.status !== refusal.status || a.code !== refusal.code);
        t.same(
          wrong.slice(0, 3),
          [],
          `${refusal.name}, ${label}, ${client}: ${repeat - wrong.length}/${repeat} answered ${refusal.status} ${refusal.code}`,
        );
      }
    }
  }
  const grownMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
  t.ok(grownMb < 400, `memory does not grow with discarded bodies (${grownMb.toFixed(0)} MB after the 20 MB uploads)`);
  t.equal(h.app.context.store.jobs.count(), 2, 'no refused upload became a job');
});
