import { rateLimitHeader, rateLimitPolicyHeader, resetSeconds } from '../src/rate-limit/rate-limit-headers';

describe('RateLimit headers (IETF draft as docs/conventions.md#rate-limits spells them)', () => {
  it('formats the policy', () => {
    expect(rateLimitPolicyHeader(1000, 1)).toBe('"default";q=1000;w=1');
  });

  it('formats the remaining quota and reset, never negative', () => {
    expect(rateLimitHeader(998, 1)).toBe('"default";r=998;t=1');
    expect(rateLimitHeader(-3, 1)).toBe('"default";r=0;t=1');
  });

  it('rounds the reset up to whole seconds, at least 1', () => {
    expect(resetSeconds(1)).toBe(1);
    expect(resetSeconds(999)).toBe(1);
    expect(resetSeconds(1000)).toBe(1);
    expect(resetSeconds(1001)).toBe(2);
    expect(resetSeconds(0)).toBe(1);
  });
});
