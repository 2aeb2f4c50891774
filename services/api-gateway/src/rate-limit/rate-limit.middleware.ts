import type { RequestHandler, Response } from 'express';
import { RateLimitedError } from '@switchboard/domain';
import type { DependencyGuard } from '../http/dependency-guard';
import { callerOf } from '../http/request-context';
import { rateLimitHeader, rateLimitPolicyHeader } from './rate-limit-headers';
import { RATE_LIMIT_WINDOW_SECONDS, type RateLimiter } from './rate-limiter';

const PENDING_DECISION = 'pendingRateLimit';

/** Counts the request against its key and sets the RateLimit headers; resolves, or rejects with 429. */
function countRequest(limiter: RateLimiter, defaultQuota: number, guard: DependencyGuard, res: Response): Promise<void> {
  const caller = callerOf(res);
  const quota = caller.rateLimitPerSecond ?? defaultQuota;
  return guard('redis', () => limiter(caller.keyId, quota)).then((decision) => {
    res.setHeader('RateLimit-Policy', rateLimitPolicyHeader(quota, RATE_LIMIT_WINDOW_SECONDS));
    res.setHeader('RateLimit', rateLimitHeader(decision.remaining, decision.resetSeconds));
    if (!decision.allowed) throw new RateLimitedError(decision.resetSeconds);
  });
}

/** Reads: the request waits for its rate-limit decision before anything else runs. */
export function rateLimit(limiter: RateLimiter, defaultQuota: number, guard: DependencyGuard): RequestHandler {
  return (_req, res, next) => {
    countRequest(limiter, defaultQuota, guard, res).then(() => next(), next);
  };
}

/**
 * Writes: the decision's Redis round trip runs while the body is read and validated, instead of
 * before it; the handler calls `settleRateLimit` before it reserves or queues anything, so a request
 * over its limit still changes nothing. This takes one round trip off the accept path's latency.
 */
export function rateLimitAlongsideBody(limiter: RateLimiter, defaultQuota: number, guard: DependencyGuard): RequestHandler {
  return (_req, res, next) => {
    const decision = countRequest(limiter, defaultQuota, guard, res);
    // Settled by the handler or the error middleware; never an unhandled rejection meanwhile.
    decision.catch(() => undefined);
    res.locals[PENDING_DECISION] = decision;
    next();
  };
}

/** Awaits a decision started by `rateLimitAlongsideBody` (a no-op on routes that awaited it already). */
export async function settleRateLimit(res: Response): Promise<void> {
  await (res.locals[PENDING_DECISION] as Promise<void> | undefined);
}
