import type { RequestHandler } from 'express';
import helmet from 'helmet';

/** One year, the value HSTS preload lists and most guides ask for. */
const HSTS_MAX_AGE_SECONDS = 31_536_000;

/**
 * helmet configured for a JSON API (docs/configuration.md#security-headers): every answer forbids
 * loading anything and being framed; `/docs` replaces the CSP with its own hash-pinned one. HSTS only
 * when this process terminates TLS itself: over plain HTTP the header is ignored by browsers, and
 * behind a proxy the proxy that owns the certificate sets it. helmet builds the header values once.
 */
export function securityHeaders({ servesTls }: { servesTls: boolean }): RequestHandler {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: servesTls ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: true } : false,
  });
}
