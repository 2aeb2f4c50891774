import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { ProviderError, type OutboundMessage, type SendAccepted, type SmsAdapter } from '@switchboard/providers';
import { createUpstreamBreakerStore, type UpstreamBreakerStore } from '@switchboard/shared-state';
import { createDispatcherMetrics } from '../src/metrics';
import type { BreakerPolicy } from '../src/upstreams/circuit-breaker';
import { createFailoverSmsAdapter } from '../src/upstreams/failover-sms.adapter';
import type { SmsUpstreamConfig } from '../src/upstreams/sms-upstreams.config';

/**
 * The failover adapter over real Redis (the breakers' shared state) with scripted SMSCs: which upstream
 * a send reaches, when it moves on, and that two dispatchers agree on one breaker.
 */
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const policy: BreakerPolicy = { windowSize: 10, minCalls: 10, failureRateThreshold: 0.5, slowCallMs: 60_000, coolDownMs: 1_000, probeTimeoutMs: 500 };
const message: OutboundMessage = { clientRef: 'msg_1', attemptRef: 7, to: '+447911123400', from: '+14155550100', content: { kind: 'text', text: 'hi' } };

/** An SMSC that answers each submit with the next scripted reaction, and records what it took. */
function scriptedSmsc(react: () => SendAccepted | ProviderError) {
  const taken: OutboundMessage[] = [];
  let calls = 0;
  const adapter: SmsAdapter = {
    send: async (m) => {
      calls += 1;
      const reaction = react();
      if (reaction instanceof ProviderError) throw reaction;
      taken.push(m);
      return reaction;
    },
    onReceipt: () => undefined,
    onInbound: () => undefined,
    ready: async () => undefined,
    close: async () => undefined,
  };
  return { adapter, taken, calls: () => calls };
}

const upstream = (name: string, priority: number): SmsUpstreamConfig => ({
  name,
  host: '127.0.0.1',
  port: 1,
  systemId: 's',
  password: 'p',
  priority,
  weight: 1,
});
const accepted = (id: string) => () => ({ upstreamMessageId: id, parts: 1, partIds: [id] });
const refused = () => new ProviderError('transient', '0x00000008', 'submit_sm refused with ESME_RSYSERR (0x00000008)');

let redis: Redis;
let breakers: UpstreamBreakerStore;
let now: number;

beforeAll(() => {
  redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
});

beforeEach(() => {
  breakers = createUpstreamBreakerStore({ redis, prefix: `fo${randomBytes(4).toString('hex')}`, windowSize: policy.windowSize });
  now = 1_000_000;
});

afterAll(async () => {
  await redis.quit();
});

function failover(a: SmsAdapter, b: SmsAdapter) {
  return createFailoverSmsAdapter({
    upstreams: [
      { config: upstream('a', 1), adapter: a },
      { config: upstream('b', 2), adapter: b },
    ],
    breakers,
    policy,
    clock: () => now,
    logger: silent,
    metrics: createDispatcherMetrics(),
  });
}

describe('failover SMS adapter', () => {
  it('sends to the primary while it is healthy', async () => {
    const a = scriptedSmsc(accepted('a1'));
    const b = scriptedSmsc(accepted('b1'));
    await expect(failover(a.adapter, b.adapter).send(message)).resolves.toMatchObject({ upstreamMessageId: 'a1' });
    expect(b.calls()).toBe(0);
  });

  it('moves a refused submit to the next SMSC with the same user_message_reference', async () => {
    const a = scriptedSmsc(refused);
    const b = scriptedSmsc(accepted('b1'));
    await expect(failover(a.adapter, b.adapter).send(message)).resolves.toMatchObject({ upstreamMessageId: 'b1' });
    expect(b.taken).toEqual([expect.objectContaining({ attemptRef: 7 })]);
  });

  it('does not move a send of unknown outcome: the first SMSC may have taken it', async () => {
    const a = scriptedSmsc(() => new ProviderError('transient', 'submit_timeout', 'no submit_sm_resp'));
    const b = scriptedSmsc(accepted('b1'));
    await expect(failover(a.adapter, b.adapter).send(message)).rejects.toMatchObject({ upstreamCode: 'submit_timeout' });
    expect(b.calls()).toBe(0);
  });

  it('does not move a permanent refusal, and counts it as a healthy answer', async () => {
    const a = scriptedSmsc(() => new ProviderError('permanent', '0x0000000b', 'ESME_RINVDSTADR'));
    const b = scriptedSmsc(accepted('b1'));
    await expect(failover(a.adapter, b.adapter).send(message)).rejects.toMatchObject({ kind: 'permanent' });
    expect(b.calls()).toBe(0);
    expect((await breakers.read('a')).recent).toEqual([true]);
  });

  it('opens the breaker, skips the upstream, probes after the cool-down and closes on success', async () => {
    let down = true;
    const a = scriptedSmsc(() => (down ? refused() : accepted('a1')()));
    const b = scriptedSmsc(accepted('b1'));
    const sms = failover(a.adapter, b.adapter);
    for (let i = 0; i < 10; i += 1) await sms.send(message);
    expect(await breakers.read('a')).toMatchObject({ state: 'open', openedAt: now });
    await sms.send(message);
    expect(a.calls()).toBe(10);

    down = false;
    now += policy.coolDownMs;
    await expect(sms.send(message)).resolves.toMatchObject({ upstreamMessageId: 'a1' });
    expect(await breakers.read('a')).toMatchObject({ state: 'closed', recent: [] });
  });

  it('gives the probe to only one of two dispatchers', async () => {
    const a = scriptedSmsc(accepted('a1'));
    const b = scriptedSmsc(accepted('b1'));
    await breakers.transition('a', 'closed', { state: 'open', openedAt: now - policy.coolDownMs, probeUntil: 0 }, false);
    // Two processes, one Redis state: the second sees the first's probe in flight and uses b.
    let releaseProbe: () => void = () => undefined;
    const slowA: SmsAdapter = { ...a.adapter, send: (m) => new Promise((resolve) => (releaseProbe = () => resolve(a.adapter.send(m)))) };
    const first = failover(slowA, b.adapter).send(message);
    while ((await breakers.read('a')).state !== 'half_open') await new Promise((r) => setImmediate(r));
    await expect(failover(a.adapter, b.adapter).send(message)).resolves.toMatchObject({ upstreamMessageId: 'b1' });
    releaseProbe();
    await expect(first).resolves.toMatchObject({ upstreamMessageId: 'a1' });
    expect(await breakers.read('a')).toMatchObject({ state: 'closed' });
  });

  it('fails transiently when every breaker is open', async () => {
    const a = scriptedSmsc(accepted('a1'));
    const b = scriptedSmsc(accepted('b1'));
    for (const name of ['a', 'b']) await breakers.transition(name, 'closed', { state: 'open', openedAt: now, probeUntil: 0 }, false);
    await expect(failover(a.adapter, b.adapter).send(message)).rejects.toMatchObject({ kind: 'transient', upstreamCode: 'no_upstream_available' });
    expect(a.calls() + b.calls()).toBe(0);
  });
});
