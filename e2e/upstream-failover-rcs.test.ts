import { eventually, type Stack } from '@switchboard/devstack';
import { channelDriver, startFailoverWorld, type ChannelDriver, type FailoverWorld, type Upstream } from './support/failover-world';

/**
 * Two sandbox RBM upstreams behind the dispatcher (docs/routing.md#several-upstreams-per-channel): the
 * primary's RBM endpoint is taken down mid-run with carrier-sim's fault switch (docs/sandbox.md#faults-at-run-time)
 * and answers 503 UNAVAILABLE, its breaker opens, messages flow through the secondary, and after the primary
 * recovers and the cool-down passes, a probe closes the breaker and traffic returns. RBM's messageId dedupe
 * holds only within one upstream, so the sims' send logs (keyed by our message id) must show each message
 * taken exactly once across the two.
 */
const RECIPIENT = '+447911123410';

let world: FailoverWorld;
let stack: Stack;
let simB: string;

beforeAll(async () => {
  world = await startFailoverWorld({
    prefix: 'e2efor',
    account: 'failover-rcs-e2e',
    upstreams: ({ primaryUrl, secondaryUrl }) => ({
      rcs: [
        { name: 'rbm-primary', base_url: primaryUrl, priority: 1 },
        { name: 'rbm-secondary', base_url: secondaryUrl, priority: 2 },
      ],
    }),
  });
  ({ stack, secondaryUrl: simB } = world);
  driver = channelDriver(world, 'rcs', RECIPIENT);
}, 90_000);

afterAll(async () => {
  await world?.stop();
});

const api = <T>(method: string, path: string, body?: unknown) => world.api<T>(method, path, body);
const upstream = (name: string) => world.upstream(name);
const breakerGauge = (name: string) => world.breakerGauge('rcs', name);
const setFault = (simUrl: string, fault: Record<string, unknown> | null) => world.setFault(simUrl, 'rcs', fault);

// Set once the world is up (beforeAll).
let driver: ChannelDriver;
const sendOne = () => driver.sendOne();
const delivered = (id: string) => driver.delivered(id);
const acceptedAt = (simUrl: string) => driver.acceptedAt(simUrl);

describe('several RBM upstreams with circuit breakers', () => {
  it('lists the RBM upstreams with their priorities', async () => {
    await eventually(
      () => api<{ data: Upstream[] }>('GET', '/v1/upstreams'),
      (r) => r.body.data?.filter((u) => u.mode === 'test' && u.channel === 'rcs').length === 2,
      {
        what: 'published RBM upstreams',
      },
    );
    expect(await upstream('rbm-primary')).toMatchObject({ channel: 'rcs', state: 'closed', priority: 1 });
    expect(await upstream('rbm-secondary')).toMatchObject({ channel: 'rcs', state: 'closed', priority: 2 });
  });

  it('fails over while the primary is down and returns after it recovers', async () => {
    const sent: string[] = [];
    const sendAndDeliver = async (n: number) => {
      const batch = await Promise.all(Array.from({ length: n }, () => sendOne()));
      await Promise.all(batch.map((id) => delivered(id)));
      sent.push(...batch);
      return batch;
    };

    const healthy = await sendAndDeliver(3);
    expect(await acceptedAt(stack.simUrl)).toEqual(expect.arrayContaining(healthy));

    await setFault(stack.simUrl, { channel: 'rcs', mode: 'down' });
    // Each 503 moves on to the secondary within the same attempt; ten failures open the breaker.
    await sendAndDeliver(12);
    expect(await upstream('rbm-primary')).toMatchObject({ state: 'open' });
    expect((await upstream('rbm-primary')).error_rate).toBeGreaterThanOrEqual(0.5);
    await eventually(
      () => breakerGauge('rbm-primary'),
      (v) => v === '2',
      { what: 'open breaker gauge', timeoutMs: 5_000 },
    );

    const whileOpen = await sendAndDeliver(3);
    expect(await acceptedAt(simB)).toEqual(expect.arrayContaining(whileOpen));

    await setFault(stack.simUrl, null);
    // After the cool-down (BREAKER_POLICY.coolDownMs in services/dispatcher, 30 s) one send probes the primary; its success closes the breaker.
    await eventually(
      async () => {
        await sendAndDeliver(1);
        return (await upstream('rbm-primary')).state;
      },
      (state) => state === 'closed',
      { what: 'primary breaker closed again', timeoutMs: 60_000, intervalMs: 500 },
    );
    const afterRecovery = await sendAndDeliver(3);
    expect(await acceptedAt(stack.simUrl)).toEqual(expect.arrayContaining(afterRecovery));
    await eventually(
      () => breakerGauge('rbm-primary'),
      (v) => v === '0',
      { what: 'closed breaker gauge', timeoutMs: 5_000 },
    );

    // Every message was taken by exactly one upstream, once.
    const taken = [...(await acceptedAt(stack.simUrl)), ...(await acceptedAt(simB))];
    for (const id of sent) expect(taken.filter((ref) => ref === id)).toHaveLength(1);
    expect(taken).toHaveLength(sent.length);
  }, 150_000);
});
