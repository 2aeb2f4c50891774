import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createRateLimiter } from '../src/rate-limit/rate-limiter';
import { deleteKeys, TEST_REDIS_URL } from './support/gateway-harness';

const prefix = `rltest-${randomBytes(4).toString('hex')}`;
let redis: Redis;
let other: Redis;

beforeAll(async () => {
  redis = new Redis(TEST_REDIS_URL, { enableAutoPipelining: true });
  other = new Redis(TEST_REDIS_URL, { enableAutoPipelining: true });
  await Promise.all([redis.ping(), other.ping()]);
});

afterAll(async () => {
  await deleteKeys(redis, `${prefix}:*`);
  redis.disconnect();
  other.disconnect();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('sliding-window rate limiter in Redis', () => {
  it('admits a burst of exactly the quota and refuses the rest, counting down the remaining quota', async () => {
    const limit = createRateLimiter(redis, prefix);
    const decisions = await Promise.all(Array.from({ length: 8 }, () => limit('key_single', 5)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
    expect(decisions.map((d) => d.remaining).sort()).toEqual([0, 0, 0, 0, 1, 2, 3, 4]);
    expect(decisions.every((d) => d.resetSeconds === 1 && d.quota === 5)).toBe(true);
  });

  it('frees a slot only when the oldest admission has left the window', async () => {
    const limit = createRateLimiter(redis, prefix);
    expect((await limit('key_slide', 2)).allowed).toBe(true);
    await sleep(600);
    expect((await limit('key_slide', 2)).allowed).toBe(true);
    expect((await limit('key_slide', 2)).allowed).toBe(false);
    // 1.1 s after the first: it left the window, the second (0.5 s old) has not.
    await sleep(500);
    const decisions = [await limit('key_slide', 2), await limit('key_slide', 2)];
    expect(decisions.map((d) => d.allowed)).toEqual([true, false]);
  });

  it('is one window for every gateway: two processes (two connections) share the quota exactly', async () => {
    const gatewayA = createRateLimiter(redis, prefix);
    const gatewayB = createRateLimiter(other, prefix);
    const decisions = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? gatewayA : gatewayB)('key_shared', 7)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(7);
  });

  it('fails closed while Redis is unreachable', async () => {
    const down = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false });
    await expect(createRateLimiter(down, prefix)('key_down', 5)).rejects.toThrow(/not connected/);
    down.disconnect();
  });
});
