import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createSenderRateLimiter, senderRateKey, type SenderRateLimiter } from '../src/upstreams/sender-rate-limiter';

/** The per-sender schedule in real Redis (docs/routing.md#per-sender-limits): burst, turns, reservations. */
let redis: Redis;
let prefix: string;
let limiter: SenderRateLimiter;
// 1/s: one slot a second, so the checks below hold however slowly a busy machine makes the calls (the waits
// are Redis's own arithmetic; nothing here times this process). The SMSC grants no limit.
const meta = { upstream: 'meta', rate: 1 };
const bsp = { upstream: 'bsp', rate: 1 };
const smsc = { upstream: 'smsc', rate: 0 };

beforeAll(() => {
  redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
});

beforeEach(() => {
  prefix = `srl${randomBytes(4).toString('hex')}`;
  limiter = createSenderRateLimiter({ redis, prefix, burstMs: 250 });
});

afterAll(async () => {
  await redis.quit();
});

it('lets the first message through, then gives each further one its own turn a slot later', async () => {
  const waits: number[] = [];
  for (let i = 0; i < 4; i += 1) waits.push(await limiter.take(meta, '+14155550100', `msg_${i}`));
  expect(waits[0]).toBe(0);
  expect(waits[1]).toBeGreaterThan(0);
  expect(waits[1]).toBeLessThanOrEqual(1000);
  // Each turn is one slot (1000 ms) after the previous one, less the time between the two calls.
  expect(waits[2] - waits[1]).toBeGreaterThan(500);
  expect(waits[2] - waits[1]).toBeLessThanOrEqual(1000);
  expect(waits[3] - waits[2]).toBeGreaterThan(500);
  expect(waits[3] - waits[2]).toBeLessThanOrEqual(1000);
});

it('keeps a waiting message its slot: asking again answers the rest of its wait without taking another', async () => {
  await limiter.take(meta, '+14155550100', 'msg_first');
  const first = await limiter.take(meta, '+14155550100', 'msg_waiting');
  expect(first).toBeGreaterThan(0);
  const again = await limiter.take(meta, '+14155550100', 'msg_waiting');
  expect(again).toBeGreaterThan(0);
  expect(again).toBeLessThanOrEqual(first);
  // The next message's turn is one slot after the waiting one's, not two.
  const next = await limiter.take(meta, '+14155550100', 'msg_next');
  expect(next - again).toBeGreaterThan(500);
  expect(next - again).toBeLessThanOrEqual(1000);
  await new Promise((resolve) => setTimeout(resolve, again + 50));
  expect(await limiter.take(meta, '+14155550100', 'msg_waiting')).toBe(0);
});

it('keeps one schedule per upstream and sender, and none where the upstream grants no limit', async () => {
  await limiter.take(meta, '+14155550100', 'a_1');
  expect(await limiter.take(meta, '+14155550100', 'a_2')).toBeGreaterThan(0);
  expect(await limiter.take(meta, '+14155550199', 'b_1')).toBe(0);
  expect(await limiter.take(bsp, '+14155550100', 'c_1')).toBe(0);
  for (let i = 0; i < 20; i += 1) expect(await limiter.take(smsc, '+14155550100', `s_${i}`)).toBe(0);
  expect(await redis.exists(senderRateKey(prefix, 'smsc', '+14155550100'))).toBe(0);
  // The schedule's key carries a hash tag, so it stays in one Redis Cluster slot.
  expect(senderRateKey(prefix, 'meta', '+14155550100')).toMatch(/\{meta:\+14155550100\}$/);
  expect(await redis.pttl(senderRateKey(prefix, 'meta', '+14155550100'))).toBeGreaterThan(0);
});

