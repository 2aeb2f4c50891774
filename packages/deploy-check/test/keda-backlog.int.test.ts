import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { partitionPrefixes } from '@switchboard/queues';
import { renderChart, TEST_VALUES, WORKER_QUEUES } from '../src';
import { byComponent, type Loose } from './chart-objects';

/**
 * KEDA's redis scaler reads a key's TYPE and counts it with LLEN (list) or ZCARD (zset), in one script.
 * Doing the same here over the keys the chart names shows what a worker's backlog really is once BullMQ
 * has written real jobs.
 */
const KEDA_LENGTH_SCRIPT = `
local t = redis.call('TYPE', KEYS[1])['ok']
if t == 'zset' then return redis.call('ZCARD', KEYS[1]) end
if t == 'list' or t == 'none' then return redis.call('LLEN', KEYS[1]) end
return -1`;

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `sb-keda-${randomUUID().slice(0, 8)}`;
let redis: Redis;
const queues: Queue[] = [];

beforeAll(() => {
  redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
});

afterAll(async () => {
  for (const queue of queues) await queue.obliterate({ force: true }).then(() => queue.close());
  await redis.quit();
});

async function backlog(triggers: Loose[]): Promise<number> {
  let sum = 0;
  for (const trigger of triggers) {
    const length = Number(await redis.eval(KEDA_LENGTH_SCRIPT, 1, trigger.metadata.listName));
    expect(length).toBeGreaterThanOrEqual(0);
    sum += length;
  }
  return sum;
}

describe("a worker's KEDA backlog over real BullMQ queues", () => {
  it('counts waiting and prioritized jobs of each of its queues, and leaves delayed retries out', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sb-chart-')), 'values.yaml');
    writeFileSync(file, `queuePrefix: "${prefix}"\n`);
    const objects = renderChart({ valuesFiles: [TEST_VALUES, file] });
    for (const [worker, names] of Object.entries(WORKER_QUEUES)) {
      const triggers: Loose[] = byComponent(objects, 'ScaledObject', worker).spec.triggers;
      expect(await backlog(triggers)).toBe(0);
      let expected = 0;
      for (const [i, name] of names.entries()) {
        const queue = new Queue(name, { connection: redis, prefix });
        queues.push(queue);
        await queue.addBulk(Array.from({ length: i + 2 }, (_, n) => ({ name: 'plain', data: { n } })));
        await queue.add('urgent', {}, { priority: 1 });
        await queue.add('retry-later', {}, { delay: 3_600_000 });
        expected += i + 2 + 1;
      }
      expect(await backlog(triggers)).toBe(expected);
    }
  });

  it('counts the jobs of every queue partition with queuePartitions above 1', async () => {
    const tagged = `{${prefix}-p}`;
    const file = join(mkdtempSync(join(tmpdir(), 'sb-chart-')), 'values.yaml');
    writeFileSync(file, `queuePrefix: "${tagged}"\nqueuePartitions: 3\n`);
    const triggers: Loose[] = byComponent(renderChart({ valuesFiles: [TEST_VALUES, file] }), 'ScaledObject', 'webhook-delivery').spec.triggers;
    expect(await backlog(triggers)).toBe(0);
    // Jobs in partitions 0 and 2 only: each counts, wherever it waits.
    for (const [index, count] of [
      [0, 2],
      [2, 3],
    ]) {
      const queue = new Queue(WORKER_QUEUES['webhook-delivery'][0], { connection: redis, prefix: partitionPrefixes(tagged, 3)[index] });
      queues.push(queue);
      await queue.addBulk(Array.from({ length: count }, (_, n) => ({ name: 'plain', data: { n } })));
    }
    expect(await backlog(triggers)).toBe(5);
  });
});
