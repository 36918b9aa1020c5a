/**
 * A disk that fills up for real: the server's data dir is a 4 MiB tmpfs mounted in a private
 * mount namespace (`unshare --mount`), so the ENOSPC comes from the kernel, not from a stub.
 * An upload larger than the space left answers 503 storage_full with Retry-After and leaves no
 * partial file; /healthz says the storage is low; freeing space brings uploads back.
 */
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorOf, harness, multipart, pngBytes } from './helpers.js';

const fixture = fileURLToPath(new URL('../fixtures/server/full-disk-server.ts', import.meta.url));
const TMPFS_BYTES = 4 * 1024 * 1024;
const MIN_FREE_BYTES = 1024 * 1024;

const tmpfsWorks =
  spawnSync('unshare', [
    '--mount',
    'sh',
    '-c',
    'd=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d" && umount "$d"; s=$?; rmdir "$d"; exit $s',
  ]).status === 0;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: body ? { ...headers, 'content-length': String(body.length) } : headers,
        agent: false,
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

t.test(
  'a real ENOSPC while receiving an upload is 503 storage_full and leaves nothing behind',
  { skip: tmpfsWorks ? false : 'mounting a tmpfs in a new mount namespace is not permitted here' },
  async (t) => {
    const mountPoint = mkdtempSync(join(tmpdir(), 'vectorize-full-'));
    t.teardown(() => rmSync(mountPoint, { recursive: true, force: true }));
    const script = `mount -t tmpfs -o size=${TMPFS_BYTES},mode=0700 tmpfs "$1" && exec "$2" --import tsx "$3" "$1" "$4"`;
    const child = spawn('unshare', ['--mount', 'sh', '-c', script, 'sh', mountPoint, process.execPath, fixture, String(MIN_FREE_BYTES)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    t.teardown(() => child.kill('SIGKILL'));
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const [port, secret] = await new Promise<[number, string]>((resolve, reject) => {
      const timer = setInterval(() => {
        const match = /PORT (\d+) KEY (\S+)/.exec(out);
        if (match) {
          clearInterval(timer);
          resolve([Number(match[1]), match[2]]);
        }
      }, 20);
      child.once('exit', (code) => reject(new Error(`fixture exited ${code}: ${out}`)));
    });
    // The tmpfs lives in the child's mount namespace; its root is reachable through /proc.
    const dataDir = join('/proc', String(child.pid), 'root', mountPoint);
    const leftovers = () => [...readdirSync(join(dataDir, 'tmp')), ...readdirSync(join(dataDir, 'uploads'))];
    const auth = { authorization: `Bearer ${secret}` };
    const upload = async (data: Buffer) => {
      const form = multipart({}, { data, filename: 'image.png' });
      return send(port, 'POST', '/v1/vectorize', { ...form.headers, ...auth }, form.payload);
    };
    const health = async () =>
      JSON.parse((await send(port, 'GET', '/healthz')).body) as { status: string; storage: { free_bytes: number; low: boolean } };

    const before = await health();
    t.equal(before.status, 'ok');
    t.equal(before.storage.low, false, `${before.storage.free_bytes} bytes free on the tmpfs`);

    // More than the whole tmpfs: hapi's write of the upload meets ENOSPC part way.
    const tooBig = await upload(randomBytes(TMPFS_BYTES + 512 * 1024));
    t.equal(tooBig.status, 503, tooBig.body);
    t.equal((JSON.parse(tooBig.body) as { error: { code: string } }).error.code, 'storage_full');
    t.equal(tooBig.headers['retry-after'], '300');
    t.same(leftovers(), [], 'no half-written upload in tmp/ or uploads/');
    t.equal((await health()).storage.low, false, 'the space the failed upload took is free again');

    // Fill what is left, as another tenant of the disk would.
    const filler = join(dataDir, 'filler');
    const block = Buffer.alloc(64 * 1024, 1);
    let filled = 0;
    try {
      for (;;) {
        writeFileSync(filler, block, { flag: 'a' });
        filled += block.length;
      }
    } catch (error) {
      t.equal((error as NodeJS.ErrnoException).code, 'ENOSPC', `the filler stopped at ENOSPC after ${filled} bytes`);
    }
    const full = await health();
    t.equal(full.status, 'low_storage', 'the health check says so');
    t.equal(full.storage.low, true);
    const refused = await upload(await pngBytes(8, 8));
    t.equal(refused.status, 503);
    t.equal((JSON.parse(refused.body) as { error: { code: string } }).error.code, 'storage_full');
    t.same(leftovers(), []);

    rmSync(filler);
    t.equal((await health()).status, 'ok');
    const accepted = await upload(await pngBytes(8, 8));
    t.equal(accepted.status, 202, 'with space back, uploads are accepted again');
    t.equal(child.exitCode, null, 'the server kept running throughout');
  },
);

t.test('a database write that meets a full disk refuses the submission whole', async (t) => {
  // Injected: on a real tmpfs the upload and db.json compete for the same last bytes, so which
  // write fails first cannot be arranged; this is the one ENOSPC the test above cannot reach.
  const h = await harness(t);
  const { id: accountId, secret } = await h.account('trial');
  const store = h.app.context.store;
  const flush = store.flush.bind(store);
  let failures = 1;
  store.flush = async () => {
    if (failures-- > 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });
    return flush();
  };
  const refused = await h.submit(secret, {});
  t.equal(refused.statusCode, 503);
  t.equal(errorOf(refused).code, 'storage_full');
  t.equal(refused.headers['retry-after'], '300');
  t.equal(store.jobs.count(), 0, 'no job record');
  t.same(readdirSync(join(h.dir, 'uploads')), [], 'no upload kept');
  t.equal(store.accounts.get(accountId)?.trial_used, 0, 'the trial conversion is given back');
  const accepted = await h.submit(secret, {});
  t.equal(accepted.statusCode, 202, 'the next write succeeds');
});
