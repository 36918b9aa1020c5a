/**
 * The one HTTP base that the typed clients (client/v1.ts for the app, client/admin.ts for the TUI)
 * build on: JSON in and out, bearer credentials, and the contract's error body turned back into a
 * `VectorizeError`-shaped `ApiError` so callers switch on `code`.
 */
interface ApiErrorBody {
  code: string;
  message: string;
  details: Record<string, unknown>;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;

  constructor(status: number, body: ApiErrorBody) {
    super(body.message);
    this.name = 'ApiError';
    this.status = status;
    this.code = body.code;
    this.details = body.details ?? {};
  }
}

/** Raised when the server cannot be reached at all (refused, DNS, timeout). */
export class UnreachableError extends Error {
  readonly baseUrl: string;
  constructor(baseUrl: string, cause: unknown) {
    super(`Cannot reach the Vectorize server at ${baseUrl}`, { cause });
    this.name = 'UnreachableError';
    this.baseUrl = baseUrl;
  }
}

export interface HttpClientOptions {
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string | (() => string | undefined);
  fetch?: typeof fetch;
  timeoutMs?: number;
}

interface RequestOptions {
  method?: string;
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export class HttpClient {
  readonly baseUrl: string;
  private readonly options: HttpClientOptions;

  constructor(options: HttpClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.options = options;
  }

  url(path: string, query?: RequestOptions['query']): string {
    const url = new URL(this.baseUrl + path);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  /** Performs the request; non-2xx answers throw ApiError, network failures UnreachableError. */
  async raw(path: string, request: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { ...(request.headers ?? {}) };
    const token = typeof this.options.token === 'function' ? this.options.token() : this.options.token;
    if (token) headers.authorization = `Bearer ${token}`;
    let body = request.body;
    if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    }
    const signals = [request.signal, AbortSignal.timeout(this.options.timeoutMs ?? 30_000)].filter(Boolean) as AbortSignal[];
    let response: Response;
    try {
      response = await (this.options.fetch ?? fetch)(this.url(path, request.query), {
        method: request.method ?? (body === undefined ? 'GET' : 'POST'),
        headers,
        body,
        signal: AbortSignal.any(signals),
      });
    } catch (error) {
      if (request.signal?.aborted) throw error;
      throw new UnreachableError(this.baseUrl, error);
    }
    if (!response.ok) {
      let parsed: { error?: ApiErrorBody } | undefined;
      try {
        parsed = (await response.json()) as { error?: ApiErrorBody };
      } catch {
        parsed = undefined;
      }
      throw new ApiError(response.status, parsed?.error ?? { code: 'internal_error', message: response.statusText, details: {} });
    }
    return response;
  }

  async json<T>(path: string, request: RequestOptions = {}): Promise<T> {
    const response = await this.raw(path, request);
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }
}
