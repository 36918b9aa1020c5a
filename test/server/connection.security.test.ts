/**
 * Malformed requests on a real socket: none may stop the process (a short Content-Length on a
 * closing connection used to crash hapi's transmit), each gets the contract's JSON error, and a
 * normal request succeeds after each.
 */
import t from 'tap';

type Tap = Pick<typeof t, 'equal' | 'teardown'>;
import { get } from 'node:http';
import { connect } from 'node:net';
import { harness, multipart, type Harness } from './helpers.js';

const ADMIN_TOKEN = 'admin-token-for-tests-0123456789';

interface RawAnswer {
  status: number | null;
  headers: string;
  body: string;
  closed: boolean;
}

/** Writes bytes, optionally half-closes, and reads until the server closes or `waitMs` passes. */
function raw(port: number, bytes: string | Buffer, options: { halfClose?: boolean; waitMs?: number } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closed = false;
    const finish = () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1];
      socket.destroy();
      resolve({ status: status ? Number(status) : null, headers: head, body: rest.join('\r\n\r\n'), closed });
    };
    const timer = setTimeout(finish, options.waitMs ?? 2000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.on('connect', () => {
      socket.write(bytes);
      if (options.halfClose) socket.end();
    });
    socket.on('error', reject);
  });
}

function errorCode(answer: RawAnswer): string | undefined {
  const firstBody = answer.body.split('HTTP/1.1 ')[0];
  try {
    return (JSON.parse(firstBody) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}

async function listening(t: Tap): Promise<{ h: Harness; port: number; secret: string }> {
  const h = await harness(t, { env: { PORT: '0' }, adminToken: ADMIN_TOKEN });
  await h.app.server.start();
  const { secret } = await h.account('trial');
  return { h, port: h.app.server.info.port as number, secret };
}

async function stillServes(t: Tap, port: number, secret: string, what: string): Promise<void> {
  // agent: false closes the connection after the answer, so the harness stops without waiting on it.
  const status = await new Promise<number | undefined>((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/v1/account', agent: false, headers: { authorization: `Bearer ${secret}` } }, (res) => {
      res.resume();
      resolve(res.statusCode);
    }).on('error', reject);
  });
  t.equal(status, 200, `a normal request succeeds after: ${what}`);
}

t.test('a short Content-Length followed by more bytes answers 400 and the server keeps serving', async (t) => {
  const { h, port, secret } = await listening(t);
  const json = '{"name":"abcdefgh"}';
  const form = multipart({}, { data: h.png });
  const formHead = `Content-Type: ${form.headers['content-type']}\r\n`;
  const cases: { name: string; bytes: string | Buffer; status: number }[] = [];
  const targets = [
    { path: '/v1/keys', auth: `Bearer ${secret}` },
    { path: '/v1/webhooks', auth: `Bearer ${secret}` },
    { path: '/admin/v1/accounts', auth: `Bearer ${ADMIN_TOKEN}` },
  ];
  for (const { path, auth } of targets) {
    const head = `Authorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n`;
    cases.push({ name: `HTTP/1.0 ${path}`, bytes: `POST ${path} HTTP/1.0\r\n${head}${json}`, status: 400 });
    cases.push({
      name: `Connection: close ${path}`,
      bytes: `POST ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${head}${json}`,
      status: 400,
    });
    cases.push({ name: `keep-alive ${path}`, bytes: `POST ${path} HTTP/1.1\r\nHost: x\r\n${head}${json}`, status: 400 });
  }
  const formBytes = (version: string, extra: string) =>
    Buffer.concat([
      Buffer.from(
        `POST /v1/vectorize ${version}\r\nHost: x\r\n${extra}Authorization: Bearer ${secret}\r\n${formHead}Content-Length: 40\r\n\r\n`,
      ),
      form.payload,
    ]);
  cases.push({ name: 'HTTP/1.0 multipart', bytes: formBytes('HTTP/1.0', ''), status: 400 });
  cases.push({ name: 'Connection: close multipart', bytes: formBytes('HTTP/1.1', 'Connection: close\r\n'), status: 400 });

  for (const c of cases) {
    const answer = await raw(port, c.bytes);
    t.equal(answer.status, c.status, `${c.name}: answered`);
    t.equal(errorCode(answer), 'invalid_parameter', `${c.name}: the contract's JSON error`);
    t.ok(answer.closed, `${c.name}: the connection is closed after the answer`);
    await stillServes(t, port, secret, c.name);
  }
});

