import { randomUUID } from 'node:crypto';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ApiError, NotFoundError } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';
import { settleRateLimit } from '../rate-limit/rate-limit.middleware';
import { gatewayErrors, sendProblem } from './problem';
import { requestIdOf } from './request-context';

/** Client errors raised by express itself or node (they carry a 4xx `status`), as problems of ours. */
function frameworkClientError(error: unknown): ApiError | null {
  // A path segment that does not even percent-decode cannot name one of our resources (docs/conventions.md#identifiers: 404).
  if (error instanceof URIError) return new NotFoundError();
  const status = (error as { status?: unknown; statusCode?: unknown } | null)?.status ?? (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return status === 404 ? new NotFoundError() : gatewayErrors.badRequest('The request could not be read.');
  }
  return null;
}

/**
 * After every router: a path that some route answers with other methods gets 405 and `Allow`
 * (see docs/errors.md); any other path, 404.
 */
export function notFoundHandler(allowedMethods: (path: string) => string[] = () => []): RequestHandler {
  return (req, _res, next) => {
    const allowed = allowedMethods(req.path);
    if (allowed.length === 0) return next(new NotFoundError('No route matches this path.'));
    next(gatewayErrors.methodNotAllowed(req.method, allowed));
  };
}

/**
 * The one error middleware (STYLE): known errors become their problem document; anything else is a
 * 500 whose `error_id` is logged with the stack, and no internals reach the client.
 */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return async (error: unknown, req, res, _next) => {
    // A write route's rate-limit decision may still be under way; its RateLimit headers belong on
    // this answer too, and a 429 outranks whatever else went wrong with an over-limit request.
    error = await settleRateLimit(res).then(
      () => error,
      (limited: unknown) => (error instanceof ApiError && error.status === 503 ? error : limited),
    );
    const requestId = requestIdOf(res);
    if (res.headersSent) {
      logger.warn('error after the response started', { request_id: requestId, error: (error as Error)?.message });
      res.end();
      return;
    }
    const known = error instanceof ApiError ? error : frameworkClientError(error);
    if (known) {
      if (known.status >= 500) logger.warn('request refused', { request_id: requestId, code: known.code, path: req.path });
      sendProblem(res, known, requestId);
      return;
    }
    const errorId = randomUUID();
    logger.error('unhandled error', {
      request_id: requestId,
      error_id: errorId,
      method: req.method,
      path: req.path,
      error: error instanceof Error ? error.stack : String(error),
    });
    const internal = new ApiError(500, 'internal_error', 'Internal server error', 'Something went wrong on our side; quote error_id when reporting it.');
    sendProblem(res, internal, requestId, errorId);
  };
}
