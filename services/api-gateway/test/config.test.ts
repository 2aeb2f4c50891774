import { randomBytes } from 'node:crypto';
import { loadConfig } from '../src/config';
import { IDEMPOTENCY_TTL_SECONDS } from '../src/idempotency/idempotency.store';

const base = { DATABASE_URL: 'postgres://localhost/x', SECRETS_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}` };

/** What loadConfig writes before it exits 78 on `env`. */
function refusal(env: Record<string, string>): string {
  const exit = jest.spyOn(process, 'exit').mockImplementation(() => {
    throw new Error('exited');
  });
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    expect(() => loadConfig(env)).toThrow('exited');
    expect(exit).toHaveBeenCalledWith(78);
    return String(stderr.mock.calls[0][0]);
  } finally {
    exit.mockRestore();
    stderr.mockRestore();
  }
}

// docs/api.md#idempotency-key: a key is kept 24 hours, as Stripe keeps them; clients build their retries on it.
describe('api-gateway config: the Idempotency-Key window', () => {
  it('is the 24 hours of the API, not a setting', () => {
    expect(IDEMPOTENCY_TTL_SECONDS).toBe(24 * 3_600);
    expect(loadConfig(base)).not.toHaveProperty('idempotencyTtlSeconds');
  });

  it('refuses IDEMPOTENCY_TTL_SECONDS, naming what replaced it', () => {
    expect(refusal({ ...base, IDEMPOTENCY_TTL_SECONDS: '3600' })).toContain(
      'IDEMPOTENCY_TTL_SECONDS is no longer read; use nothing: an Idempotency-Key is kept 24 hours',
    );
  });
});
