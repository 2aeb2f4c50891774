import { loadConfig } from '../src/config';
import { createAdapterSets } from '../src/upstreams/adapter-sets';

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const base = { DATABASE_URL: 'postgres://localhost/x' };

describe('dispatcher config', () => {
  it('defaults every live upstream to its sandbox counterpart', () => {
    const config = loadConfig({ ...base, SANDBOX_CHAT_API_BASE_URL: 'http://127.0.0.1:9999', SANDBOX_SMPP_PORT: '2776' });
    expect(config.live).toEqual(config.sandbox);
    expect(config.sandbox).toMatchObject({
      chat: { baseUrl: 'http://127.0.0.1:9999', accessToken: 'sandbox-chat-token', wabaId: '100000000000001' },
      rcs: { baseUrl: 'http://127.0.0.1:8090', accessToken: 'sandbox-rbm-token', agentId: 'switchboard-sandbox' },
      smpp: { host: '127.0.0.1', port: 2776, systemId: 'switchboard', password: 'sandbox' },
    });
  });

  it('reads the documented tuning variables', () => {
    const config = loadConfig({ ...base, DISPATCH_CONCURRENCY: '16', RECONCILE_TIMEOUT_MS: '3000', STALLED_INTERVAL_MS: '2000', LOCK_DURATION_MS: '2500', HEALTH_PORT: '0' });
    expect(config).toMatchObject({ concurrency: 16, reconcileTimeoutMs: 3000, stalledIntervalMs: 2000, lockDurationMs: 2500, healthPort: 0 });
  });

  it('keeps a live SMSC apart from the sandbox one', () => {
    const config = loadConfig({ ...base, SMPP_HOST: 'smsc.example.net', SMPP_SYSTEM_ID: 'acme', SMPP_PASSWORD: 'secret' });
    expect(config.live.smpp).toEqual({ host: 'smsc.example.net', port: 2775, systemId: 'acme', password: 'secret' });
    expect(config.live.chat).toEqual(config.sandbox.chat);
  });
});

describe('adapter sets', () => {
  it('share one SMPP session when live and sandbox name the same SMSC', async () => {
    const config = loadConfig({ ...base, SANDBOX_SMPP_PORT: '1' });
    const sets = createAdapterSets({ sandbox: config.sandbox, live: config.live, logger: silent });
    try {
      expect(sets.smsSessions).toHaveLength(1);
      expect(sets.byMode.live).toEqual(sets.byMode.test);
      expect(sets.byMode.live.sms).toBe(sets.byMode.test.sms);
    } finally {
      await Promise.all(sets.smsSessions.map((s) => s.close()));
    }
  });

  it('bind a second session only for a different live SMSC', async () => {
    const config = loadConfig({ ...base, SANDBOX_SMPP_PORT: '1', SMPP_PORT: '2' });
    const sets = createAdapterSets({ sandbox: config.sandbox, live: config.live, logger: silent });
    try {
      expect(sets.smsSessions).toHaveLength(2);
      expect(sets.byMode.live.chat).toBe(sets.byMode.test.chat);
      expect(sets.byMode.live.sms).not.toBe(sets.byMode.test.sms);
    } finally {
      await Promise.all(sets.smsSessions.map((s) => s.close()));
    }
  });
});
