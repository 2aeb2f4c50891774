import { randomBytes } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import { newId } from '@switchboard/domain';
import { createTestDatabase, testSecretCipher, eventually, type TestDatabase } from '@switchboard/devstack';
import type { UpstreamReceipt } from '@switchboard/domain';
import { ProviderError, type SmsAdapter } from '@switchboard/providers';
import { createWorkerConnection, exponentialRetry, MESSAGE_SEND_QUEUE, type ProviderCallbackJob, type SendMessageJob } from '@switchboard/queues';
import { createAccountsRepository, createDb, createMessageWritesRepository, type Db, type MessageWritesRepository } from '@switchboard/store';
import { createSendMessageProcessor } from '../src/processors/send-message.processor';
import type { ChannelAdapters } from '../src/upstreams/adapter-sets';
import { forwardSmsCallbacks } from '../src/upstreams/sms-callbacks.forwarder';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `sbtest${randomBytes(4).toString('hex')}`;
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

let database: TestDatabase;
let db: Db;
let store: MessageWritesRepository;
let accountId: string;
const connections: Array<ReturnType<typeof createWorkerConnection>> = [];
const connection = () => {
  const c = createWorkerConnection(redisUrl);
  connections.push(c);
  return c;
};

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ url: database.url, poolSize: 4 });
  store = createMessageWritesRepository(db);
  accountId = (await createAccountsRepository(db, testSecretCipher(database.url)).ensure('wiring-test')).id;
});

afterAll(async () => {
  await Promise.all(connections.map((c) => c.quit()));
  await db.close();
  await database.drop();
});

it('a throttled send is delayed by BullMQ without using up an attempt', async () => {
  const queueName = `send-${randomBytes(3).toString('hex')}`;
  const answers = [new ProviderError('throttled', '0x58', 'throttled'), new ProviderError('throttled', '0x58', 'throttled')];
  const sms = {
    send: async () => {
      const next = answers.shift();
      if (next) throw next;
      return { upstreamMessageId: 'smsc-ok' };
    },
  };
  const set = { sms } as unknown as ChannelAdapters;
  const processor = createSendMessageProcessor({
    store,
    providers: { test: set, live: set },
    clock: Date.now,
    logger: silent,
    config: { reconcileTimeoutMs: 1_000, throttleDelayMs: 50 },
    publishEvents: async () => undefined,
  });
  const worker = new Worker<SendMessageJob>(queueName, (job, token) => processor(job, token), { connection: connection(), prefix });
  const queue = new Queue<SendMessageJob>(queueName, { connection: connection(), prefix });
  const id = newId('msg');
  const data: SendMessageJob = {
    message_id: id,
    account_id: accountId,
    mode: 'test',
    channel: 'sms',
    plan: ['sms'],
    senders: { sms: { e164: '+14155550100' } },
    recipient: '+447911123405',
    content: { text: 'hello' },
    cost_units: 1,
    created_at: new Date().toISOString(),
  };
  try {
    // One attempt only: were a throttle to use it up, the job would fail instead of sending.
    await queue.add(MESSAGE_SEND_QUEUE.jobs.sendMessage, data, { ...MESSAGE_SEND_QUEUE.jobOptions, attempts: 1, jobId: id });
    await eventually(
      () => store.findRow(id),
      (row) => row?.status === 'sent',
      { what: 'message sent', timeoutMs: 10_000 },
    );
    const job = await eventually(
      () => queue.getJob(id),
      (j) => j?.finishedOn !== undefined,
      { what: 'job finished' },
    );
    // Completion itself counts one; the two throttled runs counted none.
    expect(job?.attemptsMade).toBe(1);
    expect(await job?.isCompleted()).toBe(true);
    expect(await store.attempts(id)).toEqual([expect.objectContaining({ status: 'sent', upstream_message_id: 'smsc-ok' })]);
  } finally {
    await worker.close();
    await queue.obliterate({ force: true });
    await queue.close();
  }
});

it('an SMS receipt is acknowledged only once queued, and a redelivered one is the same job', async () => {
  const queueName = `callbacks-${randomBytes(3).toString('hex')}`;
  const queue = new Queue<ProviderCallbackJob>(queueName, { connection: connection(), prefix });
  let onReceipt: ((r: UpstreamReceipt) => Promise<void>) | undefined;
  const sms = { onReceipt: (h: typeof onReceipt) => (onReceipt = h), onInbound: () => undefined } as unknown as SmsAdapter;
  forwardSmsCallbacks({ sms, queue, clock: Date.now, retry: exponentialRetry(3, 1_000) });
  const receipt: UpstreamReceipt = {
    channel: 'sms',
    upstreamMessageId: 'ab:cd',
    attemptRef: 7,
    recipient: '+447911123400',
    status: 'delivered',
    carrierStatusCode: 'DELIVRD',
    occurredAt: new Date().toISOString(),
  };
  try {
    await onReceipt?.(receipt);
    await onReceipt?.(receipt);
    const jobs: Job<ProviderCallbackJob>[] = await queue.getJobs(['waiting']);
    expect(jobs.map((j) => j.id)).toEqual(['sms-ab_cd-delivered']);
    expect(jobs[0].data).toMatchObject({ source: 'sms', receipts: [receipt], inbound: [], template_updates: [] });
  } finally {
    await queue.obliterate({ force: true });
    await queue.close();
  }
});

it('SMS receipts arriving while a job is queued are the next job, each acknowledged once queued; the same receipts again are the same job', async () => {
  const queueName = `callbacks-${randomBytes(3).toString('hex')}`;
  const queue = new Queue<ProviderCallbackJob>(queueName, { connection: connection(), prefix });
  let onReceipt: ((r: UpstreamReceipt) => Promise<void>) | undefined;
  const sms = { onReceipt: (h: typeof onReceipt) => (onReceipt = h), onInbound: () => undefined } as unknown as SmsAdapter;
  forwardSmsCallbacks({ sms, queue, clock: Date.now, retry: exponentialRetry(3, 1_000), maxReceiptsPerJob: 100 });
  const receipts: UpstreamReceipt[] = ['a0', 'a1', 'a2', 'a3'].map((id) => ({
    channel: 'sms',
    upstreamMessageId: id,
    status: 'delivered',
    carrierStatusCode: 'DELIVRD',
    occurredAt: new Date().toISOString(),
  }));
  try {
    // The first goes out at once, alone; the three arriving while it is queued go together next.
    await Promise.all(receipts.map((r) => onReceipt?.(r) ?? Promise.resolve()));
    // Every handler has resolved (the SMSC would now get its deliver_sm_resp): every job is already in Redis.
    const queued: Job<ProviderCallbackJob>[] = await queue.getJobs(['waiting']);
    const ids = queued.map((j) => j.id).sort();
    expect(ids).toEqual([expect.stringMatching(/^sms-a0-delivered$/), expect.stringMatching(/^sms-receipts-[0-9a-f]{40}$/)]);
    const together = queued.find((j) => j.id !== 'sms-a0-delivered');
    expect(together?.data).toMatchObject({ source: 'sms', receipts: receipts.slice(1), inbound: [], template_updates: [] });
    await Promise.all(receipts.map((r) => onReceipt?.(r) ?? Promise.resolve()));
    expect((await queue.getJobs(['waiting'])).map((j) => j.id).sort()).toEqual(ids);
  } finally {
    await queue.obliterate({ force: true });
    await queue.close();
  }
});
