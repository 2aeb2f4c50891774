import { createUpstreamBreakerStore } from '@switchboard/shared-state';
import { loadConfig, parseSmsSenderRate, type DispatcherConfig } from '../src/config';
import { createDispatcherMetrics } from '../src/metrics';
import { RECEIPT_BATCH_MAX, RECEIPT_BATCH_WAIT_MS } from '../src/processors/receipt-batcher';
import { createAdapterSets } from '../src/upstreams/adapter-sets';
import { BREAKER_POLICY } from '../src/upstreams/circuit-breaker';

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const base = { DATABASE_URL: 'postgres://localhost/x' };
const sandboxSmsc = (port: number) => JSON.stringify([{ name: 'sandbox-smsc', host: '127.0.0.1', port }]);

/** The problems loadConfig exits with, as it writes them. */
function refusal(env: Record<string, string>): string {
  const exit = jest.spyOn(process, 'exit').mockImplementation((() => {
    throw new Error('exit');
  }) as never);
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    expect(() => loadConfig({ ...base, ...env })).toThrow('exit');
    return String(stderr.mock.calls.map((c) => c[0]).join(''));
  } finally {
    exit.mockRestore();
    stderr.mockRestore();
  }
}

describe('dispatcher config', () => {
  it('reads SMPP binds and window, and scales the SMS sender rate by the binds only when told it is per bind', () => {
    expect(loadConfig(base)).toMatchObject({ smpp: { binds: 1, window: 10 } });
    expect({ RECEIPT_BATCH_MAX, RECEIPT_BATCH_WAIT_MS }).toEqual({ RECEIPT_BATCH_MAX: 100, RECEIPT_BATCH_WAIT_MS: 2 });
    const perSender = loadConfig({ ...base, SMPP_BINDS: '4', SMPP_WINDOW: '50', SENDER_RATE_SMS_PER_SECOND: '30' });
    expect(perSender.smpp).toEqual({ binds: 4, window: 50 });
    expect(perSender.senderRates.sms).toBe(30);
    expect(loadConfig({ ...base, SMPP_BINDS: '4', SENDER_RATE_SMS_PER_SECOND: '30/bind' }).senderRates.sms).toBe(120);
  });

  it('defaults every live upstream to its sandbox counterpart', () => {
    const config = loadConfig({
      ...base,
      SANDBOX_CHAT_UPSTREAMS: '[{"name":"sandbox-chat","base_url":"http://127.0.0.1:9999","access_token":"ignored"}]',
      SANDBOX_SMS_UPSTREAMS: sandboxSmsc(2776),
    });
    expect(config.live).toEqual(config.sandbox);
    expect(config.sandbox).toMatchObject({
      chat: [{ name: 'sandbox-chat', baseUrl: 'http://127.0.0.1:9999', accessToken: 'sandbox-chat-token', wabaId: '100000000000001', priority: 1, weight: 1 }],
      rcs: [
        { name: 'sandbox-rbm', baseUrl: 'http://127.0.0.1:8090', accessToken: 'sandbox-rbm-token', agentId: 'switchboard-sandbox', priority: 1, weight: 1 },
      ],
      sms: [{ name: 'sandbox-smsc', host: '127.0.0.1', port: 2776, systemId: 'switchboard', password: 'sandbox', priority: 1, weight: 1 }],
    });
  });

  it('reads several RBM upstreams from RCS_UPSTREAMS, and names a bad field of a list', () => {
    const config = loadConfig({
      ...base,
      RCS_UPSTREAMS: JSON.stringify([
        { name: 'rbm-eu', base_url: 'https://eu.rbm.example', access_token: 't1', agent_id: 'agent-eu' },
        { name: 'rbm-us', base_url: 'https://us.rbm.example', priority: 2 },
      ]),
    });
    expect(config.live.rcs).toEqual([
      { name: 'rbm-eu', baseUrl: 'https://eu.rbm.example', accessToken: 't1', agentId: 'agent-eu', priority: 1, weight: 1 },
      { name: 'rbm-us', baseUrl: 'https://us.rbm.example', accessToken: 'sandbox-rbm-token', agentId: 'switchboard-sandbox', priority: 2, weight: 1 },
    ]);
    expect(refusal({ SANDBOX_RCS_UPSTREAMS: '[{"name":"x","base_url":"ftp://x"}]' })).toMatch(/SANDBOX_RCS_UPSTREAMS\[0\]\.base_url must be an http\(s\) URL/);
  });

  it('refuses the retired single-upstream variables, naming the list that replaced each, all at once', () => {
    const written = refusal({ RBM_AGENT_ID: 'a', SMPP_HOST: 'smsc.example.net', SANDBOX_SMPP_PORT: '2776', HEALTH_PORT: '0', CHAT_MEDIA_ALLOW_HTTP: 'true' });
    expect(written).toMatch(/RBM_AGENT_ID is no longer read; use RCS_UPSTREAMS/);
    expect(written).toMatch(/SMPP_HOST is no longer read; use SMS_UPSTREAMS/);
    expect(written).toMatch(/SANDBOX_SMPP_PORT is no longer read; use SANDBOX_SMS_UPSTREAMS/);
    expect(written).toMatch(/HEALTH_PORT is no longer read; use HOST and PORT/);
    expect(written).toMatch(/CHAT_MEDIA_ALLOW_HTTP is no longer read; use TARGET_ALLOW_HTTP/);
  });

  it('reads the documented tuning variables', () => {
    const config = loadConfig({
      ...base,
      DISPATCH_CONCURRENCY: '16',
      RECONCILE_TIMEOUT_MS: '3000',
      LOCK_DURATION_MS: '2500',
      PORT: '0',
      TARGET_ALLOW_HTTP: 'true',
    });
    expect(config).toMatchObject({ concurrency: 16, reconcileTimeoutMs: 3000, stalledIntervalMs: 2500, lockDurationMs: 2500, healthPort: 0 });
    expect(config.targets).toEqual({ allowHttp: true, allowPrivateNetworks: false, allowedHosts: [] });
  });

  it('keeps a live SMSC apart from the sandbox one', () => {
    const config = loadConfig({ ...base, SMS_UPSTREAMS: '[{"name":"smsc","host":"smsc.example.net","port":2775,"system_id":"acme","password":"secret"}]' });
    expect(config.live.sms).toEqual([{ name: 'smsc', host: 'smsc.example.net', port: 2775, systemId: 'acme', password: 'secret', priority: 1, weight: 1 }]);
    expect(config.live.chat).toEqual(config.sandbox.chat);
  });

  it('reads several SMSCs with priority and weight from SMS_UPSTREAMS', () => {
    const config = loadConfig({
      ...base,
      SMS_UPSTREAMS: JSON.stringify([
        { name: 'smsc-a', host: 'a.example.net', port: 2775, system_id: 'acme', password: 'pa', priority: 1, weight: 3 },
        { name: 'smsc-b', host: 'b.example.net', port: 2776, system_id: 'acme', password: 'pb', priority: 2 },
      ]),
    });
    expect(config.live.sms).toEqual([
      { name: 'smsc-a', host: 'a.example.net', port: 2775, systemId: 'acme', password: 'pa', priority: 1, weight: 3 },
      { name: 'smsc-b', host: 'b.example.net', port: 2776, systemId: 'acme', password: 'pb', priority: 2, weight: 1 },
    ]);
  });

  it('gives sandbox SMSCs from SANDBOX_SMS_UPSTREAMS the simulator credentials', () => {
    const config = loadConfig({
      ...base,
      SANDBOX_SMS_UPSTREAMS: '[{"name":"sim-a","host":"127.0.0.1","port":2775},{"name":"sim-b","host":"127.0.0.1","port":2785,"priority":2}]',
    });
    expect(config.sandbox.sms.map((u) => [u.name, u.port, u.systemId, u.password, u.priority])).toEqual([
      ['sim-a', 2775, 'switchboard', 'sandbox', 1],
      ['sim-b', 2785, 'switchboard', 'sandbox', 2],
    ]);
  });

  it.each([
    ['not json', /SMS_UPSTREAMS must be a JSON array/],
    ['[]', /SMS_UPSTREAMS must be a non-empty JSON array/],
    ['[{"name":"a","host":"h","port":0}]', /SMS_UPSTREAMS\[0\]\.port must be an integer/],
    ['[{"name":"a","host":"h","port":1,"weight":0}]', /SMS_UPSTREAMS\[0\]\.weight must be an integer/],
    ['[{"name":"a","host":"h","port":1},{"name":"a","host":"h","port":2}]', /SMS_UPSTREAMS\[1\]\.name "a" is used twice/],
    ['[{"name":"a","host":"h","port":1,"prio":1}]', /SMS_UPSTREAMS\[0\]\.prio is not a known field/],
  ])('refuses SMS_UPSTREAMS=%s with a message naming the field', (value, message) => {
    expect(refusal({ SMS_UPSTREAMS: value })).toMatch(message);
  });
});

