import { randomBytes } from 'node:crypto';
import type { Job } from 'bullmq';
import { Redis } from 'ioredis';
import { createFairShare, openSendLanes } from '@switchboard/queues';
import { createLaneTurns } from '../src/dispatch/lane-turns';

// The dispatcher's report of its lanes' clocks to real Redis (docs/messages.md#fairness-between-accounts).
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined } as never;
const started = (priority: number) => ({ opts: { priority } }) as Job;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let redis: Redis;
beforeAll(() => {
  redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  await redis.quit();
});

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100 && !(await check()); i += 1) await sleep(50);
}

it('reports the highest priority started in each lane, and follows a reset made by another dispatcher', async () => {
  const prefix = `sblanes${randomBytes(4).toString('hex')}`;
  const fairShare = createFairShare({ redis, prefix });
  const lanes = openSendLanes({ connection: redis, prefix });
  const turns = createLaneTurns({ fairShare, lanes, logger });
  try {
    for (const priority of [3, 9, 5]) turns.startedIn('bulk')(started(priority));
    turns.startedIn('transactional')(started(2));
    await until(async () => (await fairShare.virtualTime('bulk')) === 9);
    expect(await fairShare.virtualTime('bulk')).toBe(9);
    expect(await fairShare.virtualTime('transactional')).toBe(2);

    // Another dispatcher starts the numbering again: this one's old figures must not undo it.
    await fairShare.reset('bulk');
    turns.startedIn('bulk')(started(12));
    await sleep(400);
    expect(await fairShare.virtualTime('bulk')).toBe(0);
    turns.startedIn('bulk')(started(4));
    await until(async () => (await fairShare.virtualTime('bulk')) === 4);
    expect(await fairShare.virtualTime('bulk')).toBe(4);
  } finally {
    turns.stop();
    await lanes.close();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  }
});
