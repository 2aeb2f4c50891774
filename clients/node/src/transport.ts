import { ApiError, NetworkError, type Problem } from './errors';
import { isRetryableStatus, resolveRetryOptions, retryDelayMs, type ResolvedRetryOptions, type RetryOptions } from './retry-policy';
import { SDK_VERSION } from './version';

/** Query values; undefined and null are left out, arrays repeat the name. */
export type Query = Record<string, string | number | boolean | null | undefined | ReadonlyArray<string | number>>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TransportOptions {
  /** The gateway's address, e.g. `https://api.example.com` (no `/v1`). */
  baseUrl: string;
  /** An `sk_test_…` or `sk_live_…` key. */
  apiKey: string;
  /** Per attempt, in milliseconds. @defaultValue 30000 */
  timeoutMs?: number;
  retry?: RetryOptions;
  /** Replaces the global fetch, e.g. to add a proxy agent. */
  fetch?: typeof fetch;
  /** How the client waits between attempts; tests pass a recorder. */
  sleep?: (ms: number) => Promise<void>;
  /** The jitter's source of randomness in [0, 1). @defaultValue Math.random */
  random?: () => number;
}

// A repeated GET, PUT or DELETE has the effect of one; a POST only when it carries an Idempotency-Key.
const SAFE_TO_REPEAT = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

/** One HTTP exchange with the API: auth, JSON both ways, retries with backoff (clients/README.md), typed errors. */
export class Transport {
  private readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly timeoutMs: number;
  private readonly retry: ResolvedRetryOptions;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;

  constructor(options: TransportOptions) {
    if (!options.baseUrl) throw new TypeError('baseUrl is required');
    if (!options.apiKey) throw new TypeError('apiKey is required');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.retry = resolveRetryOptions(options.retry);
    this.fetchImpl = options.fetch ?? globalThis.fetch;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.random = options.random ?? Math.random;
  }

  /** A JSON exchange: the parsed answer, or an ApiError/NetworkError. */
  request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    return this.exchange(method, path, options, 'json') as Promise<T>;
  }

  /** The answer's raw bytes, e.g. a recording; errors are still read as problems. */
  requestBytes(method: string, path: string, options: RequestOptions = {}): Promise<Uint8Array> {
    return this.exchange(method, path, options, 'bytes') as Promise<Uint8Array>;
  }

  private async exchange(method: string, path: string, options: RequestOptions, expect: 'json' | 'bytes'): Promise<unknown> {
    const url = this.baseUrl + path + queryString(options.query);
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.apiKey}`,
      accept: expect === 'bytes' ? '*/*' : 'application/json, application/problem+json',
      'user-agent': `switchboard-node/${SDK_VERSION}`,
    };
    let body: string | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
    const repeatable = SAFE_TO_REPEAT.has(method) || 'idempotency-key' in headers;

    for (let attempt = 1; ; attempt += 1) {
      let response: Response;
      let answer: unknown;
      try {
        response = await this.fetchImpl(url, { method, headers, body, signal: AbortSignal.timeout(this.timeoutMs) });
        // A connection cut or a timeout while the body streams in is a network error too: the answer is incomplete.
        // Only a successful binary answer is kept as bytes: an error is a problem+json body either way.
        answer = expect === 'bytes' && response.ok ? new Uint8Array(await response.arrayBuffer()) : parseBody(await response.text());
      } catch (error) {
        if (!repeatable || attempt >= this.retry.maxAttempts) {
          throw new NetworkError(`${method} ${path}: ${describe(error)}`, { cause: error });
        }
        await this.sleep(retryDelayMs(this.retry, attempt, undefined, this.random));
        continue;
      }
      if (response.ok) return answer;
      const problem: Problem = isObject(answer) ? (answer as Problem) : {};
      // A 429 is answered before the request is processed, so even a POST without a key may be repeated.
      const mayRepeat = repeatable || response.status === 429;
      if (mayRepeat && attempt < this.retry.maxAttempts && isRetryableStatus(response.status, problem.code)) {
        await this.sleep(retryDelayMs(this.retry, attempt, response.headers.get('retry-after'), this.random));
        continue;
      }
      throw new ApiError(response.status, problem, headerRecord(response.headers));
    }
  }
}

function queryString(query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) params.append(name, String(item));
    else params.append(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => (record[name] = value));
  return record;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}
