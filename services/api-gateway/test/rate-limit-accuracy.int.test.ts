import { randomUUID } from 'node:crypto';
import { startService, testSecretsKeys, type ServiceProcess } from '@switchboard/devstack';
import { startGatewayHarness, textMessage, TEST_REDIS_URL, type GatewayHarness } from './support/gateway-harness';

// A key with quota 50 driven at 100 requests/s for 5 s, from a start at a random offset within the
// second: no sliding second may admit more than the quota plus 10 %, and the overall rate stays
// within 10 % of the quota (docs/architecture.md, rate limits).
const QUOTA = 50;
const RATE = 100;
const SECONDS = 5;

jest.setTimeout(60_000);

let h: GatewayHarness;
let second: ServiceProcess;

beforeAll(async () => {
  h = await startGatewayHarness();
  // A second gateway on the same store and Redis prefix: the limit is one window for both.
  second = await startService('api-gateway', {
    DATABASE_URL: h.database.url,
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: h.prefix,
    LOG_LEVEL: 'warn',
    DB_POOL_SIZE: '2',
    SECRETS_ENCRYPTION_KEYS: testSecretsKeys(h.database.url),
  });
});

afterAll(async () => {
  await second?.stop();
  await h?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Between two reads of the window set: a twentieth of the window. */
const RECORDER_PAUSE_MS = 50;

/**
 * The limiter's own record of each admission: the members of the key's window set and their Redis-clock
 * times. A member stays in the set for at least one window, so reading it again and again sees every one.
 * The gateway's created_at would add the gateway's event-loop delay between the decision and the stamp,
 * which on a loaded machine bunches admissions that Redis spread out.
 */
function recordAdmissions(keyId: string): { stop: () => Promise<Map<string, number>> } {
  const seen = new Map<string, number>();
  const read = async () => {
    const flat = await h.redis.zrange(`${h.prefix}:gateway:rate:${keyId}`, 0, -1, 'WITHSCORES');
    for (let i = 0; i < flat.length; i += 2) seen.set(flat[i], Number(flat[i + 1]) / 1000);
  };
  // One read after another with a short pause, not on a fixed timer: a loaded machine delays timers, and a member
  // unread for a whole window is trimmed; back-to-back reads keep the gap to one round trip and the pause.
  let reading = true;
  const loop = (async () => {
    while (reading) {
      await read();
      await sleep(RECORDER_PAUSE_MS);
    }
  })();
  return {
    stop: async () => {
      reading = false;
      await loop;
      await read();
      return seen;
    },
  };
}

/** Sends RATE requests per second for SECONDS, round-robin over `urls`; returns the limiter's admission times. */
async function drive(urls: string[], key: string, keyId: string, withIdempotencyKeys = false): Promise<{ admitted: number[]; statuses: Set<number> }> {
  await sleep(1000 - (Date.now() % 1000) + Math.random() * 1000);
  const recorder = recordAdmissions(keyId);
  const start = Date.now();
  let accepted = 0;
  const statuses = new Set<number>();
  const pending: Array<Promise<void>> = [];
  for (let i = 0; i < RATE * SECONDS; i += 1) {
    // Paced against the start, so that a slow tick does not lower the offered rate.
    const due = start + (i * 1000) / RATE;
    if (due > Date.now()) await sleep(due - Date.now());
    const url = `${urls[i % urls.length]}/v1/messages`;
    pending.push(
      fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(withIdempotencyKeys ? { 'idempotency-key': randomUUID() } : {}) },
        body: JSON.stringify(textMessage()),
        signal: AbortSignal.timeout(15_000),
      }).then(async (res) => {
        await res.arrayBuffer();
        statuses.add(res.status);
        if (res.status === 202) accepted += 1;
      }),
    );
  }
  await Promise.all(pending);
  const admissions = await recorder.stop();
  // Every 202 is one admission in the limiter's record, and nothing else is.
  expect(admissions.size).toBe(accepted);
  return { admitted: [...admissions.values()].sort((a, b) => a - b), statuses };
}

/** The largest number of admissions inside any half-open window of one second. */
function busiestSecond(times: number[]): number {
  let busiest = 0;
  let from = 0;
  for (let to = 0; to < times.length; to += 1) {
    while (times[to] - times[from] >= 1000) from += 1;
    busiest = Math.max(busiest, to - from + 1);
  }
  return busiest;
}

function expectWithinQuota({ admitted, statuses }: { admitted: number[]; statuses: Set<number> }): void {
  expect([...statuses].sort()).toEqual([202, 429]);
  expect(busiestSecond(admitted)).toBeLessThanOrEqual(QUOTA * 1.1);
  expect(admitted.length / SECONDS).toBeGreaterThanOrEqual(QUOTA * 0.9);
  // On a loaded machine the requests sent in SECONDS can reach the limiter over a longer span, and a correct
  // limiter admits up to QUOTA in each one-second window that span touches: divide by those windows.
  const spannedWindows = Math.floor((admitted[admitted.length - 1] - admitted[0]) / 1000) + 1;
  expect(admitted.length / Math.max(SECONDS, spannedWindows)).toBeLessThanOrEqual(QUOTA * 1.1);
}

describe('per-key rate limit over any window', () => {
  it('holds a key driven at twice its quota through one gateway, from an unaligned start', async () => {
    const { key, keyId } = await h.key({ mode: 'test', rateLimitPerSecond: QUOTA });
    expectWithinQuota(await drive([h.url], key, keyId));
  });

  it('holds the same key driven through two gateways at once', async () => {
    const { key, keyId } = await h.key({ mode: 'test', rateLimitPerSecond: QUOTA });
    expectWithinQuota(await drive([h.url, second.url], key, keyId));
  });

  it('holds a key whose requests carry Idempotency-Keys (counted inside the send script), through two gateways', async () => {
    const { key, keyId } = await h.key({ mode: 'test', rateLimitPerSecond: QUOTA });
    expectWithinQuota(await drive([h.url, second.url], key, keyId, true));
  });
});
