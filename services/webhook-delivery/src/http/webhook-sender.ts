import http from 'node:http';
import https from 'node:https';
import { urlToHttpOptions } from 'node:url';
import { checkWebhookUrl, createGuardedLookup, parseRetryAfter, TargetRefusedError, type Resolver, type TargetPolicy } from '@switchboard/webhooks';

export interface SendOutcome {
  /** Null when no response arrived (refused, network error, timeout). */
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** The target guard refused the URL itself (scheme, IP literal): retrying cannot help. */
  refusedForGood: boolean;
  responseSize: number | null;
  responseExcerpt: string | null;
  retryAfterMs: number | null;
}

/** 64 KiB of an endpoint's answer is read, then the connection is dropped: enough for any error page worth keeping. */
export const RESPONSE_LIMIT_BYTES = 64 * 1024;
/** 1,024 characters of the answer are kept per attempt: what a person reads in the console, at a bounded row size. */
export const RESPONSE_EXCERPT_CHARS = 1_024;

export interface WebhookSenderOptions {
  policy: TargetPolicy;
  /** Success means a 2xx answered in full within this time (docs/webhooks.md#delivery-retries-and-dead-letters). @defaultValue 15000 */
  timeoutMs: number;
  /** Bytes of the response read before the rest is dropped; the stored size is capped here. */
  responseLimitBytes: number;
  /** Characters of the response body kept on the attempt. */
  excerptChars: number;
  resolver?: Resolver;
  now?: () => number;
}

export type WebhookSender = (input: { url: string; headers: Record<string, string>; body: string }) => Promise<SendOutcome>;

/** A URL as the sender uses it: refused by the guard for good, or the parts of its request. */
type PreparedTarget = { refused: string } | { secure: boolean; address: http.RequestOptions };

/** Distinct URLs whose preparation is kept; beyond this the oldest is dropped (URLs come and go with endpoints). */
const PREPARED_TARGETS_KEPT = 1_000;

/**
 * POSTs one delivery. Connects only to addresses the guard checked (custom `lookup`), never follows a
 * redirect (a 3xx is a failure, its Location recorded), and sorts every outcome into one record.
 */
export function createWebhookSender(opts: WebhookSenderOptions): WebhookSender {
  const now = opts.now ?? Date.now;
  const lookup = createGuardedLookup(opts.policy, opts.resolver);
  const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };
  // The guard's verdict on a URL's text and its parsed parts depend only on the text and the fixed policy:
  // worked out once per URL rather than per attempt. The resolved address is still checked at every
  // connect (the guarded lookup), so a name that comes to resolve to a refused address is still refused.
  const prepared = new Map<string, PreparedTarget>();
  const prepare = (url: string): PreparedTarget => {
    let target = prepared.get(url);
    if (target === undefined) {
      const verdict = checkWebhookUrl(url, opts.policy);
      if (!verdict.allowed) target = { refused: verdict.reason };
      else {
        const parsed = new URL(url);
        target = { secure: parsed.protocol === 'https:', address: urlToHttpOptions(parsed) };
      }
      if (prepared.size >= PREPARED_TARGETS_KEPT) prepared.delete(prepared.keys().next().value as string);
      prepared.set(url, target);
    }
    return target;
  };

  return ({ url, headers, body }) => {
    const started = now();
    const done = (partial: Partial<SendOutcome>): SendOutcome => ({
      statusCode: null,
      latencyMs: now() - started,
      error: null,
      refusedForGood: false,
      responseSize: null,
      responseExcerpt: null,
      retryAfterMs: null,
      ...partial,
    });
    const target = prepare(url);
    if ('refused' in target) return Promise.resolve(done({ error: target.refused, refusedForGood: true }));

    return new Promise<SendOutcome>((resolve) => {
      let settled = false;
      const finish = (outcome: SendOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const req = (target.secure ? https : http).request({
        ...target.address,
        method: 'POST',
        agent: agents[target.secure ? 'https:' : 'http:'],
        lookup: lookup as never,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'Switchboard-Webhooks/1', ...headers },
      });
      const timer = setTimeout(() => {
        req.destroy();
        finish(done({ error: `timeout: no complete answer within ${opts.timeoutMs} ms` }));
      }, opts.timeoutMs);
      req.on('error', (error: Error & { code?: string }) => {
        if (error instanceof TargetRefusedError) return finish(done({ error: error.reason }));
        finish(done({ error: `network_error: ${error.code ?? error.message}` }));
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let capped = false;
        res.on('data', (chunk: Buffer) => {
          const room = opts.responseLimitBytes - size;
          size += chunk.length;
          if (room > 0) chunks.push(chunk.subarray(0, room));
          if (size > opts.responseLimitBytes && !capped) {
            capped = true;
            // A huge answer is not read to the end: its size is recorded as the cap.
            res.destroy();
            report();
          }
        });
        res.on('end', () => report());
        res.on('error', () => report());
        const report = () => {
          const status = res.statusCode ?? 0;
          const excerpt = Buffer.concat(chunks).toString('utf8').slice(0, opts.excerptChars);
          const location = res.headers.location;
          let error: string | null = null;
          if (status >= 300 && status < 400) error = `redirect_not_followed: ${status}${location ? ` to ${location}` : ''}`;
          else if (status < 200 || status >= 300) error = `http_status: ${status}`;
          finish(
            done({
              statusCode: status,
              error,
              responseSize: Math.min(size, opts.responseLimitBytes),
              responseExcerpt: excerpt || null,
              retryAfterMs: parseRetryAfter(res.headers['retry-after'], now()),
            }),
          );
        };
      });
      req.end(body);
    });
  };
}
