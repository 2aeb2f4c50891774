import http from 'node:http';
import https from 'node:https';
import { createGuardedLookup, type Resolver, type TargetPolicy } from '@switchboard/webhooks';

/** The part of a fetch `Response` the media check reads; a real `Response` fits. */
export interface MediaHeadResponse {
  ok: boolean;
  status: number;
  headers: { get(name: string): string | null };
}

/** One HEAD request; global `fetch` fits, which is how the unit tests stub it. */
export type MediaHead = (url: string, init: { method: 'HEAD'; redirect: 'manual'; signal: AbortSignal }) => Promise<MediaHeadResponse>;

/**
 * A HEAD over `node:http(s)` that connects only to addresses the target guard checked (the guarded
 * `lookup`, so a name re-resolving to a private address between check and connect is refused) and
 * never follows a redirect: a 3xx comes back as it is. A refusal rejects with the guard's
 * `TargetRefusedError`. Global `fetch` takes no `lookup`, hence `node:http`.
 */
export function createGuardedHead(policy: TargetPolicy, resolver?: Resolver): MediaHead {
  const lookup = createGuardedLookup(policy, resolver);
  return (url, { signal }) =>
    new Promise<MediaHeadResponse>((resolve, reject) => {
      const target = new URL(url);
      const transport = target.protocol === 'https:' ? https : http;
      // `agent: false`: a fresh connection every time. A pooled socket skips `lookup`, so one kept
      // alive by a laxer policy elsewhere in the process (the global agent) would bypass the guard.
      const req = transport.request(target, {
        method: 'HEAD',
        agent: false,
        lookup: lookup as never,
        signal,
        headers: { 'user-agent': 'Switchboard-MediaCheck/1' },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        res.resume();
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
        }
        const status = res.statusCode ?? 0;
        resolve({ ok: status >= 200 && status < 300, status, headers });
      });
      req.end();
    });
}
