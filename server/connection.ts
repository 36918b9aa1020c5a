/**
 * What happens on the wire below hapi's request lifecycle: parser errors, bodies the server never
 * read, and closing a connection so the client still reads its answer.
 *
 * - hapi's own `clientError` listener calls `request._reply()` on a request whose lifecycle is still
 *   running (hapijs/hapi#4363): when bytes after a short Content-Length arrive on a closing
 *   connection, two replies race and hapi throws an AssertError no one catches, which stopped the
 *   process. Ours never touches hapi's request: a request that arrived whole is answered by its own
 *   lifecycle and the connection closes after it; a body cut short is answered 400 here, and hapi
 *   sees the usual abort when the socket closes.
 * - Parser refusals with no request (bad request line, 16 KiB+ headers, negative Content-Length,
 *   chunked plus Content-Length) answer the contract's JSON error instead of a bare 400.
 * - An early refusal (401/403 from auth, 413/415 from the headers, a broken multipart) waits until the
 *   rest of the upload is read and discarded, up to MAX_DISCARD_BYTES, so a client still sending gets
 *   the answer (Node's fetch lost it to EPIPE) and keeps its keep-alive connection; past that the
 *   answer carries `Connection: close` and the socket closes lingering: FIN first, reading on until
 *   the client closes or LINGER_MS, since closing with unread bytes sends an RST that can destroy the
 *   answer in the client's buffers.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Server } from '@hapi/hapi';
import { VectorizeError } from './http-errors.js';
import { MAX_UPLOAD_BYTES } from './limits.js';
import { toErrorBody } from './http-errors.js';
import type { Logger } from './log.js';

/** The upload limit plus room for the multipart framing: what an early refusal reads and drops. */
const MAX_DISCARD_BYTES = MAX_UPLOAD_BYTES + 256 * 1024;
/** How long a closing socket keeps reading (and dropping) after its FIN, as nginx's lingering_timeout. */
const LINGER_MS = 5000;

interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  requestId?: string;
}

/** The exchange whose code is running, for the process-level guard's log line. */
const current = new AsyncLocalStorage<Exchange>();
const bySocket = new WeakMap<Socket, Exchange>();

export function currentExchange(): Exchange | undefined {
  return current.getStore();
}

function lingeringClose(socket: Socket): void {
  if (socket.destroyed || (socket as Socket & { lingering?: boolean }).lingering) return;
  (socket as Socket & { lingering?: boolean }).lingering = true;
  const finish = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(finish, LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  if (socket.readableEnded) socket.once('finish', finish);
  else socket.once('end', finish);
  socket.resume();
  socket.end();
}

function parserRefusal(code: string | undefined): { status: number; reason: string; error: VectorizeError } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        reason: 'Request Header Fields Too Large',
        error: new VectorizeError('invalid_parameter', 'The request headers are larger than 16 KiB.', { field: 'headers' }),
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'HPE_TIMEOUT':
      return {
        status: 408,
        reason: 'Request Timeout',
        error: new VectorizeError('invalid_parameter', 'The request did not arrive in time.', { field: 'request' }),
      };
    case 'HPE_INVALID_EOF_STATE':
      return {
        status: 400,
        reason: 'Bad Request',
        error: new VectorizeError('invalid_parameter', 'The request body ended before its declared length.', { field: 'body' }),
      };
    default:
      return {
        status: 400,
        reason: 'Bad Request',
        error: new VectorizeError('invalid_parameter', 'The request is not valid HTTP/1.1.', {
          field: 'request',
          parser: code ?? 'unknown',
        }),
      };
  }
}

function onClientError(error: Error & { code?: string }, socket: Socket, log: Logger): void {
  const exchange = bySocket.get(socket);
  log.warn('client error', { request_id: exchange?.requestId, code: error.code, err: error.message });
  if (socket.destroyed) return;
  const refusal = parserRefusal(error.code);
  const body = JSON.stringify(toErrorBody(refusal.error));
  if (exchange && !exchange.res.writableEnded) {
    const { req, res } = exchange;
    if (req.complete) {
      // The request arrived whole (its body was shorter than what followed): its own lifecycle answers
      // it, and what followed is garbage, so the connection ends after that answer.
      if (!res.headersSent) res.setHeader('connection', 'close');
      res.once('finish', () => lingeringClose(socket));
      return;
    }
    if (res.headersSent) {
      socket.destroy();
      return;
    }
    // The body stopped short: this request alone gets the 400. hapi, still waiting for the body, sees
    // the abort when the socket closes and drops its own lifecycle.
    res.writeHead(refusal.status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    res.end(body);
    return;
  }
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.write(
    `HTTP/1.1 ${refusal.status} ${refusal.reason}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
  lingeringClose(socket);
}

/** Reads and drops what is left of a request body, up to `limit` bytes; true when it all arrived. */
function discardBody(req: IncomingMessage, limit: number): Promise<boolean> {
  return new Promise((resolve) => {
    let seen = 0;
    const done = (whole: boolean) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      req.off('error', onClose);
      if (!whole) req.pause();
      resolve(whole);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit) done(false);
    };
    const onEnd = () => done(true);
    const onClose = () => done(req.complete);
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('close', onClose);
    req.once('error', onClose);
    req.resume();
  });
}

function unreadBody(req: IncomingMessage): boolean {
  return !req.complete && !req.readableEnded && !req.destroyed;
}

/**
 * Installs the wire-level behaviour on a hapi server (before it starts): must run after
 * Hapi.server(), which attaches the listener's own `request` and `clientError` handlers.
 */
export function registerConnectionHandling(server: Server, log: Logger): void {
  const listener = server.listener;
  const [dispatch] = listener.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  if (dispatch) {
    listener.removeListener('request', dispatch);
    listener.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const exchange: Exchange = { req, res };
      bySocket.set(req.socket, exchange);
      res.once('close', () => {
        if (bySocket.get(req.socket) === exchange) bySocket.delete(req.socket);
      });
      current.run(exchange, dispatch, req, res);
    });
  }
  listener.removeAllListeners('clientError');
  listener.on('clientError', (error: Error, socket: Socket) => onClientError(error, socket, log));
  listener.on('connection', (socket: Socket) => {
    // Node closes a `Connection: close` exchange with destroySoon(): make that a lingering close.
    socket.destroySoon = () => lingeringClose(socket);
  });

  server.ext('onRequest', (request, h) => {
    const exchange = bySocket.get(request.raw.req.socket);
    if (exchange?.req === request.raw.req) exchange.requestId = request.info.id;
    return h.continue;
  });
  server.ext('onPreResponse', async (request, h) => {
    const req = request.raw.req;
    // server.inject() bodies are in memory: nothing to drain.
    if ((request as { isInjected?: boolean }).isInjected || !unreadBody(req)) return h.continue;
    const declared = Number(req.headers['content-length']);
    // Past the limit the answer goes now with Connection: close (hapi adds it for an unread body).
    if (declared > MAX_DISCARD_BYTES) return h.continue;
    await discardBody(req, MAX_DISCARD_BYTES);
    return h.continue;
  });
}
