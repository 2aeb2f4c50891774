import type { RequestHandler, Response } from 'express';
import { RateLimitedError } from '@switchboard/domain';
import type { DependencyGuard } from '../http/dependency-guard';
import { callerOf } from '../http/request-context';
import { rateLimitHeader, rateLimitPolicyHeader } from './rate-limit-headers';
import { RATE_LIMIT_WINDOW_SECONDS, type RateLimitDecision, type RateLimiter } from './rate-limiter';

const PENDING_DECISION = 'pendingRateLimit';
const DEFERRED_COUNT = 'deferredRateLimit';

/** A count not yet made: the handler makes it inside its own script call, or `settleRateLimit` makes it. */
interface DeferredCount {
  keyId: string;
  quota: number;
  count: () => Promise<void>;
}

/** Counts the request against its key and sets the RateLimit headers; resolves, or rejects with 429. */
function countRequest(limiter: RateLimiter, defaultQuota: number, guard: DependencyGuard, res: Response): Promise<void> {
  const caller = callerOf(res);
  const quota = caller.rateLimitPerSecond ?? defaultQuota;
  return guard('redis', () => limiter(caller.keyId, quota)).then((decision) => applyRateLimitDecision(res, decision));
}

/** Sets the RateLimit headers of a decision; throws 429 when it refused the request. */
export function applyRateLimitDecision(res: Response, decision: RateLimitDecision): void {
  res.setHeader('RateLimit-Policy', rateLimitPolicyHeader(decision.quota, RATE_LIMIT_WINDOW_SECONDS));
  res.setHeader('RateLimit', rateLimitHeader(decision.remaining, decision.resetSeconds));
  if (!decision.allowed) throw new RateLimitedError(decision.resetSeconds);
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

/**
 * The send routes: a request with an `Idempotency-Key` is counted inside the handler's one script call
 * with the key reservation and the opt-out read (docs/performance/accept.md#cost-per-request-of-one-gateway-process).
 * Any request that leaves before that call (400, 403, a 422 from pricing) is counted by `settleRateLimit`,
 * which the error middleware awaits, so every request is counted once and a 429 still outranks other errors.
 * Requests without a key are counted alongside the body read, as `rateLimitAlongsideBody`.
 */
export function rateLimitInSendScript(limiter: RateLimiter, defaultQuota: number, guard: DependencyGuard): RequestHandler {
  const alongside = rateLimitAlongsideBody(limiter, defaultQuota, guard);
  return (req, res, next) => {
    if (req.headers['idempotency-key'] === undefined) return alongside(req, res, next);
    const caller = callerOf(res);
    const deferred: DeferredCount = {
      keyId: caller.keyId,
      quota: caller.rateLimitPerSecond ?? defaultQuota,
      count: () => countRequest(limiter, defaultQuota, guard, res),
    };
    res.locals[DEFERRED_COUNT] = deferred;
    next();
  };
}

/**
 * Claims a deferred count for the caller's own script call (null when the request was counted already or is
 * not deferred). The caller passes the script's decision to `settleClaimedRateLimit`.
 */
export function claimDeferredRateLimit(res: Response): { keyId: string; quota: number } | null {
  const deferred = res.locals[DEFERRED_COUNT] as DeferredCount | undefined;
  if (!deferred) return null;
  // Claimed means counted by the caller's script: if that call fails (503), nothing counts it again.
  delete res.locals[DEFERRED_COUNT];
  return { keyId: deferred.keyId, quota: deferred.quota };
}

/** Records the decision a claimed count got in the caller's script: headers, and 429 when refused. */
export function settleClaimedRateLimit(res: Response, decision: RateLimitDecision): void {
  applyRateLimitDecision(res, decision);
}

/** Awaits a decision started by `rateLimitAlongsideBody`, or makes a count still deferred (a no-op once counted). */
export async function settleRateLimit(res: Response): Promise<void> {
  const deferred = res.locals[DEFERRED_COUNT] as DeferredCount | undefined;
  if (deferred) {
    delete res.locals[DEFERRED_COUNT];
    res.locals[PENDING_DECISION] = deferred.count();
  }
  await (res.locals[PENDING_DECISION] as Promise<void> | undefined);
}
