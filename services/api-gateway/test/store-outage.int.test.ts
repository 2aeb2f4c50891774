import { eventually, LOCAL_POSTGRES_URL } from '@switchboard/devstack';
import { problemOf, startGatewayHarness, textMessage, type GatewayHarness } from './support/gateway-harness';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy';

// Authentication never hides an outage (docs/errors.md, 503): while the store cannot be reached, a key
// cannot be checked, which is 503 `unavailable`, never 401. The gateway reaches PostgreSQL through a
// proxy whose link the test cuts. A failed lookup cached as "no such key" would give 401 during the cut
// (api-key.authenticator.test.ts proves a failure is not remembered at all).
jest.setTimeout(60_000);

let proxy: TcpProxy;
let h: GatewayHarness;

beforeAll(async () => {
  const server = new URL(process.env.TEST_DATABASE_URL ?? LOCAL_POSTGRES_URL);
  proxy = await startTcpProxy(server.hostname, Number(server.port || 5432));
  h = await startGatewayHarness({}, undefined, {
    gatewayDatabaseUrl: (url) => {
      const viaProxy = new URL(url);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      return viaProxy.toString();
    },
  });
});

afterAll(async () => {
  proxy?.restore();
  await h?.close();
  await proxy?.close();
});

async function expectUnavailable(res: Response): Promise<void> {
  const problem = await problemOf(res);
  expect(problem).toMatchObject({ status: 503, body: { code: 'unavailable', type: '/errors/unavailable' } });
  expect(problem.contentType).toMatch(/^application\/problem\+json/);
}

describe('the store unreachable while authenticating', () => {
  it('answers 503, not 401, for keys it cannot check, and accepts them once the store is back', async () => {
    const known = await h.key({ mode: 'test' });
    const unseen = await h.key({ mode: 'test' });
    const unknownKey = 'sk_test_0123456789abcdefghijABCDEFGHIJ';
    expect((await h.request('/v1/messages', { key: known.key, json: textMessage() })).status).toBe(202);
    await expectUnauthorizedNow(unknownKey);

    proxy.cut();
    // Neither a key never looked up nor one the store has never held can be judged now.
    await expectUnavailable(await h.request('/v1/messages', { key: unseen.key, json: textMessage() }));
    await expectUnavailable(await h.request('/v1/messages', { key: unseen.key }));
    await expectUnavailable(await h.request('/v1/webhooks', { key: unseen.key }));
    await expectUnavailable(await h.request('/v1/messages/msg_01M830NRVQG7JH2MJ0JXDCTT8S', { key: 'sk_live_9876543210abcdefghijABCDEFGHIJ' }));
    expect((await h.request('/readyz')).status).toBe(503);

    proxy.restore();
    const back = await eventually(
      () => h.request('/v1/messages', { key: unseen.key, json: textMessage() }),
      (res) => res.status !== 503,
      { timeoutMs: 20_000, what: 'the gateway to reach the store again' },
    );
    expect(back.status).toBe(202);
    expect((await h.request('/v1/messages', { key: unseen.key })).status).toBe(200);
    await expectUnauthorizedNow('sk_live_9876543210abcdefghijABCDEFGHIJ');
  });
});

async function expectUnauthorizedNow(key: string): Promise<void> {
  expect((await problemOf(await h.request('/v1/messages', { key, json: textMessage() }))).status).toBe(401);
}