function adapterSets(config: DispatcherConfig) {
  // These tests never send, so the breaker store is never asked anything.
  const breakers = createUpstreamBreakerStore({ redis: {} as never, prefix: 'test', windowSize: 20 });
  return createAdapterSets({
    sandbox: config.sandbox,
    live: config.live,
    logger: silent,
    breakers,
    policy: BREAKER_POLICY,
    clock: Date.now,
    metrics: createDispatcherMetrics(),
  });
}

describe('adapter sets', () => {
  it('share one SMPP session when live and sandbox name the same SMSC', async () => {
    const config = loadConfig({ ...base, SANDBOX_SMS_UPSTREAMS: sandboxSmsc(1) });
    const sets = adapterSets(config);
    try {
      expect(sets.smsSessions).toHaveLength(1);
      expect(sets.byMode.live).toEqual(sets.byMode.test);
      expect(sets.byMode.live.sms).toBe(sets.byMode.test.sms);
    } finally {
      await Promise.all(sets.smsSessions.map((s) => s.close()));
    }
  });

  it('bind one session per distinct SMSC and list every upstream for the gateway', async () => {
    const config = loadConfig({
      ...base,
      SANDBOX_SMS_UPSTREAMS: '[{"name":"sim-a","host":"127.0.0.1","port":1},{"name":"sim-b","host":"127.0.0.1","port":2,"priority":2}]',
    });
    const sets = adapterSets(config);
    try {
      expect(sets.smsSessions).toHaveLength(2);
      expect(sets.breakerNames).toEqual([
        { channel: 'chat', name: 'sandbox-chat' },
        { channel: 'rcs', name: 'sandbox-rbm' },
        { channel: 'sms', name: 'sim-a' },
        { channel: 'sms', name: 'sim-b' },
      ]);
      expect(sets.descriptions).toContainEqual({ name: 'sim-b', channel: 'sms', mode: 'test', priority: 2, weight: 1 });
    } finally {
      await Promise.all(sets.smsSessions.map((s) => s.close()));
    }
  });

  it('bind a second session only for a different live SMSC', async () => {
    const config = loadConfig({ ...base, SANDBOX_SMS_UPSTREAMS: sandboxSmsc(1), SMS_UPSTREAMS: '[{"name":"smsc","host":"127.0.0.1","port":2}]' });
    const sets = adapterSets(config);
    try {
      expect(sets.smsSessions).toHaveLength(2);
      expect(sets.byMode.live.chat).toBe(sets.byMode.test.chat);
      expect(sets.byMode.live.sms).not.toBe(sets.byMode.test.sms);
    } finally {
      await Promise.all(sets.smsSessions.map((s) => s.close()));
    }
  });
});

describe('SENDER_RATE_SMS_PER_SECOND', () => {
  it('is a rate or a rate per bind, and anything else is named', () => {
    expect(parseSmsSenderRate('30', 4)).toBe(30);
    expect(parseSmsSenderRate('30 / bind', 4)).toBe(120);
    expect(() => parseSmsSenderRate('30/smsc', 4)).toThrow('neither a rate nor a rate per bind');
  });
});
