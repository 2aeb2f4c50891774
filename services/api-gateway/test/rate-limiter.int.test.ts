import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { eventually } from '@switchboard/devstack';
import { createRateLimiter } from '../src/rate-limit/rate-limiter';
import { deleteKeys, TEST_REDIS_URL } from './support/gateway-harness';

const prefix = `rltest-${randomBytes(4).toString('hex')}`;
let redis: Redis;

beforeAll(async () => {
  redis = new Redis(TEST_REDIS_URL, { enableAutoPipelining: true });
  await redis.ping();
});

afterAll(async () => {
  await deleteKeys(redis, `${prefix}:*`);
  redis.disconnect();
});

// A clock fixed in the middle of one window, so that no test straddles two.
const clock = () => 1_800_000_000_500;

describe('shared fixed-window rate limiter', () => {
  it('is exact within one gateway: the quota is admitted, the rest refused', async () => {
    const limit = createRateLimiter(redis, prefix, { clock });
    const decisions = await Promise.all(Array.from({ length: 8 }, () => limit('key_single', 5)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
    expect(decisions.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0, 0]);
    expect(decisions.every((d) => d.resetSeconds === 1)).toBe(true);
  });

  it('shares the window between gateways once their counts are flushed to Redis', async () => {
    const gatewayA = createRateLimiter(redis, prefix, { clock, flushIntervalMs: 5 });
    const gatewayB = createRateLimiter(redis, prefix, { clock, flushIntervalMs: 5 });
    for (let i = 0; i < 6; i += 1) expect((await gatewayA('key_shared', 10)).allowed).toBe(true);
    await eventually(() => redis.get(`${prefix}:gateway:rate:key_shared:${Math.floor(clock() / 1000)}`), (n) => n === '6', { what: 'A flushed' });
    // B learns A's six on its own first flush; until then it may admit on its own count.
    expect((await gatewayB('key_shared', 10)).allowed).toBe(true);
    await eventually(() => redis.get(`${prefix}:gateway:rate:key_shared:${Math.floor(clock() / 1000)}`), (n) => n === '7', { what: 'B flushed' });
    const afterSync = await Promise.all(Array.from({ length: 5 }, () => gatewayB('key_shared', 10)));
    expect(afterSync.filter((d) => d.allowed)).toHaveLength(3);
  });

  it('fails closed while Redis is unreachable', async () => {
    const down = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false });
    await expect(createRateLimiter(down, prefix, { clock })('key_down', 5)).rejects.toThrow(/not connected/);
    down.disconnect();
  });
});
