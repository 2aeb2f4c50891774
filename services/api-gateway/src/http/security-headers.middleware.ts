import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

/** One year, the value HSTS preload lists and most guides ask for. */
const HSTS_MAX_AGE_SECONDS = 31_536_000;

/** What helmet does to a response: the headers it sets (in order) and the ones it removes. */
interface HeaderEffect {
  set: Array<[string, string]>;
  removed: string[];
}

/**
 * Runs the configured helmet once on a recording response. helmet's header values are fixed at
 * configuration time for the options used here (no CSP nonces), so replaying them is the same answer.
 */
function recordHelmet(handler: ReturnType<typeof helmet>): HeaderEffect {
  const set = new Map<string, string>();
  const removed = new Set<string>();
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      set.set(name, String(value));
      removed.delete(name);
    },
    removeHeader(name: string) {
      set.delete(name);
      removed.add(name);
    },
  };
  let done = false;
  handler({ method: 'GET', url: '/', headers: {} } as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- whatever a middleware passes to next() becomes the message
    if (error) throw error instanceof Error ? error : new Error(String(error));
    done = true;
  });
  if (!done) throw new Error('helmet did not finish synchronously; its headers cannot be replayed');
  return { set: [...set], removed: [...removed] };
}

/**
 * helmet configured for a JSON API (docs/configuration.md#security-headers): every answer forbids
 * loading anything and being framed; `/docs` replaces the CSP with its own hash-pinned one. HSTS only
 * when this process terminates TLS itself: over plain HTTP the header is ignored by browsers, and
 * behind a proxy the proxy that owns the certificate sets it.
 *
 * helmet is a chain of a dozen middlewares, one `next()` hop and closure each, on every request; the
 * accept path is measured against a bare express handler (docs/performance/accept.md#accepting-messages-benchacceptmjs),
 * so the headers helmet produces are recorded once at start-up and set by one middleware.
 */
export function securityHeaders({ servesTls }: { servesTls: boolean }): RequestHandler {
  const { set, removed } = recordHelmet(
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'no-referrer' },
      strictTransportSecurity: servesTls ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: true } : false,
    }),
  );
  return (_req, res, next) => {
    for (const [name, value] of set) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    next();
  };
}
