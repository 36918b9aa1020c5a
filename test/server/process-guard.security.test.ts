/** The last guard: an error that escapes hapi is logged with its request id, answered 500, and the process keeps serving. */
import t from 'tap';
import { spawn } from 'node:child_process';
import { get } from 'node:http';
import { fileURLToPath } from 'node:url';

const fixture = fileURLToPath(new URL('../fixtures/server/guarded-server.ts', import.meta.url));

function fetchStatus(port: number, path: string): Promise<{ status?: number; body: string }> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    }).on('error', reject);
  });
}

t.test('errors outside the request lifecycle are logged with the request id and the server keeps serving', async (t) => {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => {
    child.kill('SIGKILL');
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /PORT (\d+)/.exec(out);
      if (match) {
        clearInterval(timer);
        resolve(Number(match[1]));
      }
    }, 20);
    child.once('exit', (code) => reject(new Error(`fixture exited ${code}: ${out}`)));
  });
  for (const path of ['/test/throw', '/test/reject']) {
    const res = await fetchStatus(port, path);
    t.equal(res.status, 500, `${path}: the request is answered`);
    t.equal((JSON.parse(res.body) as { error: { code: string } }).error.code, 'internal_error');
    const health = await fetchStatus(port, '/healthz');
    t.equal(health.status, 200, `${path}: the server still serves`);
  }
  t.equal(child.exitCode, null, 'the process is still running');
  const unexpectedLines = (): Array<Record<string, string>> =>
    out
      .split('\n')
      .slice(0, -1) // only whole lines: the last may still be arriving
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, string>)
      .filter((line) => line.msg === 'unexpected error');
  // The log line travels through the child's stdout pipe, which may deliver it after the HTTP answer on a loaded box.
  const deadline = Date.now() + 10_000;
  while (unexpectedLines().length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  const unexpected = unexpectedLines();
  t.same(
    unexpected.map((line) => line.kind),
    ['uncaughtException', 'unhandledRejection'],
  );
  // hapi's request ids are "<timestamp>:<host>:<pid>:<id>:<counter>".
  for (const line of unexpected) t.match(line.request_id, /^\d+:.+:\d+$/, 'the log names the request');
  t.not(unexpected[0]?.request_id, unexpected[1]?.request_id);
});
