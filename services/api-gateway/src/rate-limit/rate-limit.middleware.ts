import type { RequestHandler } from 'express';
import { RateLimitedError } from '@switchboard/domain';
import type { DependencyGuard } from '../http/dependency-guard';
import { callerOf } from '../http/request-context';
import { rateLimitHeader, rateLimitPolicyHeader } from './rate-limit-headers';
import { RATE_LIMIT_WINDOW_SECONDS, type RateLimiter } from './rate-limiter';

/** Counts the request against its key and sets the RateLimit headers on every authenticated answer. */
export function rateLimit(limiter: RateLimiter, defaultQuota: number, guard: DependencyGuard): RequestHandler {
  return (_req, res, next) => {
    const caller = callerOf(res);
    const quota = caller.rateLimitPerSecond ?? defaultQuota;
    guard('redis', () => limiter(caller.keyId, quota)).then((decision) => {
      res.setHeader('RateLimit-Policy', rateLimitPolicyHeader(quota, RATE_LIMIT_WINDOW_SECONDS));
      res.setHeader('RateLimit', rateLimitHeader(decision.remaining, decision.resetSeconds));
      next(decision.allowed ? undefined : new RateLimitedError(decision.resetSeconds));
    }, next);
  };
}
