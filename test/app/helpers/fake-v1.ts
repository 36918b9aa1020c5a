/**
 * A tiny stand-in for the /v1 API (node:http, in memory) used to drive the front end through
 * states the real engine reaches only by chance: a long queue, a failed job with a contract code,
 * a rejected key. It serves the built front end at `/` like the real server does.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { AddressInfo } from 'node:net';

interface FakeJob {
  id: string;
  status: 'queued' | 'processing' | 'completed' | 'failed';
  progress: number;
  queue_position?: number;
  polls: number;
  fields: Record<string, string>;
  fileName: string;
  failWith?: string;
}

interface FakeV1 {
  url: string;
  key: string;
  jobs: FakeJob[];
  stop(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
};

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function error(res: ServerResponse, status: number, code: string, message: string): void {
  send(res, status, { error: { code, message, details: {} } });
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Pulls the plain text fields and the file name out of a multipart body (enough for a fake). */
function parseMultipart(raw: Buffer, contentType: string): { fields: Record<string, string>; fileName: string } {
  const boundary = /boundary=(.+)$/.exec(contentType)?.[1] ?? '';
  const fields: Record<string, string> = {};
  let fileName = '';
  for (const part of raw.toString('latin1').split(`--${boundary}`)) {
    const name = /name="([^"]+)"/.exec(part)?.[1];
    if (!name) continue;
    const file = /filename="([^"]*)"/.exec(part)?.[1];
    if (file !== undefined) fileName = file;
    else fields[name] = part.split('\r\n\r\n')[1]?.replace(/\r\n$/, '') ?? '';
  }
  return { fields, fileName };
}

export async function startFakeV1(options: { rendererDir: string; failNames?: RegExp; trialLeft?: number }): Promise<FakeV1> {
  const key = 'service_sk_live_fakefakefakefakefake';
  const jobs: FakeJob[] = [];
  let trialLeft = options.trialLeft ?? 5;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!url.pathname.startsWith('/v1/')) {
      const file = url.pathname === '/' ? 'index.html' : url.pathname.slice(1);
      try {
        const data = await readFile(join(options.rendererDir, file));
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
        res.end(data);
      } catch {
        error(res, 404, 'not_found', 'Not found');
      }
      return;
    }
    if (req.headers.authorization !== `Bearer ${key}`) return error(res, 401, 'unauthorized', 'Bad key');
    if (url.pathname === '/v1/account') {
      return send(res, 200, {
        id: 'acct_fake',
        name: 'Fake',
        plan: 'trial',
        allowances: { trial: { total: 5, used: 5 - trialLeft, left: trialLeft }, monthly: null },
        limits: { active_jobs: 2, manual_settings: false },
      });
    }
    if (url.pathname === '/v1/vectorize' && req.method === 'POST') {
      const { fields, fileName } = parseMultipart(await body(req), req.headers['content-type'] ?? '');
      trialLeft = Math.max(0, trialLeft - 1);
      const job: FakeJob = {
        id: `job_fake${jobs.length.toString().padStart(12, '0')}`,
        status: 'queued',
        progress: 0,
        queue_position: 2,
        polls: 0,
        fields,
        fileName,
        failWith: options.failNames?.test(fileName) ? 'unreadable_file' : undefined,
      };
      jobs.push(job);
      return send(res, 202, view(job));
    }
    if (url.pathname === '/v1/jobs' && req.method === 'GET') {
      return send(res, 200, { jobs: [...jobs].reverse().map(view), next_cursor: null });
    }
    const match = /^\/v1\/jobs\/([^/]+)(\/download)?$/.exec(url.pathname);
    const job = jobs.find((candidate) => candidate.id === match?.[1]);
    if (!match || !job) return error(res, 404, 'not_found', 'No such job');
    if (match[2]) {
      if (job.status !== 'completed') return error(res, 409, 'not_ready', 'Not ready');
      res.writeHead(200, { 'content-type': 'image/svg+xml', 'content-disposition': 'attachment; filename="result.svg"' });
      res.end(svgFor(job));
      return;
    }
    // Each poll moves the job one step: queued #2 → #1 → processing 40 → 80 → completed (or failed).
    job.polls += 1;
    const steps: Array<Partial<FakeJob>> = [
      { status: 'queued', queue_position: 1 },
      { status: 'processing', progress: 40, queue_position: undefined },
      { status: 'processing', progress: 80 },
      job.failWith ? { status: 'failed' } : { status: 'completed', progress: 100 },
    ];
    Object.assign(job, steps[Math.min(job.polls - 1, steps.length - 1)]);
    return send(res, 200, view(job));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    key,
    jobs,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function view(job: FakeJob): Record<string, unknown> {
  return {
    id: job.id,
    status: job.status,
    progress: job.progress,
    ...(job.status === 'queued' ? { queue_position: job.queue_position } : {}),
    mode: 'clipart',
    retention: '24h',
    megapixels: 0.01,
    created_at: new Date(0).toISOString(),
    file_name: job.fileName,
    ...(job.status === 'completed' ? { download_url: `/v1/jobs/${job.id}/download` } : {}),
    ...(job.status === 'failed' ? { error: { code: job.failWith, message: 'x', details: {} } } : {}),
  };
}

/** A different drawing per smoothing setting, so a re-run visibly changes the result. */
function svgFor(job: FakeJob): string {
  const round = job.fields.smoothing === 'off' ? 0 : 12;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64"><path fill="#2563eb" d="M8 8H56V56H8Z"/><rect x="20" y="20" width="24" height="24" rx="${round}" fill="#f59e0b"/></svg>`;
}
