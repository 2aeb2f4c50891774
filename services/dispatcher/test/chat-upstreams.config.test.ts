import { createUpstreamBreakerStore } from '@switchboard/shared-state';
import { loadConfig } from '../src/config';
import { createDispatcherMetrics } from '../src/metrics';
import { createAdapterSets } from '../src/upstreams/adapter-sets';
import { BREAKER_POLICY } from '../src/upstreams/circuit-breaker';

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const base = { DATABASE_URL: 'postgres://localhost/x' };

/** Runs loadConfig expecting it to refuse the environment, and returns what it wrote to stderr. */
function refusal(env: Record<string, string>): string {
  const exit = jest.spyOn(process, 'exit').mockImplementation((() => {
    throw new Error('exit');
  }) as never);
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    expect(() => loadConfig({ ...base, ...env })).toThrow('exit');
    return stderr.mock.calls.map((c) => String(c[0])).join('');
  } finally {
    exit.mockRestore();
    stderr.mockRestore();
  }
}

describe('chat upstream lists', () => {
  it('reads several Cloud API upstreams with priority and weight from CHAT_UPSTREAMS', () => {
    const config = loadConfig({
      ...base,
      CHAT_UPSTREAMS: JSON.stringify([
        { name: 'meta-a', base_url: 'https://graph.facebook.com', access_token: 'ta', waba_id: '111', priority: 1, weight: 3 },
        { name: 'bsp-b', base_url: 'https://bsp.example.net', access_token: 'tb', waba_id: '222', priority: 2 },
      ]),
    });
    expect(config.live.chat).toEqual([
      { name: 'meta-a', baseUrl: 'https://graph.facebook.com', accessToken: 'ta', wabaId: '111', priority: 1, weight: 3, senderRate: 80 },
      { name: 'bsp-b', baseUrl: 'https://bsp.example.net', accessToken: 'tb', wabaId: '222', priority: 2, weight: 1, senderRate: 80 },
    ]);
    expect(config.sandbox.chat.map((u) => u.name)).toEqual(['sandbox-chat']);
  });

  it('gives sandbox chat upstreams from SANDBOX_UPSTREAMS the simulator credentials', () => {
    const config = loadConfig({
      ...base,
      SANDBOX_UPSTREAMS:
        '{"chat":[{"name":"sim-a","base_url":"http://127.0.0.1:8090"},{"name":"sim-b","base_url":"http://127.0.0.1:8091","priority":2,"access_token":"x"}]}',
    });
    expect(config.sandbox.chat.map((u) => [u.name, u.baseUrl, u.accessToken, u.wabaId, u.priority])).toEqual([
      ['sim-a', 'http://127.0.0.1:8090', 'sandbox-chat-token', '100000000000001', 1],
      ['sim-b', 'http://127.0.0.1:8091', 'sandbox-chat-token', '100000000000001', 2],
    ]);
    expect(config.live.chat).toEqual(config.sandbox.chat);
  });

  it.each([
    ['not json', /CHAT_UPSTREAMS must be a JSON array/],
    ['[]', /CHAT_UPSTREAMS must be a non-empty JSON array/],
    ['[{"name":"a","base_url":"ftp://x"}]', /CHAT_UPSTREAMS\[0\]\.base_url must be an http\(s\) URL/],
    ['[{"name":"a","base_url":"https://x","access_token":""}]', /CHAT_UPSTREAMS\[0\]\.access_token must be a non-empty string/],
    ['[{"name":"a","base_url":"https://x","waba_id":"abc"}]', /CHAT_UPSTREAMS\[0\]\.waba_id must be a string of digits/],
    ['[{"name":"a","base_url":"https://x","priority":-1}]', /CHAT_UPSTREAMS\[0\]\.priority must be an integer/],
    ['[{"name":"A!","base_url":"https://x"}]', /CHAT_UPSTREAMS\[0\]\.name must match/],
    ['[{"name":"a","base_url":"https://x"},{"name":"a","base_url":"https://y"}]', /CHAT_UPSTREAMS\[1\]\.name "a" is used twice/],
    ['[{"name":"a","base_url":"https://x","token":"t"}]', /CHAT_UPSTREAMS\[0\]\.token is not a known field/],
  ])('refuses CHAT_UPSTREAMS=%s with a message naming the field', (value, message) => {
    expect(refusal({ CHAT_UPSTREAMS: value })).toMatch(message);
  });

  it('reports one problem per bad field of an entry', () => {
    const text = refusal({ CHAT_UPSTREAMS: '[{"name":"a","base_url":1,"waba_id":"x","weight":0}]' });
    expect(text).toMatch(/CHAT_UPSTREAMS\[0\]\.base_url/);
    expect(text).toMatch(/CHAT_UPSTREAMS\[0\]\.waba_id/);
    expect(text).toMatch(/CHAT_UPSTREAMS\[0\]\.weight/);
  });

  it('refuses the retired single-upstream variables, naming the list', () => {
    expect(refusal({ CHAT_UPSTREAMS: '[{"name":"a","base_url":"https://x"}]', CHAT_ACCESS_TOKEN: 't' })).toMatch(
      /CHAT_ACCESS_TOKEN is no longer read; use CHAT_UPSTREAMS/,
    );
  });

  it('refuses one name for an SMSC and a chat upstream, since names key the breakers', () => {
    expect(refusal({ SANDBOX_UPSTREAMS: '{"chat":[{"name":"sandbox-smsc","base_url":"http://x"}]}' })).toMatch(
      /"sandbox-smsc" is used by both an SMSC and a chat upstream/,
    );
  });

  it('lists chat upstreams for GET /v1/upstreams and the breaker gauges', async () => {
    const config = loadConfig({
      ...base,
      SANDBOX_UPSTREAMS: '{"chat":[{"name":"sim-a","base_url":"http://127.0.0.1:1"},{"name":"sim-b","base_url":"http://127.0.0.1:2","priority":2}]}',
    });
    const breakers = createUpstreamBreakerStore({ redis: {} as never, prefix: 'test', windowSize: 20 });
    const sets = createAdapterSets({
      sandbox: config.sandbox,
      live: config.live,
      logger: silent,
      breakers,
      policy: BREAKER_POLICY,
      clock: Date.now,
      metrics: createDispatcherMetrics(),
    });
    try {
      expect(sets.descriptions).toContainEqual({ name: 'sim-b', channel: 'chat', mode: 'test', priority: 2, weight: 1 });
      expect(sets.descriptions).toContainEqual({ name: 'sim-a', channel: 'chat', mode: 'live', priority: 1, weight: 1 });
      expect(sets.breakerNames).toEqual(
        expect.arrayContaining([
          { channel: 'chat', name: 'sim-a' },
          { channel: 'chat', name: 'sim-b' },
        ]),
      );
      expect(sets.byMode.live.chat).toBe(sets.byMode.test.chat);
    } finally {
      await Promise.all(sets.smsSessions.map((s) => s.close()));
    }
  });
});
