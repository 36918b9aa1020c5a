/**
 * Sends one webhook POST. The address check happens here, at connect time, on every delivery:
 * the hostname is resolved by us, every answer must pass the AddressPolicy, and the socket is
 * opened to exactly the address we checked (a custom `lookup`), so a DNS answer that changes
 * between registration and delivery (rebinding) cannot reach inside the network. Redirects are
 * never followed: a 3xx is just a failed attempt.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { AddressPolicy } from './address-policy.js';

interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

class AddressRefusedError extends Error {
  readonly address: string;
  constructor(host: string, address: string, reason: string) {
    super(`${host} resolves to ${address}, which webhooks may not reach (${reason})`);
    this.name = 'AddressRefusedError';
    this.address = address;
  }
}

/** Resolves `hostname` and returns its addresses only if every one of them is allowed. */
async function resolveAllowed(hostname: string, policy: AddressPolicy, resolve: Resolver): Promise<ResolvedAddress[]> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  const literal = net.isIP(bare);
  const answers: ResolvedAddress[] = literal ? [{ address: bare, family: literal === 6 ? 6 : 4 }] : await resolve(bare);
  if (answers.length === 0) throw new AddressRefusedError(bare, '(none)', 'the name does not resolve');
  for (const answer of answers) {
    const verdict = policy.check(answer.address);
    if (!verdict.allowed) throw new AddressRefusedError(bare, answer.address, verdict.reason);
  }
  return answers;
}

/** Checks a URL at registration: http(s), no credentials, and every resolved address allowed. */
export async function checkWebhookUrl(rawUrl: string, policy: AddressPolicy, resolve: Resolver): Promise<URL> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new TypeError('url is not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('url must be http or https');
  if (url.username || url.password) throw new TypeError('url must not carry credentials');
  await resolveAllowed(url.hostname, policy, resolve);
  return url;
}

interface DeliveryRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface DeliveryOutcome {
  ok: boolean;
  /** HTTP status, or null when no answer came (refused, timeout, address refused). */
  status: number | null;
  durationMs: number;
  error?: string;
  /** True when the target was refused by the address policy: retrying cannot help. */
  refused?: boolean;
}

interface SenderOptions {
  policy: AddressPolicy;
  resolve?: Resolver;
  timeoutMs?: number;
}

export class WebhookSender {
  private readonly policy: AddressPolicy;
  private readonly resolve: Resolver;
  private readonly timeoutMs: number;

  constructor(options: SenderOptions) {
    this.policy = options.policy;
    this.resolve = options.resolve ?? systemResolver;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  async send(request: DeliveryRequest): Promise<DeliveryOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const url = new URL(request.url);
    let pinned: ResolvedAddress;
    try {
      [pinned] = (await resolveAllowed(url.hostname, this.policy, this.resolve)) as [ResolvedAddress];
    } catch (error) {
      return {
        ok: false,
        status: null,
        durationMs: elapsed(),
        error: (error as Error).message,
        refused: error instanceof AddressRefusedError,
      };
    }
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise<DeliveryOutcome>((settle) => {
      const req = transport.request(url, {
        method: 'POST',
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
        agent: false, // a fresh socket per delivery, so a pooled connection never skips the check
        timeout: this.timeoutMs,
        // Connect to the address checked above and nothing else.
        lookup: (_hostname, options, callback) => {
          if ((options as { all?: boolean }).all) callback(null, [{ address: pinned.address, family: pinned.family }]);
          else (callback as (e: null, a: string, f: number) => void)(null, pinned.address, pinned.family);
        },
      });
      const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      req.on('timeout', () => req.destroy(new Error(`no answer within ${this.timeoutMs} ms`)));
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => {
          clearTimeout(deadline);
          const status = res.statusCode ?? 0;
          settle({
            ok: status >= 200 && status < 300,
            status,
            durationMs: elapsed(),
            ...(status >= 300 && status < 400 ? { error: 'redirects are not followed' } : {}),
          });
        });
        res.on('error', (error) => {
          clearTimeout(deadline);
          settle({ ok: false, status: res.statusCode ?? null, durationMs: elapsed(), error: error.message });
        });
      });
      req.on('error', (error) => {
        clearTimeout(deadline);
        settle({ ok: false, status: null, durationMs: elapsed(), error: error.message });
      });
      req.end(request.body);
    });
  }
}
