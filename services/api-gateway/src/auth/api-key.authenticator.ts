import { UnauthorizedError } from '@switchboard/domain';
import { hashApiKey, type ApiKeyRecord } from '@switchboard/store';
import type { DependencyGuard } from '../http/dependency-guard';
import type { Caller } from '../http/request-context';
import { createLoadingCache } from '../support/loading-cache';

/** `Bearer sk_live_…` / `Bearer sk_test_…` (docs/authentication.md#api-keys); anything else is refused without a lookup. */
const BEARER = /^Bearer +(sk_(?:live|test)_[A-Za-z0-9]{16,128}) *$/i;

export interface ApiKeyAuthenticatorDeps {
  findByHash: (keyHash: string) => Promise<ApiKeyRecord | null>;
  guard: DependencyGuard;
  /** Hits and misses are both cached this long; revocation takes effect within it (docs/authentication.md#api-keys). */
  ttlMs: number;
  clock?: () => number;
}

export type ApiKeyAuthenticator = (authorization: string | undefined) => Promise<Caller>;

export function createApiKeyAuthenticator({ findByHash, guard, ttlMs, clock }: ApiKeyAuthenticatorDeps): ApiKeyAuthenticator {
  // Keyed by the hash, so that no plaintext key is kept in memory beyond its request. Only answers
  // are cached: a failed lookup is 503 for its requests and is tried again by the next one, so an
  // outage never turns into a remembered "no such key" (see docs/errors.md, 503).
  const lookup = createLoadingCache({ load: (keyHash) => guard('store', () => findByHash(keyHash)), ttlMs, clock });
  return async (authorization) => {
    const match = typeof authorization === 'string' ? BEARER.exec(authorization) : null;
    if (!match) throw new UnauthorizedError();
    const record = await lookup(hashApiKey(match[1]));
    if (!record || record.revoked_at !== null) throw new UnauthorizedError();
    return {
      keyId: record.id,
      accountId: record.account_id,
      mode: record.mode,
      scopes: record.scopes,
      rateLimitPerSecond: record.rate_limit_per_second,
    };
  };
}
