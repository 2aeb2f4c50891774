import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createUpstreamBreakerStore, type UpstreamBreakerStore } from '@switchboard/shared-state';
import { coalesceBreakerStore } from '../src/upstreams/coalesced-breakers';

/** The breaker store with concurrent sends' Redis work gathered (docs/performance/dispatch.md#dispatch), over real Redis. */
let redis: Redis;
let store: UpstreamBreakerStore;
let writes: number;
let reads: number;

beforeAll(() => {
  redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
});

beforeEach(() => {
  const raw = createUpstreamBreakerStore({ redis, prefix: `cb${randomBytes(4).toString('hex')}`, windowSize: 10 });
  writes = 0;
  reads = 0;
  store = {
    ...raw,
    read: (name) => ((reads += 1), raw.read(name)),
    recordMany: (name, oks) => ((writes += 1), raw.recordMany(name, oks)),
  };
});

afterAll(async () => {
  await redis.quit();
});

it('writes the outcomes that arrive while one is being written together, each caller seeing its own outcome', async () => {
  const breakers = coalesceBreakerStore(store);
  const outcomes = [true, false, true, true, false, true];

  const records = await Promise.all(outcomes.map((ok) => breakers.record('smsc-a', ok)));

  // The first goes alone; the five arriving while it is written go together.
  expect(writes).toBe(2);
  expect(records[0].recent).toEqual([true]);
  for (const record of records.slice(1)) expect(record.recent).toEqual([...outcomes].reverse());
  expect((await store.read('smsc-a')).recent).toEqual([...outcomes].reverse());
});

it('keeps each upstream apart, and trims the window as one write at a time would', async () => {
  const breakers = coalesceBreakerStore(store);
  await Promise.all([
    ...Array<boolean>(12)
      .fill(false)
      .map((ok) => breakers.record('smsc-a', ok)),
    breakers.record('smsc-b', true),
  ]);
  expect((await store.read('smsc-a')).recent).toEqual(Array<boolean>(10).fill(false));
  expect((await store.read('smsc-b')).recent).toEqual([true]);
});

it('shares a read under way between the sends asking meanwhile, and reads again after it', async () => {
  const breakers = coalesceBreakerStore(store);
  await store.transition('smsc-a', 'closed', { state: 'open', openedAt: 5, probeUntil: 0 }, false);

  const together = await Promise.all([breakers.read('smsc-a'), breakers.read('smsc-a'), breakers.read('smsc-a')]);
  expect(reads).toBe(1);
  expect(together.map((r) => r.state)).toEqual(['open', 'open', 'open']);

  await store.transition('smsc-a', 'open', { state: 'closed', openedAt: 5, probeUntil: 0 }, true);
  expect((await breakers.read('smsc-a')).state).toBe('closed');
  expect(reads).toBe(2);
});

it('a failed write fails only the callers of that write', async () => {
  let failNext = true;
  const flaky: UpstreamBreakerStore = {
    ...store,
    recordMany: (name, oks) => {
      if (failNext) {
        failNext = false;
        return Promise.reject(new Error('redis down'));
      }
      return store.recordMany(name, oks);
    },
  };
  const breakers = coalesceBreakerStore(flaky);
  const [first, ...rest] = await Promise.allSettled([breakers.record('smsc-a', true), breakers.record('smsc-a', false), breakers.record('smsc-a', false)]);
  expect(first.status).toBe('rejected');
  expect(rest.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
  expect((await store.read('smsc-a')).recent).toEqual([false, false]);
});
