import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { CUSTOMER_SERVICE_WINDOW_MS } from '@switchboard/domain';
import { createCustomerWindowCache } from '@switchboard/shared-state';

it('caches the window in Redis until it closes', async () => {
  const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  const prefix = `sbtest${randomBytes(4).toString('hex')}`;
  try {
    const cache = createCustomerWindowCache({ redis, prefix });
    const w = { accountId: 'acc_window', sender: '+447911123410', customer: '+447911123412' };
    const now = Date.now();
    expect(await cache.isOpen(w)).toBe(false);
    await cache.remember(w, new Date(now - CUSTOMER_SERVICE_WINDOW_MS - 1), now);
    expect(await cache.isOpen(w)).toBe(false);
    await cache.remember(w, new Date(now), now);
    expect(await cache.isOpen(w)).toBe(true);
    const ttl = await redis.pttl(`${prefix}:csw:acc_window:+447911123410:+447911123412`);
    expect(ttl).toBeGreaterThan(CUSTOMER_SERVICE_WINDOW_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(CUSTOMER_SERVICE_WINDOW_MS);
  } finally {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
});
