import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { ensurePartitionLayout, MESSAGE_SEND_QUEUE, partitionLayoutKey, partitionPrefixes, PartitionLayoutError } from '@switchboard/queues';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('the partition layout check at start-up', () => {
  const prefix = `{sbpl${randomBytes(4).toString('hex')}}`;
  const redis = new Redis(redisUrl);
  const logger = { info: () => undefined };
  afterAll(async () => {
    const keys = await redis.keys(`${prefix.slice(0, -1)}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('records a change once the old layout is drained, refuses one while jobs wait, and names how to drain', async () => {
    const copies: string[] = [];
    const copyState = async (prefixOf: (accountId: string) => string) => (copies.push(prefixOf('acc_one')), 1);
    // One partition and no record: the layout from before partitions, nothing to write.
    await ensurePartitionLayout({ redis, prefix, partitions: 1, logger, copyState });
    expect(await redis.get(partitionLayoutKey(prefix))).toBeNull();
    expect(copies).toEqual([]);

    await ensurePartitionLayout({ redis, prefix, partitions: 3, logger, copyState });
    expect(await redis.get(partitionLayoutKey(prefix))).toBe('3');
    expect(copies).toHaveLength(1);
    expect(partitionPrefixes(prefix, 3)).toContain(copies[0]);

    const waiting = new Queue(MESSAGE_SEND_QUEUE.name, { connection: redis, prefix: partitionPrefixes(prefix, 3)[1] });
    try {
      await waiting.add('send-message', { n: 1 }, { delay: 60_000 });
      const refused = ensurePartitionLayout({ redis, prefix, partitions: 2, logger, copyState });
      await expect(refused).rejects.toThrow(PartitionLayoutError);
      await expect(refused).rejects.toThrow(`${partitionPrefixes(prefix, 3)[1]}:message-send 1`);
      await expect(refused).rejects.toThrow('kubectl scale deploy/<release>-switchboard-api-gateway --replicas=0');
      // A checking process (no copies to write) refuses alike.
      await expect(ensurePartitionLayout({ redis, prefix, partitions: 2, logger })).rejects.toThrow(PartitionLayoutError);
      expect(await redis.get(partitionLayoutKey(prefix))).toBe('3');
      expect(copies).toHaveLength(1);
      await waiting.obliterate({ force: true });
    } finally {
      await waiting.close();
    }

    // Drained: a checking process starts but leaves the record; a copying one writes the copies and records.
    await ensurePartitionLayout({ redis, prefix, partitions: 1, logger });
    expect(await redis.get(partitionLayoutKey(prefix))).toBe('3');
    await ensurePartitionLayout({ redis, prefix, partitions: 1, logger, copyState });
    expect(await redis.get(partitionLayoutKey(prefix))).toBeNull();
    expect(copies).toEqual([copies[0], prefix]);
  });
});
