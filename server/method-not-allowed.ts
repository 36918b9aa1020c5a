/**
 * A known path asked with a method it does not take (`PUT /v1/vectorize`) answers 405
 * `method_not_allowed` with an `Allow` header, instead of hapi's 404 that reads as a typo in
 * the path. Registered before the error mapping, so only hapi's own not-found answers reach it.
 */
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import { VectorizeError } from './http-errors.js';
import { statusOf, toErrorBody } from './http-errors.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The methods routed for `path`; GET brings HEAD, as hapi answers it from the GET route. */
function allowedMethods(server: Server, path: string): string[] {
  const allowed: string[] = METHODS.filter((method) => server.match(method, path) !== null);
  if (allowed.includes('GET')) allowed.splice(1, 0, 'HEAD');
  return allowed;
}

export function registerMethodNotAllowed(server: Server): void {
  server.ext('onPreResponse', (request: Request, h: ResponseToolkit) => {
    const response = request.response as { isBoom?: boolean; output?: { statusCode: number } } | null;
    // hapi's not-found route (method '_special') answers every request that matched no route.
    if (!response?.isBoom || response.output?.statusCode !== 404 || request.route.method !== ('_special' as string)) return h.continue;
    const allowed = allowedMethods(server, request.path);
    if (allowed.length === 0) return h.continue;
    const error = new VectorizeError(
      'method_not_allowed',
      `${request.method.toUpperCase()} is not offered on ${request.path}; use ${allowed.join(', ')}.`,
      {
        method: request.method.toUpperCase(),
        allowed,
      },
    );
    return h
      .response(toErrorBody(error))
      .code(statusOf(error.code))
      .type('application/json')
      .header('Allow', allowed.join(', '))
      .takeover();
  });
}
