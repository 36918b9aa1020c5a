import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLowdbStore } from '../../../server/adapters/lowdb-store.js';
import { systemClock } from '../../../server/adapters/clock.js';
import { secretBox, type SecretBox } from '../../../server/adapters/secret-box.js';
import { webhookService } from '../../../server/services/webhooks.js';
import { AddressPolicy } from '../../../server/webhooks/address-policy.js';
import { WebhookSender, systemResolver, type Resolver } from '../../../server/webhooks/sender.js';

interface WebhookServiceOptions {
  /** The store file; a fresh temp dir's db.json when omitted (reuse one to model a restart). */
  file?: string;
  resolve?: Resolver;
  /** VECTORIZE_WEBHOOK_ALLOW_CIDRS; the receivers listen on 127.0.0.1, admitted as an operator would. */
  allow?: string;
  backoffMs?: number;
  secrets?: SecretBox;
}

/** The webhooks service over a real lowdb store in a temp dir, with wall-clock time. */
export async function openWebhookService(t: { teardown(fn: () => unknown): void }, options: WebhookServiceOptions = {}) {
  let file = options.file;
  if (!file) {
    const dir = mkdtempSync(join(tmpdir(), 'vectorize-webhooks-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    file = join(dir, 'db.json');
  }
  const store = await openLowdbStore(file, { writeDelayMs: 1 });
  const resolve = options.resolve ?? systemResolver;
  const policy = new AddressPolicy(options.allow ?? '127.0.0.1/32');
  const secrets = options.secrets ?? secretBox([randomBytes(32)]);
  const service = webhookService({
    store,
    clock: systemClock,
    secrets,
    policy,
    resolve,
    backoffMs: options.backoffMs ?? 5,
    sender: new WebhookSender({ policy, resolve, timeoutMs: 2000 }),
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await service.stop();
    await store.close();
  };
  t.teardown(close);
  return { store, service, secrets, file, close };
}

interface ReceivedRequest {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on a loopback address; `answer` decides each status in turn. */
export async function startReceiver(
  answer: (n: number, req: ReceivedRequest) => { status: number; headers?: Record<string, string> },
  host = '127.0.0.1',
) {
  const received: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      const { status, headers } = answer(received.length, request);
      res.writeHead(status, headers);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    url: `http://${host}:${port}/hook`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
