import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { Redis } from 'ioredis';
import { startRedis, type RedisServer } from '@switchboard/devstack';
import { createEndpointSlots } from '../src/endpoint-slots';

// Two slot sets on two connections stand for two webhook-delivery processes sharing one Redis.
let server: RedisServer;
const connections: Redis[] = [];
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  server = await startRedis();
});

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

afterAll(async () => {
  for (const c of connections) c.disconnect();
  await server?.stop();
  if (server) rmSync(server.dir, { recursive: true, force: true });
});

// The clock starts at the real time: the set itself expires (PEXPIREAT) at its latest score.
const HOLD_MS = 10_000;

function processSlots(prefix: string, clock: { t: number }, leaseMs: number, limit = 2) {
  const redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
  connections.push(redis);
  const slots = createEndpointSlots({ redis, prefix, limit, holdMs: HOLD_MS, leaseMs, now: () => clock.t });
  closers.push(() => slots.close());
  return { slots, redis };
}

const membersOf = (redis: Redis, prefix: string, target: string) => redis.zcard(`${prefix}:webhook-slots:${target}`);

describe('endpoint slots leased per process (docs/webhooks.md, one slow endpoint cannot starve the others)', () => {
  it('runs attempt after attempt on one leased slot without a Redis member per attempt', async () => {
    const prefix = `slots-${randomUUID()}`;
    const clock = { t: Date.now() };
    const a = processSlots(prefix, clock, 60_000);
    for (let i = 0; i < 20; i++) {
      expect(await a.slots.acquire('ep_1', `attempt-${i}`)).toBe(true);
      await a.slots.release('ep_1', `attempt-${i}`);
      clock.t += 10;
    }
    expect(await membersOf(a.redis, prefix, 'ep_1')).toBe(1);
  });

  it('never lets two processes together hold more than the limit in flight', async () => {
    const prefix = `slots-${randomUUID()}`;
    const clock = { t: Date.now() };
    const a = processSlots(prefix, clock, 60_000);
    const b = processSlots(prefix, clock, 60_000);
    expect(await a.slots.acquire('ep_1', 'a1')).toBe(true);
    expect(await b.slots.acquire('ep_1', 'b1')).toBe(true);
    expect(await a.slots.acquire('ep_1', 'a2')).toBe(false);
    expect(await b.slots.acquire('ep_1', 'b2')).toBe(false);
    // A freed slot stays with the process that leased it, for its next attempt only.
    await a.slots.release('ep_1', 'a1');
    expect(await b.slots.acquire('ep_1', 'b2')).toBe(false);
    expect(await a.slots.acquire('ep_1', 'a2')).toBe(true);
    expect(await a.slots.acquire('ep_1', 'a3')).toBe(false);
    expect(await membersOf(a.redis, prefix, 'ep_1')).toBe(2);
    // Other targets have slots of their own.
    expect(await b.slots.acquire('ep_2', 'b3')).toBe(true);
  });

  it('gives an idle leased slot back, so another process gets it', async () => {
    const prefix = `slots-${randomUUID()}`;
    const clock = { t: Date.now() };
    const a = processSlots(prefix, clock, 200, 1);
    const b = processSlots(prefix, clock, 200, 1);
    expect(await a.slots.acquire('ep_1', 'a1')).toBe(true);
    await a.slots.release('ep_1', 'a1');
    expect(await b.slots.acquire('ep_1', 'b1')).toBe(false);
    // The sweep runs on a real timer (every 50 ms here) and returns slots idle for one interval.
    clock.t += 100;
    for (let tries = 0; tries < 100 && (await membersOf(a.redis, prefix, 'ep_1')) > 0; tries++) await new Promise((r) => setTimeout(r, 20));
    expect(await membersOf(a.redis, prefix, 'ep_1')).toBe(0);
    expect(await b.slots.acquire('ep_1', 'b1')).toBe(true);
  });

  it('starts no attempt on a slot whose window is over, and gives that slot back when its attempt ends', async () => {
    const prefix = `slots-${randomUUID()}`;
    const clock = { t: Date.now() };
    const a = processSlots(prefix, clock, 60_000, 1);
    expect(await a.slots.acquire('ep_1', 'a1')).toBe(true);
    clock.t += 60_000;
    await a.slots.release('ep_1', 'a1');
    expect(await membersOf(a.redis, prefix, 'ep_1')).toBe(0);
    // A new lease replaces it.
    expect(await a.slots.acquire('ep_1', 'a2')).toBe(true);
    expect(await membersOf(a.redis, prefix, 'ep_1')).toBe(1);
  });

  it('frees the slots of a process that died once their lease and hold have passed', async () => {
    const prefix = `slots-${randomUUID()}`;
    const clock = { t: Date.now() };
    const dead = processSlots(prefix, clock, 1_000, 1);
    const alive = processSlots(prefix, clock, 1_000, 1);
    expect(await dead.slots.acquire('ep_1', 'd1')).toBe(true);
    // The dead process never releases. Until its lease window and the longest attempt are over, the slot stays taken.
    clock.t += 1_000 + HOLD_MS - 1;
    expect(await alive.slots.acquire('ep_1', 'l1')).toBe(false);
    clock.t += 1;
    expect(await alive.slots.acquire('ep_1', 'l1')).toBe(true);
  });

  it('with a lease of 0, takes and gives back a Redis member per attempt', async () => {
    const prefix = `slots-${randomUUID()}`;
    const clock = { t: Date.now() };
    const a = processSlots(prefix, clock, 0, 1);
    expect(await a.slots.acquire('ep_1', 'a1')).toBe(true);
    expect(await membersOf(a.redis, prefix, 'ep_1')).toBe(1);
    await a.slots.release('ep_1', 'a1');
    expect(await membersOf(a.redis, prefix, 'ep_1')).toBe(0);
  });
});
