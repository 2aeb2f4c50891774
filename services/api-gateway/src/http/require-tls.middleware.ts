import type { RequestHandler } from 'express';
import { ApiError } from '@switchboard/domain';

/**
 * Probes stay on plain HTTP: the kubelet and Prometheus reach pods directly, not through the
 * TLS-terminating proxy (docs/configuration.md#tls-and-proxies).
 */
const PLAIN_HTTP_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * REQUIRE_TLS: `req.secure` is true for TLS on the socket, or for `X-Forwarded-Proto: https` from a
 * proxy that TRUST_PROXY trusts; anything else is refused before authentication (docs/errors.md).
 */
export function requireTls(): RequestHandler {
  return (req, _res, next) => {
    if (req.secure || PLAIN_HTTP_PATHS.has(req.path)) return next();
    next(new ApiError(403, 'tls_required', 'TLS required', 'This server accepts API requests over https only.'));
  };
}
