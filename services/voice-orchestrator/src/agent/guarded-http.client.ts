import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { checkWebhookUrl, createGuardedLookup, type TargetPolicy } from '@switchboard/webhooks';

const RESPONSE_LIMIT_BYTES = 256 * 1024;

/**
 * The `http` node's client (docs/voice-agents.md#http): the same target guard as webhook deliveries (checked on the URL and
 * on the resolved address at connect time), no redirects, a hard timeout, a bounded JSON answer. Any failure,
 * a non-2xx status included, throws, and the flow takes the node's `on_error`.
 */
export function createGuardedHttpClient(policy: TargetPolicy) {
  const lookup = createGuardedLookup(policy);
  return (method: 'GET' | 'POST', url: string, body: unknown, timeoutMs: number): Promise<unknown> => {
    const verdict = checkWebhookUrl(url, policy);
    if (!verdict.allowed) return Promise.reject(new Error(`refused by the target guard: ${verdict.reason}`));
    const target = new URL(url);
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = (target.protocol === 'https:' ? httpsRequest : httpRequest)(
        target,
        {
          method,
          lookup: lookup as never,
          timeout: timeoutMs,
          headers: { accept: 'application/json', ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > RESPONSE_LIMIT_BYTES) req.destroy(new Error('response too large'));
            else chunks.push(chunk);
          });
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            if (status < 200 || status >= 300) return reject(new Error(`HTTP ${status}`));
            const text = Buffer.concat(chunks).toString('utf8');
            try {
              resolve(text === '' ? null : JSON.parse(text));
            } catch {
              reject(new Error('the answer is not JSON'));
            }
          });
          res.on('error', reject);
        },
      );
      const deadline = setTimeout(() => req.destroy(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
      req.on('close', () => clearTimeout(deadline));
      req.on('timeout', () => req.destroy(new Error(`timed out after ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end(payload);
    });
  };
}
