import http from 'node:http';
import https from 'node:https';
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

/**
 * POSTs one delivery. Connects only to addresses the guard checked (custom `lookup`), never follows a
 * redirect (a 3xx is a failure, its Location recorded), and sorts every outcome into one record.
 */
export function createWebhookSender(opts: WebhookSenderOptions): WebhookSender {
  const now = opts.now ?? Date.now;
  const lookup = createGuardedLookup(opts.policy, opts.resolver);
  const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

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
    const verdict = checkWebhookUrl(url, opts.policy);
    if (!verdict.allowed) return Promise.resolve(done({ error: verdict.reason, refusedForGood: true }));
    const target = new URL(url);
    const transport = target.protocol === 'https:' ? https : http;

    return new Promise<SendOutcome>((resolve) => {
      let settled = false;
      const finish = (outcome: SendOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const req = transport.request(target, {
        method: 'POST',
        agent: agents[target.protocol as 'http:' | 'https:'],
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
