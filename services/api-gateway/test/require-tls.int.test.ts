import { problemOf, startGatewayHarness, type GatewayHarness } from './support/gateway-harness';

// REQUIRE_TLS behind a TLS-terminating proxy (docs/configuration.md#tls-and-proxies): the proxy's
// X-Forwarded-Proto counts only when TRUST_PROXY trusts the peer; the probes stay on plain HTTP.
jest.setTimeout(60_000);

describe('with TRUST_PROXY=loopback', () => {
  let h: GatewayHarness;
  let key: string;

  beforeAll(async () => {
    h = await startGatewayHarness({ REQUIRE_TLS: 'true', TRUST_PROXY: 'loopback' });
    key = (await h.key({ mode: 'test', scopes: ['*'] })).key;
  });

  afterAll(async () => {
    await h?.close();
  });

  test('a request the proxy received over http gets 403 tls_required', async () => {
    const res = await h.request('/v1/messages', { key, headers: { 'x-forwarded-proto': 'http' } });
    const problem = await problemOf(res);
    expect(problem.status).toBe(403);
    expect(problem.contentType).toMatch(/^application\/problem\+json/);
    expect(problem.body).toMatchObject({ code: 'tls_required', status: 403 });
  });

  test('a request without X-Forwarded-Proto is plain http and refused', async () => {
    const res = await h.request('/v1/messages', { key });
    expect((await problemOf(res)).body.code).toBe('tls_required');
  });

  test('X-Forwarded-Proto https from the trusted proxy is let through', async () => {
    const res = await h.request('/v1/messages', { key, headers: { 'x-forwarded-proto': 'https' } });
    expect(res.status).toBe(200);
  });

  test('Bull Board, whose login is an admin key, is refused over plain http', async () => {
    const res = await h.request('/admin/queues', { key, headers: { 'x-forwarded-proto': 'http' } });
    expect((await problemOf(res)).body).toMatchObject({ code: 'tls_required', status: 403 });
  });

  test('health and metrics stay reachable over plain HTTP', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics']) expect((await h.request(path)).status).toBe(200);
  });
});

describe('without TRUST_PROXY', () => {
  let h: GatewayHarness;

  beforeAll(async () => {
    h = await startGatewayHarness({ REQUIRE_TLS: 'true' });
  });

  afterAll(async () => {
    await h?.close();
  });

  test('X-Forwarded-Proto https from an untrusted peer is ignored', async () => {
    const res = await h.request('/v1/messages', { headers: { 'x-forwarded-proto': 'https' } });
    expect((await problemOf(res)).body).toMatchObject({ code: 'tls_required', status: 403 });
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });
});
