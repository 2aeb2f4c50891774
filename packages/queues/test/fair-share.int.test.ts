import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { createFairShare, createJobWorker, FAIR_SHARE_RESET_FROM, JOB_RETENTION, MAX_JOB_PRIORITY, payloadType, type QueueContract } from '@switchboard/queues';

// Real Redis and a real BullMQ worker: the turns come from BullMQ's own priority order (docs/messages.md#fairness-between-accounts).
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `sbtest${randomBytes(4).toString('hex')}`;
const logger = { debug: () => undefined, warn: () => undefined, error: () => undefined };

interface SendJob {
  account: string;
  n: number;
}

const contract = {
  name: `fair-${randomBytes(3).toString('hex')}`,
  jobs: { send: 'send' },
  jobOptions: { ...JOB_RETENTION },
  payload: payloadType<SendJob>(),
} as const satisfies QueueContract;

let redis: Redis;
let queue: Queue<SendJob>;

beforeAll(() => {
  redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  queue = new Queue<SendJob>(contract.name, { connection: { url: redisUrl }, prefix });
});

afterAll(async () => {
  await queue.obliterate({ force: true });
  await queue.close();
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

async function send(fairShare: ReturnType<typeof createFairShare>, account: string, count: number): Promise<void> {
  const priorities = await fairShare.priorities('bulk', account, count);
  await queue.addBulk(priorities.map((priority, n) => ({ name: 'send', data: { account, n }, opts: { priority } })));
}

/** Runs the queue's jobs one at a time, as a dispatcher of the lane does, and answers the order they ran in. */
async function drain(fairShare: ReturnType<typeof createFairShare>, total: number, whileRunning?: (order: string[]) => Promise<void>): Promise<string[]> {
  const order: string[] = [];
  let hook: Promise<void> | undefined;
  const worker = createJobWorker(
    contract,
    {
      send: async (job) => {
        order.push(`${job.data.account}${job.data.n}`);
        if (whileRunning && order.length === 10) hook = whileRunning(order);
        await hook;
      },
    },
    {
      redisUrl,
      prefix,
      concurrency: 1,
      stalledIntervalMs: 30_000,
      lockDurationMs: 30_000,
      logger,
      onJobStart: (job) => void fairShare.started('bulk', job.opts.priority ?? 0, 0),
    },
  );
  for (let i = 0; i < 400 && order.length < total; i += 1) await new Promise((r) => setTimeout(r, 25));
  await worker.close();
  return order;
}

it('gives accounts with work waiting one turn each per round, whatever their backlog', async () => {
  const fairShare = createFairShare({ redis, prefix: `${prefix}:a` });
  await send(fairShare, 'big', 60);
  await send(fairShare, 'small', 5);
  const order = await drain(fairShare, 65);
  expect(order).toHaveLength(65);
  // Round robin from the first job: big0 small0 big1 small1 …; the small campaign is done after 10 jobs, not 65.
  expect(order.slice(0, 10)).toEqual(['big0', 'small0', 'big1', 'small1', 'big2', 'small2', 'big3', 'small3', 'big4', 'small4']);
});

it('starts an account that arrives late at the current turn: it neither waits for the backlog nor jumps all of it', async () => {
  const fairShare = createFairShare({ redis, prefix: `${prefix}:b` });
  await send(fairShare, 'big', 80);
  const order = await drain(fairShare, 100, async () => {
    // Ten of big's jobs have started: the late account's first job comes within a round, then they alternate.
    await send(fairShare, 'late', 20);
  });
  const firstLate = order.indexOf('late0');
  expect(firstLate).toBeGreaterThanOrEqual(10);
  expect(firstLate).toBeLessThanOrEqual(12);
  const window = order.slice(firstLate, firstLate + 40);
  expect(window.filter((id) => id.startsWith('late'))).toHaveLength(20);
  expect(window.filter((id) => id.startsWith('big'))).toHaveLength(20);
});

it('keeps priorities inside BullMQ range and starts again from the front after a reset', async () => {
  const fairShare = createFairShare({ redis, prefix: `${prefix}:c` });
  await fairShare.started('bulk', MAX_JOB_PRIORITY - 2, 0);
  expect(await fairShare.priorities('bulk', 'x', 4)).toEqual([MAX_JOB_PRIORITY - 1, MAX_JOB_PRIORITY, MAX_JOB_PRIORITY, MAX_JOB_PRIORITY]);
  expect(await fairShare.virtualTime('bulk')).toBeGreaterThanOrEqual(FAIR_SHARE_RESET_FROM);
  expect(await fairShare.reset('bulk')).toBe(1);
  expect(await fairShare.priorities('bulk', 'x', 2)).toEqual([1, 2]);
  // A dispatcher still on the numbering before the reset moves nothing, and learns the new one.
  expect(await fairShare.started('bulk', 500_000, 0)).toBe(1);
  expect(await fairShare.virtualTime('bulk')).toBe(0);
  expect(await fairShare.started('bulk', 3, 1)).toBe(1);
  expect(await fairShare.virtualTime('bulk')).toBe(3);
  // The lanes keep separate turns.
  expect(await fairShare.priorities('transactional', 'x', 1)).toEqual([1]);
});