t.test('a body that stops before its Content-Length answers 400 for that request alone', async (t) => {
  const { h, port, secret } = await listening(t);
  const form = multipart({}, { data: h.png });
  const auth = `Authorization: Bearer ${secret}\r\n`;
  const json = 'Content-Type: application/json\r\n';
  const multipartHead =
    `POST /v1/vectorize HTTP/1.1\r\nHost: x\r\n${auth}` +
    `Content-Type: ${form.headers['content-type']}\r\nContent-Length: ${form.payload.length + 1000}\r\n\r\n`;
  const cases: { name: string; bytes: string | Buffer }[] = [
    { name: 'HTTP/1.1 JSON', bytes: `POST /v1/keys HTTP/1.1\r\nHost: x\r\n${auth}${json}Content-Length: 500\r\n\r\n{"name":"a"}` },
    { name: 'HTTP/1.0 JSON', bytes: `POST /v1/keys HTTP/1.0\r\n${auth}${json}Content-Length: 500\r\n\r\n{"name":"a"}` },
    {
      name: 'chunked, cut in a chunk',
      bytes: `POST /v1/keys HTTP/1.1\r\nHost: x\r\n${auth}${json}Transfer-Encoding: chunked\r\n\r\n50\r\n{"name":"a"}`,
    },
    { name: 'multipart', bytes: Buffer.concat([Buffer.from(multipartHead), form.payload]) },
  ];
  for (const c of cases) {
    const answer = await raw(port, c.bytes, { halfClose: true });
    t.equal(answer.status, 400, `${c.name}: answered 400`);
    t.equal(errorCode(answer), 'invalid_parameter', `${c.name}: the contract's JSON error`);
    await stillServes(t, port, secret, c.name);
  }
  t.equal(h.app.context.store.keys.count(), 1, 'no truncated request was acted on');
});

t.test("requests the HTTP parser refuses answer the contract's JSON error", async (t) => {
  const { port, secret } = await listening(t);
  const cases: { name: string; bytes: string; status: number; field: string }[] = [
    {
      name: 'negative Content-Length',
      bytes: 'POST /v1/keys HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: -5\r\n\r\n{}',
      status: 400,
      field: 'request',
    },
    {
      name: 'chunked plus Content-Length',
      bytes: 'POST /v1/keys HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
      status: 400,
      field: 'request',
    },
    { name: 'bad request line', bytes: 'GET /v1/account HTTP/9.9 extra\r\n\r\n', status: 400, field: 'request' },
    { name: 'binary garbage', bytes: '\u0000\u0001\u0002\u00ff\r\n\r\n', status: 400, field: 'request' },
    {
      name: '16 KiB+ headers',
      bytes: `GET /v1/account HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`,
      status: 431,
      field: 'headers',
    },
  ];
  for (const c of cases) {
    const answer = await raw(port, c.bytes);
    t.equal(answer.status, c.status, `${c.name}: status`);
    const body = JSON.parse(answer.body) as { error: { code: string; details: { field: string } } };
    t.equal(body.error.code, 'invalid_parameter', `${c.name}: code`);
    t.equal(body.error.details.field, c.field, `${c.name}: details.field`);
    t.match(answer.headers, /content-type: application\/json/i);
    await stillServes(t, port, secret, c.name);
  }
});