it('gives messages asking at once their turns in the order they asked, in fewer calls than messages', async () => {
  let calls = 0;
  const counting = {
    evalsha: (...args: Parameters<Redis['evalsha']>) => ((calls += 1), redis.evalsha(...args)),
    eval: (...args: Parameters<Redis['eval']>) => ((calls += 1), redis.eval(...args)),
  };
  const gathered = createSenderRateLimiter({ redis: counting as never, prefix, burstMs: 250 });

  const waits = await Promise.all(Array.from({ length: 6 }, (_, i) => gathered.take(meta, '+14155550100', `msg_${i}`)));

  // The first asks alone; the five asking meanwhile go in one call (a NOSCRIPT answer adds one EVAL each).
  expect(calls).toBeLessThanOrEqual(4);
  expect(waits[0]).toBe(0);
  // As six calls in a row would answer: each turn a slot (1000 ms) after the one before, in the order asked.
  for (let i = 2; i < waits.length; i += 1) {
    expect(waits[i] - waits[i - 1]).toBeGreaterThan(500);
    expect(waits[i] - waits[i - 1]).toBeLessThanOrEqual(1000);
  }
  expect(waits[1]).toBeGreaterThan(0);
  // A waiting message asking again keeps its slot, inside a gathered call too.
  const [again, next] = await Promise.all([gathered.take(meta, '+14155550100', 'msg_5'), gathered.take(meta, '+14155550100', 'msg_6')]);
  expect(again).toBeLessThanOrEqual(waits[5]);
  expect(next - again).toBeGreaterThan(500);
  expect(next - again).toBeLessThanOrEqual(1000);
});

describe('transactional first (docs/messages.md#traffic-lanes)', () => {
  it('does not queue a transactional message behind a bulk backlog, and the bulk message whose slot it took moves to the end', async () => {
    const bulkWaits: number[] = [];
    for (let i = 0; i < 6; i += 1) bulkWaits.push(await limiter.take(meta, '+14155550100', `bulk_${i}`, 'bulk'));
    // Five bulk messages hold reserved slots up to about 5 s ahead.
    expect(bulkWaits[5]).toBeGreaterThan(4_000);
    const otp = await limiter.take(meta, '+14155550100', 'otp_1', 'transactional');
    expect(otp).toBe(0);
    // A second transactional message paces against the first only: one slot, not the backlog.
    const otp2 = await limiter.take(meta, '+14155550100', 'otp_2', 'transactional');
    expect(otp2).toBeGreaterThan(0);
    expect(otp2).toBeLessThanOrEqual(1_000);
    // The bulk message whose turn comes next gives its slot up for the first one: it is moved behind the backlog.
    await new Promise((resolve) => setTimeout(resolve, bulkWaits[1] + 20));
    const displaced = await limiter.take(meta, '+14155550100', 'bulk_1', 'bulk');
    expect(displaced).toBeGreaterThan(3_000);
    // Two transactional sends, one slot given up so far: one more bulk message will give up its slot.
    const schedule = await redis.hgetall(senderRateKey(prefix, 'meta', '+14155550100'));
    expect(Number(schedule.debt)).toBe(1);
  });

  it('keeps transactional messages behind each other: only a bulk backlog is bypassed', async () => {
    const waits: number[] = [];
    for (let i = 0; i < 5; i += 1) waits.push(await limiter.take(meta, '+14155550100', `otp_${i}`, 'transactional'));
    expect(waits[4]).toBeGreaterThan(3_000);
    const schedule = await redis.hgetall(senderRateKey(prefix, 'meta', '+14155550100'));
    expect(Number(schedule.debt)).toBe(0);
  });

  it('shares the schedule as before while no backlog holds it ahead', async () => {
    expect(await limiter.take(meta, '+14155550100', 'otp_a', 'transactional')).toBe(0);
    const next = await limiter.take(meta, '+14155550100', 'bulk_a', 'bulk');
    expect(next).toBeGreaterThan(500);
    const schedule = await redis.hgetall(senderRateKey(prefix, 'meta', '+14155550100'));
    expect(Number(schedule.debt)).toBe(0);
  });
});
