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

/** Sends RATE requests per second for SECONDS, round-robin over `urls`; returns when each 202 was accepted. */
async function drive(urls: string[], key: string): Promise<{ admitted: number[]; statuses: Set<number> }> {
  await sleep(1000 - (Date.now() % 1000) + Math.random() * 1000);
  const start = Date.now();
  const admitted: number[] = [];
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
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(textMessage()),
        signal: AbortSignal.timeout(15_000),
      }).then(async (res) => {
        const body = (await res.json()) as { created_at?: string };
        statuses.add(res.status);
        // The gateway's acceptance time, right after its decision: the client's receipt time would add
        // the network's and the event loop's jitter to what is measured.
        if (res.status === 202) admitted.push(Date.parse(body.created_at as string));
      }),
    );
  }
  await Promise.all(pending);
  return { admitted: admitted.sort((a, b) => a - b), statuses };
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
  const perSecond = admitted.length / SECONDS;
  expect(perSecond).toBeGreaterThanOrEqual(QUOTA * 0.9);
  expect(perSecond).toBeLessThanOrEqual(QUOTA * 1.1);
}

describe('per-key rate limit over any window', () => {
  it('holds a key driven at twice its quota through one gateway, from an unaligned start', async () => {
    const { key } = await h.key({ mode: 'test', rateLimitPerSecond: QUOTA });
    expectWithinQuota(await drive([h.url], key));
  });

  it('holds the same key driven through two gateways at once', async () => {
    const { key } = await h.key({ mode: 'test', rateLimitPerSecond: QUOTA });
    expectWithinQuota(await drive([h.url, second.url], key));
  });
});
