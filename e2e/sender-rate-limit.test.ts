import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { MESSAGE_SEND_QUEUE } from '@switchboard/queues';
import { createAccountKey, createTestDatabase, eventually, startStack, type Stack, type TestDatabase } from '@switchboard/devstack';

/**
 * The per-sender limit (docs/routing.md#per-sender-limits) is one bucket in Redis shared by every
 * dispatcher: two dispatchers draining one backlog from one sender together send at the configured rate,
 * as the simulator's own clock records it, and the messages that waited used no attempt for it.
 */
// Low enough that two dispatchers on a heavily loaded 2-core machine (about 16 sends/s there with no limit) can
// always go faster than the limit, or the test would measure the machine; the run still spans about eight seconds.
const RATE = 10;
const MESSAGES = 80;
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let database: TestDatabase;
let stack: Stack;
let key: string;

beforeAll(async () => {
  database = await createTestDatabase();
  stack = await startStack({
    databaseUrl: database.url,
    redisUrl: REDIS_URL,
    prefix: `e2erate${randomBytes(4).toString('hex')}`,
    workers: [],
    sandboxUpstreamFields: { sms: { sender_rate: RATE } },
    dispatcherEnv: { DISPATCH_CONCURRENCY: '16' },
  });
  ({ key } = await createAccountKey(database.url, { account: 'rate-limit-e2e', mode: 'test', rateLimitPerSecond: 100_000 }));
}, 90_000);

afterAll(async () => {
  await stack?.stop();
  await database?.drop();
});

async function send(i: number): Promise<string> {
  const res = await fetch(`${stack.baseUrl}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ channel: 'sms', recipient: `+4479111${String(23_410 + (i % 80))}`, content: { text: `rate-limit ${i}` } }),
  });
  if (res.status !== 202) throw new Error(`POST /v1/messages answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

interface SimSend {
  text: string | null;
  outcome: string;
  at: string;
}

async function acceptedSends(): Promise<SimSend[]> {
  const res = await fetch(`${stack.simUrl}/sim/sends?channel=sms`);
  const body = (await res.json()) as { data: SimSend[] };
  return body.data.filter((s) => s.outcome === 'accepted' && s.text?.startsWith('rate-limit '));
}

async function metric(url: string, outcome: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith('switchboard_dispatcher_sends_total{') && l.includes('channel="sms"') && l.includes(`outcome="${outcome}"`));
  return line ? Number(line.split(' ').pop()) : 0;
}

it('two dispatchers together send within ±10% of one sender’s configured rate, without using attempts', async () => {
  // The whole backlog is queued before the dispatchers start, so that the gateway's accept rate on a busy
  // machine is not what the test measures; they start together.
  const ids: string[] = [];
  for (let start = 0; start < MESSAGES; start += 25) {
    ids.push(...(await Promise.all(Array.from({ length: Math.min(25, MESSAGES - start) }, (_, k) => send(start + k)))));
  }
  const [first, second] = await Promise.all([stack.startService('dispatcher'), stack.startService('dispatcher')]);

  const sends = await eventually(acceptedSends, (s) => s.length >= MESSAGES, { what: 'every message sent', timeoutMs: 60_000, intervalMs: 500 });
  expect(sends).toHaveLength(MESSAGES);

  // Over the whole run: the schedule is kept in Redis from the first send, so however the two dispatchers'
  // pace varies on a busy machine (a message back late still sends on its reserved slot), the sends
  // average out at the configured rate.
  const times = sends.map((s) => Date.parse(s.at)).sort((a, b) => a - b);
  const rate = ((times.length - 1) * 1000) / (times[times.length - 1] - times[0]);
  // Sends per second since the first, shown when the rate is off, to tell a slow machine from a wrong limit.
  const perSecond = times.reduce<number[]>((counts, t) => {
    const second = Math.floor((t - times[0]) / 1000);
    counts[second] = (counts[second] ?? 0) + 1;
    return counts;
  }, []);
  if (rate < RATE * 0.9 || rate > RATE * 1.1) console.log(`sends per second: ${perSecond.join(' ')}; overall rate ${rate.toFixed(1)}/s`);
  expect(rate).toBeGreaterThanOrEqual(RATE * 0.9);
  expect(rate).toBeLessThanOrEqual(RATE * 1.1);

  // Both dispatchers sent, and both were held back by the shared bucket.
  for (const dispatcher of [first, second]) {
    expect(await metric(dispatcher.url, 'accepted')).toBeGreaterThan(0);
    expect(await metric(dispatcher.url, 'sender_rate_limited')).toBeGreaterThan(0);
  }

  // Waiting for the limit is not a failed try: every job completed on its first attempt.
  const queue = new Queue(MESSAGE_SEND_QUEUE.name, { connection: { url: REDIS_URL }, prefix: stack.prefix });
  try {
    await eventually(
      () => queue.getJobCounts('completed'),
      (c) => c.completed === MESSAGES,
      { what: 'every job completed', timeoutMs: 30_000 },
    );
    const jobs = await Promise.all(ids.map((id) => queue.getJob(id)));
    expect(jobs.filter((job) => job?.attemptsMade !== 1).map((job) => ({ id: job?.id, attemptsMade: job?.attemptsMade }))).toEqual([]);
  } finally {
    await queue.close();
  }
}, 180_000);
