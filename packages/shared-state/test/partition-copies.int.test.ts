import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { CUSTOMER_SERVICE_WINDOW_MS } from '@switchboard/domain';
import { copyStateToPartitions, createCustomerWindowCache, createSuppressionCache } from '@switchboard/shared-state';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

it('writes every suppression and every open customer window under its account’s new partition, page after page', async () => {
  const base = `sbpc${randomBytes(4).toString('hex')}`;
  const prefixOf = (accountId: string) => `${base}:${accountId === 'acc_a' ? 0 : 1}`;
  const redis = new Redis(redisUrl);
  const now = Date.parse('2026-01-02T12:00:00Z');
  // 1,001 suppressions: more than one page of the record.
  const suppressions = Array.from({ length: 1_001 }, (_, i) => ({
    id: `sup_${String(i).padStart(5, '0')}`,
    account_id: i % 2 === 0 ? 'acc_a' : 'acc_b',
    channel: 'sms',
    recipient: `+4479111${String(i).padStart(5, '0')}`,
  }));
  const windows = [
    { accountId: 'acc_b', sender: '+441', customer: '+442', lastInboundAt: new Date(now - 60_000) },
    { accountId: 'acc_a', sender: '+441', customer: '+443', lastInboundAt: new Date(now - CUSTOMER_SERVICE_WINDOW_MS + 5_000) },
  ];
  try {
    const written = await copyStateToPartitions({
      redis,
      prefixOf,
      suppressions: { listAll: async (afterId, limit) => suppressions.filter((s) => afterId === null || s.id > afterId).slice(0, limit) },
      windows: { listOpen: async (_since, after, limit) => (after ? [] : windows.slice(0, limit)) },
      clock: () => now,
    });
    expect(written).toBe(1_003);
    const a = createSuppressionCache({ redis, prefix: `${base}:0` });
    const b = createSuppressionCache({ redis, prefix: `${base}:1` });
    expect(await a.suppressedChannels('acc_a', suppressions[1_000].recipient, ['sms'])).toEqual(new Set(['sms']));
    expect(await b.suppressedChannels('acc_b', suppressions[999].recipient, ['sms'])).toEqual(new Set(['sms']));
    // Not under the other account's partition.
    expect(await a.suppressedChannels('acc_b', suppressions[999].recipient, ['sms'])).toEqual(new Set());
    expect(await createCustomerWindowCache({ redis, prefix: `${base}:1` }).isOpen({ accountId: 'acc_b', sender: '+441', customer: '+442' })).toBe(true);
    const closing = await redis.pttl(`${base}:0:csw:acc_a:+441:+443`);
    expect(closing).toBeGreaterThan(0);
    expect(closing).toBeLessThanOrEqual(5_000);
  } finally {
    const keys = await redis.keys(`${base}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
});
