import { ApiError, UnauthorizedError } from '@switchboard/domain';
import type { ApiKeyRecord } from '@switchboard/store';
import { createApiKeyAuthenticator } from '../src/auth/api-key.authenticator';
import { createDependencyGuard } from '../src/http/dependency-guard';

const silent = { warn: () => undefined } as unknown as Parameters<typeof createDependencyGuard>[0];
const KEY = 'Bearer sk_test_0123456789abcdefghijABCDEFGHIJ';
const record: ApiKeyRecord = { id: 'key_1', account_id: 'acct_1', mode: 'test', scopes: ['messages:write'], rate_limit_per_second: null, revoked_at: null };

describe('API key authenticator when the store fails', () => {
  it('answers 503 (never 401) while the lookup fails, and does not remember the failure', async () => {
    let storeUp = false;
    let lookups = 0;
    const authenticate = createApiKeyAuthenticator({
      findByHash: async () => {
        lookups += 1;
        if (!storeUp) throw new Error('connect ECONNREFUSED');
        return record;
      },
      guard: createDependencyGuard(silent),
      ttlMs: 60_000,
    });
    const refused = await authenticate(KEY).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).not.toBeInstanceOf(UnauthorizedError);
    expect((refused as ApiError).status).toBe(503);
    storeUp = true;
    await expect(authenticate(KEY)).resolves.toMatchObject({ keyId: 'key_1', accountId: 'acct_1' });
    expect(lookups).toBe(2);
  });

  it('caches an answered miss as 401', async () => {
    let lookups = 0;
    const authenticate = createApiKeyAuthenticator({
      findByHash: async () => {
        lookups += 1;
        return null;
      },
      guard: createDependencyGuard(silent),
      ttlMs: 60_000,
    });
    await expect(authenticate(KEY)).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(authenticate(KEY)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(lookups).toBe(1);
  });
});
