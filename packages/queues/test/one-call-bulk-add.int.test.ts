import { randomBytes } from 'node:crypto';
import { Queue, QueueEvents, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { addJobsInOneCall, MESSAGE_SEND_QUEUE, sendMessageBulkJob, type SendMessageJob } from '@switchboard/queues';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const connection = { url: redisUrl };
const prefix = `sbtest${randomBytes(4).toString('hex')}`;
const redis = new Redis(redisUrl);
const opened: Array<{ close(): Promise<unknown> }> = [];

function open(name: string): Queue {
  const queue = new Queue(name, { connection, prefix });
  opened.push(queue);
  return queue;
}

function job(id: string, n: number): SendMessageJob {
  return {
    message_id: id,
    account_id: 'acc_1',
    mode: 'test',
    channel: 'sms',
    plan: ['sms'],
    senders: { sms: '+15550001111' },
    recipient: `+4479111${String(n).padStart(5, '0')}`,
    content: { text: `Hello ${n} — ünïcödé` },
    cost_units: 1,
    created_at: '2026-11-23T20:00:00.000Z',
  };
}

/** Everything Redis holds for a queue, with the queue's name taken out of keys and timestamps taken out of values. */
async function snapshot(queue: Queue): Promise<Record<string, unknown>> {
  const base = `${prefix}:${queue.name}:`;
  const keys = (await redis.keys(`${base}*`)).sort();
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const type = await redis.type(key);
    const short = key.slice(base.length);
    if (type === 'hash') {
      const hash = await redis.hgetall(key);
      delete hash.timestamp;
      if (hash.opts) hash.opts = JSON.parse(hash.opts);
      out[short] = hash;
    } else if (type === 'list') out[short] = await redis.lrange(key, 0, -1);
    else if (type === 'zset') out[short] = (await redis.zrange(key, 0, -1)).length;
    else if (type === 'stream') out[short] = (await redis.xrange(key, '-', '+')).map(([, fields]) => fields.filter((_, i) => i % 2 === 0 || fields[i - 1] !== 'delay').join(' '));
    else out[short] = type;
  }
  return out;
}

afterAll(async () => {
  await Promise.all(opened.map((o) => o.close()));
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

it('stores immediate and delayed jobs exactly as addBulk does, duplicates included, in one script call', async () => {
  const viaBullmq = open(`bulk-${randomBytes(3).toString('hex')}`);
  const viaOneCall = open(`one-${randomBytes(3).toString('hex')}`);
  const entries = [sendMessageBulkJob(job('msg_a', 1)), sendMessageBulkJob(job('msg_b', 2), 60_000), sendMessageBulkJob(job('msg_c', 3)), sendMessageBulkJob(job('msg_a', 1))];

  await viaBullmq.addBulk(entries);
  const addedFrom = Date.now();
  const before = (await redis.info('commandstats')).match(/cmdstat_evalsha:calls=(\d+)/)?.[1] ?? '0';
  await addJobsInOneCall(viaOneCall, entries);
  const after = (await redis.info('commandstats')).match(/cmdstat_(?:evalsha|eval):calls=(\d+)/g) ?? [];

  expect(await snapshot(viaOneCall)).toEqual(await snapshot(viaBullmq));
  expect(await viaOneCall.getJobCounts('waiting', 'delayed')).toEqual({ waiting: 2, delayed: 1 });
  // One script call for four jobs (EVALSHA, or EVAL the first time Redis sees the script).
  const evalshaAfter = Number(after.find((s) => s.startsWith('cmdstat_evalsha'))?.split('=')[1] ?? 0);
  expect(evalshaAfter - Number(before)).toBeLessThanOrEqual(1);
  const stored = await viaOneCall.getJob('msg_b');
  expect(stored?.data).toEqual(job('msg_b', 2));
  expect(stored?.opts).toMatchObject({ ...MESSAGE_SEND_QUEUE.jobOptions, jobId: 'msg_b', delay: 60_000 });
  // The one field the snapshots leave out: when the job was added, as BullMQ's own scripts read it.
  expect(stored?.timestamp).toBeGreaterThanOrEqual(addedFrom);
  expect(stored?.timestamp).toBeLessThanOrEqual(Date.now());
});

it('hands its jobs to a BullMQ worker like any other job', async () => {
  const queue = open(`work-${randomBytes(3).toString('hex')}`);
  const events = new QueueEvents(queue.name, { connection, prefix });
  opened.push(events);
  await events.waitUntilReady();
  const seen: string[] = [];
  const worker = new Worker(queue.name, async (j) => void seen.push(`${j.id} ${j.name} ${(j.data as SendMessageJob).recipient} ${j.opts.attempts}`), { connection, prefix });
  opened.push(worker);
  const done = new Promise<void>((resolve) => events.on('completed', () => seen.length === 3 && resolve()));
  await addJobsInOneCall(queue, [sendMessageBulkJob(job('msg_1', 1)), sendMessageBulkJob(job('msg_2', 2)), sendMessageBulkJob(job('msg_3', 3), 50)]);
  await done;
  expect(seen.sort()).toEqual(['msg_1 send-message +447911100001 8', 'msg_2 send-message +447911100002 8', 'msg_3 send-message +447911100003 8']);
});

it('falls back to addBulk for options it does not take (priority)', async () => {
  const queue = open(`prio-${randomBytes(3).toString('hex')}`);
  const entry = sendMessageBulkJob(job('msg_p', 1));
  await addJobsInOneCall(queue, [{ ...entry, opts: { ...entry.opts, priority: 3 } }]);
  expect(await queue.getJobCounts('prioritized')).toEqual({ prioritized: 1 });
});

it('frames long lists and long payloads (msgpack 16-bit headers) without losing a byte', async () => {
  const queue = open(`long-${randomBytes(3).toString('hex')}`);
  const jobs = Array.from({ length: 300 }, (_, i) => ({ ...job(`msg_l${i}`, i), content: { text: `€ ${'x'.repeat(300 + i)}` } }));
  await addJobsInOneCall(queue, jobs.map((j) => sendMessageBulkJob(j)));
  expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 300 });
  expect((await queue.getJob('msg_l299'))?.data).toEqual(jobs[299]);
});

it('runs again after Redis has forgotten its script (NOSCRIPT, then EVAL)', async () => {
  const queue = open(`flush-${randomBytes(3).toString('hex')}`);
  await addJobsInOneCall(queue, [sendMessageBulkJob(job('msg_f1', 1))]);
  await redis.script('FLUSH');
  await addJobsInOneCall(queue, [sendMessageBulkJob(job('msg_f2', 2))]);
  expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 2 });
});

it('takes its first calls in the same tick as other commands on an auto-pipelined connection', async () => {
  // The gateway's queue connection auto-pipelines: a command defined on the client after ioredis opened that
  // tick's pipeline would be missing from it, and ioredis would throw outside the caller.
  const queue = new Queue(`pipe-${randomBytes(3).toString('hex')}`, { connection: { url: redisUrl, enableAutoPipelining: true }, prefix });
  opened.push(queue);
  const client = (await (queue as unknown as { backend: { client: Promise<Redis> } }).backend.client);
  const calls = Array.from({ length: 20 }, (_, i) => [client.get(`${prefix}:nothing`), addJobsInOneCall(queue, [sendMessageBulkJob(job(`msg_t${i}`, i))])]).flat();
  await Promise.all(calls);
  expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 20 });
});
