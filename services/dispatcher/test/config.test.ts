import { createUpstreamBreakerStore } from '@switchboard/shared-state';
import { loadConfig, type DispatcherConfig } from '../src/config';
import { createDispatcherMetrics } from '../src/metrics';
import { RECEIPT_BATCH_MAX, RECEIPT_BATCH_WAIT_MS } from '../src/processors/receipt-batcher';
import { createAdapterSets } from '../src/upstreams/adapter-sets';
import { BREAKER_POLICY } from '../src/upstreams/circuit-breaker';
import { smsSenderRate } from '../src/upstreams/sms-upstreams.config';

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const base = { DATABASE_URL: 'postgres://localhost/x' };
const sandbox = (lists: Record<string, unknown>) => JSON.stringify(lists);
const sandboxSmsc = (port: number) => sandbox({ sms: [{ name: 'sandbox-smsc', host: '127.0.0.1', port }] });

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
  it('reads binds and window of each SMSC, and scales its sender rate by its binds only when told it is per bind', () => {
    expect(loadConfig(base).sandbox.sms).toMatchObject([{ binds: 1, window: 10, senderRate: 0 }]);
    expect({ RECEIPT_BATCH_MAX, RECEIPT_BATCH_WAIT_MS }).toEqual({ RECEIPT_BATCH_MAX: 100, RECEIPT_BATCH_WAIT_MS: 2 });
    const config = loadConfig({
      ...base,
      SMS_UPSTREAMS: JSON.stringify([
        { name: 'smsc-a', host: 'a.example.net', port: 2775, binds: 4, window: 50, sender_rate: 30 },
        { name: 'smsc-b', host: 'b.example.net', port: 2775, binds: 4, sender_rate: '30/bind' },
        { name: 'smsc-c', host: 'c.example.net', port: 2775, sender_rate: '25' },
      ]),
    });
    expect(config.live.sms.map((u) => [u.name, u.binds, u.window, u.senderRate])).toEqual([
      ['smsc-a', 4, 50, 30],
      ['smsc-b', 4, 10, 120],
      ['smsc-c', 1, 10, 25],
    ]);
    expect(
      loadConfig({ ...base, SANDBOX_UPSTREAMS: sandbox({ sms: [{ name: 'sim', host: '127.0.0.1', port: 2775, binds: 2, sender_rate: '5/bind' }] }) }).sandbox
        .sms,
    ).toMatchObject([{ binds: 2, senderRate: 10, systemId: 'switchboard' }]);
  });

  it('gives chat upstreams 80 messages per second per sender unless told, and RBM upstreams no limit', () => {
    const config = loadConfig(base);
    expect(config.sandbox.chat.map((u) => u.senderRate)).toEqual([80]);
    expect(config.sandbox.rcs.map((u) => u.senderRate)).toEqual([0]);
    const rated = loadConfig({
      ...base,
      CHAT_UPSTREAMS: '[{"name":"meta","base_url":"https://graph.example","sender_rate":250}]',
      RCS_UPSTREAMS: '[{"name":"rbm","base_url":"https://rbm.example","sender_rate":20}]',
    });
    expect([rated.live.chat[0].senderRate, rated.live.rcs[0].senderRate]).toEqual([250, 20]);
  });

  it.each([
    [{ SMS_UPSTREAMS: '[{"name":"a","host":"h","port":1,"binds":0}]' }, /SMS_UPSTREAMS\[0\]\.binds must be an integer from 1 to 64/],
    [{ SMS_UPSTREAMS: '[{"name":"a","host":"h","port":1,"window":1001}]' }, /SMS_UPSTREAMS\[0\]\.window must be an integer from 1 to 1000/],
    [
      { SMS_UPSTREAMS: '[{"name":"a","host":"h","port":1,"sender_rate":"30/smsc"}]' },
      /SMS_UPSTREAMS\[0\]\.sender_rate must be a rate such as 30 or a rate per bind/,
    ],
    [{ SMS_UPSTREAMS: '[{"name":"a","host":"h","port":1,"sender_rate":-1}]' }, /SMS_UPSTREAMS\[0\]\.sender_rate must be/],
    [{ CHAT_UPSTREAMS: '[{"name":"a","base_url":"https://x","sender_rate":"80"}]' }, /CHAT_UPSTREAMS\[0\]\.sender_rate must be an integer from 0/],
    [{ RCS_UPSTREAMS: '[{"name":"a","base_url":"https://x","sender_rate":1.5}]' }, /RCS_UPSTREAMS\[0\]\.sender_rate must be an integer from 0/],
    [
      { SANDBOX_UPSTREAMS: sandbox({ sms: [{ name: 'a', host: 'h', port: 1, binds: 65 }] }) },
      /SANDBOX_UPSTREAMS\.sms\[0\]\.binds must be an integer from 1 to 64/,
    ],
  ])('names a bad binds, window or sender_rate: %p', (env, message) => {
    expect(refusal(env)).toMatch(message);
  });

  it('refuses a live SMSC named as the sandbox one whose binds or rate differ, as one name keys one session and schedule', () => {
    const smsc = { name: 'sandbox-smsc', host: '127.0.0.1', port: 2775 };
    expect(refusal({ SMS_UPSTREAMS: JSON.stringify([{ ...smsc, binds: 2 }]) })).toMatch(/live SMSC "sandbox-smsc" has the name of a different sandbox SMSC/);
    expect(loadConfig({ ...base, SMS_UPSTREAMS: JSON.stringify([smsc]) }).live.sms).toEqual(loadConfig(base).sandbox.sms);
  });

  it('reads OPT_OUT_REPLIES, each key optional, and names a bad one', () => {
    const defaults = loadConfig(base).optOutReplies;
    expect(defaults.optOut).toMatch(/^You have successfully been unsubscribed/);
    expect(defaults.optIn).toMatch(/^You have successfully been re-subscribed/);
    expect(loadConfig({ ...base, OPT_OUT_REPLIES: '{"stop":"Bye."}' }).optOutReplies).toEqual({ optOut: 'Bye.', optIn: defaults.optIn });
    expect(loadConfig({ ...base, OPT_OUT_REPLIES: '{"stop":"Bye.","start":"Hi."}' }).optOutReplies).toEqual({ optOut: 'Bye.', optIn: 'Hi.' });
    expect(refusal({ OPT_OUT_REPLIES: '{"stop":""}' })).toMatch(/OPT_OUT_REPLIES\.stop must be a non-empty string/);
    expect(refusal({ OPT_OUT_REPLIES: '{"unstop":"x"}' })).toMatch(/OPT_OUT_REPLIES\.unstop is not a known key \(stop, start\)/);
    expect(refusal({ OPT_OUT_REPLIES: '"Bye."' })).toMatch(/OPT_OUT_REPLIES must be a JSON object/);
    expect(refusal({ OPT_OUT_REPLIES: '{stop' })).toMatch(/OPT_OUT_REPLIES must be a JSON object/);
  });

  it('refuses the retired per-channel rates, binds and texts, naming what replaced each', () => {
    const written = refusal({
      SMPP_BINDS: '2',
      SMPP_WINDOW: '20',
      SENDER_RATE_CHAT_PER_SECOND: '80',
      SENDER_RATE_SMS_PER_SECOND: '30/bind',
      SENDER_RATE_RCS_PER_SECOND: '1',
      OPT_OUT_REPLY_TEXT: 'x',
      OPT_IN_REPLY_TEXT: 'y',
      SANDBOX_CHAT_UPSTREAMS: '[]',
      SANDBOX_RCS_UPSTREAMS: '[]',
      SANDBOX_SMS_UPSTREAMS: '[]',
    });
    expect(written).toMatch(/SMPP_BINDS is no longer read; use binds of each SMS_UPSTREAMS entry/);
    expect(written).toMatch(/SMPP_WINDOW is no longer read; use window of each SMS_UPSTREAMS entry/);
    expect(written).toMatch(/SENDER_RATE_CHAT_PER_SECOND is no longer read; use sender_rate of each CHAT_UPSTREAMS entry/);
    expect(written).toMatch(/SENDER_RATE_SMS_PER_SECOND is no longer read; use sender_rate of each SMS_UPSTREAMS entry/);
    expect(written).toMatch(/SENDER_RATE_RCS_PER_SECOND is no longer read; use sender_rate of each RCS_UPSTREAMS entry/);
    expect(written).toMatch(/OPT_OUT_REPLY_TEXT is no longer read; use OPT_OUT_REPLIES/);
    expect(written).toMatch(/OPT_IN_REPLY_TEXT is no longer read; use OPT_OUT_REPLIES/);
    for (const list of ['CHAT', 'RCS', 'SMS']) expect(written).toMatch(new RegExp(`SANDBOX_${list}_UPSTREAMS is no longer read; use SANDBOX_UPSTREAMS`));
  });

  it('reads the sandbox lists from SANDBOX_UPSTREAMS, ignores the voice keys, and names a bad object or key', () => {
    const config = loadConfig({
      ...base,
      SANDBOX_UPSTREAMS: sandbox({ rcs: [{ name: 'sim-rbm', base_url: 'http://127.0.0.1:9998' }], sip: 'sip:127.0.0.1:5070', llm: 'http://127.0.0.1:8090' }),
    });
    expect(config.sandbox.rcs.map((u) => [u.name, u.baseUrl])).toEqual([['sim-rbm', 'http://127.0.0.1:9998']]);
    expect(config.sandbox.chat.map((u) => u.name)).toEqual(['sandbox-chat']);
    expect(config.sandbox.sms.map((u) => [u.name, u.port])).toEqual([['sandbox-smsc', 2775]]);
    expect(refusal({ SANDBOX_UPSTREAMS: '[]' })).toMatch(/SANDBOX_UPSTREAMS must be a JSON object with any of chat, rcs, sms, sip, llm/);
    expect(refusal({ SANDBOX_UPSTREAMS: '{"chat":' })).toMatch(/SANDBOX_UPSTREAMS must be a JSON object/);
    expect(refusal({ SANDBOX_UPSTREAMS: '{"smpp":[]}' })).toMatch(/SANDBOX_UPSTREAMS\.smpp is not a known key/);
    expect(refusal({ SANDBOX_UPSTREAMS: '{"sms":[]}' })).toMatch(/SANDBOX_UPSTREAMS\.sms must be a non-empty JSON array/);
    expect(refusal({ SANDBOX_UPSTREAMS: sandbox({ sms: [{ name: 'a', host: 'h', port: 0 }] }) })).toMatch(
      /SANDBOX_UPSTREAMS\.sms\[0\]\.port must be an integer from 1 to 65535/,
    );
  });

  it('defaults every live upstream to its sandbox counterpart', () => {
    const config = loadConfig({
      ...base,
      SANDBOX_UPSTREAMS: sandbox({
        chat: [{ name: 'sandbox-chat', base_url: 'http://127.0.0.1:9999', access_token: 'ignored' }],
        sms: [{ name: 'sandbox-smsc', host: '127.0.0.1', port: 2776 }],
      }),
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
      { name: 'rbm-eu', baseUrl: 'https://eu.rbm.example', accessToken: 't1', agentId: 'agent-eu', priority: 1, weight: 1, senderRate: 0 },
      {
        name: 'rbm-us',
        baseUrl: 'https://us.rbm.example',
        accessToken: 'sandbox-rbm-token',
        agentId: 'switchboard-sandbox',
        priority: 2,
        weight: 1,
        senderRate: 0,
      },
    ]);
    expect(refusal({ SANDBOX_UPSTREAMS: '{"rcs":[{"name":"x","base_url":"ftp://x"}]}' })).toMatch(
      /SANDBOX_UPSTREAMS\.rcs\[0\]\.base_url must be an http\(s\) URL/,
    );
  });

  it('refuses the retired single-upstream variables, naming the list that replaced each, all at once', () => {
    const written = refusal({ RBM_AGENT_ID: 'a', SMPP_HOST: 'smsc.example.net', SANDBOX_SMPP_PORT: '2776', HEALTH_PORT: '0', CHAT_MEDIA_ALLOW_HTTP: 'true' });
    expect(written).toMatch(/RBM_AGENT_ID is no longer read; use RCS_UPSTREAMS/);
    expect(written).toMatch(/SMPP_HOST is no longer read; use SMS_UPSTREAMS/);
    expect(written).toMatch(/SANDBOX_SMPP_PORT is no longer read; use SANDBOX_UPSTREAMS, its sms list/);
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
    expect(config.live.sms).toEqual([
      { name: 'smsc', host: 'smsc.example.net', port: 2775, systemId: 'acme', password: 'secret', priority: 1, weight: 1, binds: 1, window: 10, senderRate: 0 },
    ]);
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
      { name: 'smsc-a', host: 'a.example.net', port: 2775, systemId: 'acme', password: 'pa', priority: 1, weight: 3, binds: 1, window: 10, senderRate: 0 },
      { name: 'smsc-b', host: 'b.example.net', port: 2776, systemId: 'acme', password: 'pb', priority: 2, weight: 1, binds: 1, window: 10, senderRate: 0 },
    ]);
  });

  it('gives sandbox SMSCs from SANDBOX_UPSTREAMS the simulator credentials', () => {
    const config = loadConfig({
      ...base,
      SANDBOX_UPSTREAMS: '{"sms":[{"name":"sim-a","host":"127.0.0.1","port":2775},{"name":"sim-b","host":"127.0.0.1","port":2785,"priority":2}]}',
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
    const config = loadConfig({ ...base, SANDBOX_UPSTREAMS: sandboxSmsc(1) });
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
      SANDBOX_UPSTREAMS: '{"sms":[{"name":"sim-a","host":"127.0.0.1","port":1},{"name":"sim-b","host":"127.0.0.1","port":2,"priority":2}]}',
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
    const config = loadConfig({ ...base, SANDBOX_UPSTREAMS: sandboxSmsc(1), SMS_UPSTREAMS: '[{"name":"smsc","host":"127.0.0.1","port":2}]' });
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

describe('an SMSC sender_rate', () => {
  it('is a rate or a rate per bind, and anything else is undefined', () => {
    expect(smsSenderRate(30, 4)).toBe(30);
    expect(smsSenderRate('30', 4)).toBe(30);
    expect(smsSenderRate('30 / bind', 4)).toBe(120);
    expect(smsSenderRate('30/smsc', 4)).toBeUndefined();
    expect(smsSenderRate(true, 4)).toBeUndefined();
  });
});

describe('sender schedules', () => {
  it('keep one bucket per channel at the lowest rate its upstreams grant, none where none sets one', async () => {
    const config = loadConfig({
      ...base,
      SMS_UPSTREAMS: JSON.stringify([
        { name: 'smsc-a', host: '127.0.0.1', port: 1, binds: 2, sender_rate: '30/bind' },
        { name: 'smsc-b', host: '127.0.0.1', port: 2, sender_rate: 40, priority: 2 },
        { name: 'smsc-c', host: '127.0.0.1', port: 3, priority: 3 },
      ]),
    });
    const sets = adapterSets(config);
    try {
      expect(sets.senderSchedules.live.sms).toEqual({ upstream: 'smsc-a+smsc-b+smsc-c', rate: 40 });
      expect(sets.senderSchedules.test).toEqual({
        chat: { upstream: 'sandbox-chat', rate: 80 },
        rcs: { upstream: 'sandbox-rbm', rate: 0 },
        sms: { upstream: 'sandbox-smsc', rate: 0 },
      });
    } finally {
      await Promise.all(sets.smsSessions.map((s) => s.close()));
    }
  });
});
