/**
 * The last guard of `vectorize serve`: an error nothing else caught is logged with the request it
 * came from, that request alone is answered 500 (or its socket closed), and the process keeps
 * serving. One client must never be able to stop the appliance; a supervisor (docs/operations.md)
 * restarts it for what this cannot catch (out of memory, a native crash).
 */
import { VectorizeError } from './http-errors.js';
import { currentExchange } from './connection.js';
import { toErrorBody } from './http-errors.js';
import type { Logger } from './log.js';

function answerWith500(): string | undefined {
  const exchange = currentExchange();
  if (!exchange) return undefined;
  const { res } = exchange;
  if (!res.writableEnded) {
    if (res.headersSent) res.destroy();
    else {
      const body = JSON.stringify(toErrorBody(new VectorizeError('internal_error', 'Something went wrong on our side.')));
      res.writeHead(500, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        connection: 'close',
      });
      res.end(body);
    }
  }
  return exchange.requestId;
}

/** Installs the handlers; the returned function removes them (tests, a stop in-process). */
export function installProcessGuard(log: Logger): () => void {
  const onError = (kind: string) => (reason: unknown) => {
    const error = reason instanceof Error ? reason : new Error(String(reason));
    let requestId: string | undefined;
    try {
      requestId = answerWith500();
    } catch (answerError) {
      log.error('could not answer after an unexpected error', { err: (answerError as Error).message });
    }
    log.error('unexpected error', { kind, request_id: requestId, err: error.message, stack: error.stack });
  };
  const onException = onError('uncaughtException');
  const onRejection = onError('unhandledRejection');
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  return () => {
    process.off('uncaughtException', onException);
    process.off('unhandledRejection', onRejection);
  };
}
