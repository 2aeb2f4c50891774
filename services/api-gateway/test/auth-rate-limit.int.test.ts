import { randomUUID } from 'node:crypto';
import { eventually } from '@switchboard/devstack';
import { createApiKeysRepository, createDb } from '@switchboard/store';
import { problemOf, startGatewayHarness, textMessage, type GatewayHarness } from './support/gateway-harness';

let h: GatewayHarness;

beforeAll(async () => {
  h = await startGatewayHarness();
});

afterAll(async () => {
  await h?.close();
});

async function expectUnauthorized(res: Response): Promise<void> {
  const problem = await problemOf(res);
  expect(problem).toMatchObject({ status: 401, body: { code: 'unauthorized', type: '/errors/unauthorized' } });
  expect(res.headers.get('www-authenticate')).toBe('Bearer');
  expect(problem.contentType).toMatch(/^application\/problem\+json/);
}

describe('authentication (docs/authentication.md)', () => {
  it('answers 401 with WWW-Authenticate for a missing, malformed or unknown key', async () => {
    await expectUnauthorized(await h.request('/v1/messages', { json: textMessage() }));
    for (const authorization of [
      'sk_test_abcdefghijklmnopqrstuvwxyz',
      'Basic dXNlcjpwYXNz',
      'Bearer',
      'Bearer sk_prod_abcdefghijklmnop',
      'Bearer sk_test_short',
    ]) {
      await expectUnauthorized(await h.request('/v1/messages', { headers: { authorization }, json: textMessage() }));
    }
    await expectUnauthorized(await h.request('/v1/messages', { key: 'sk_live_0123456789abcdefghijABCDEFGHIJ', json: textMessage() }));
    await expectUnauthorized(await h.request('/v1/messages/msg_01M830NRVQG7JH2MJ0JXDCTT8S', { key: 'sk_test_0123456789abcdefghijABCDEFGHIJ' }));
  });

  it('stops accepting a revoked key within about a second', async () => {
    const { key, keyId } = await h.key({ mode: 'test' });
    expect((await h.request('/v1/messages', { key, json: textMessage() })).status).toBe(202);
    const db = createDb({ url: h.database.url, poolSize: 1 });
    try {
      await createApiKeysRepository(db).revoke(keyId);
    } finally {
      await db.close();
    }
    const res = await eventually(
      () => h.request('/v1/messages', { key, json: textMessage() }),
      (r) => r.status === 401,
      { timeoutMs: 5_000, intervalMs: 100, what: 'revocation to take effect' },
    );
    await expectUnauthorized(res);
  });

  it('answers 403 insufficient_scope when the key lacks the route’s scope', async () => {
    const readOnly = (await h.key({ mode: 'test', scopes: ['messages:read'] })).key;
    const writeOnly = (await h.key({ mode: 'test', scopes: ['messages:write'] })).key;
    const denied = await problemOf(await h.request('/v1/messages', { key: readOnly, json: textMessage() }));
    expect(denied).toMatchObject({ status: 403, body: { code: 'insufficient_scope' } });
    expect((await h.request('/v1/messages', { key: readOnly })).status).toBe(200);
    const accepted = (await (await h.request('/v1/messages', { key: writeOnly, json: textMessage() })).json()) as { id: string };
    expect((await problemOf(await h.request(`/v1/messages/${accepted.id}`, { key: writeOnly }))).status).toBe(403);
    expect((await problemOf(await h.request('/v1/messages', { key: writeOnly }))).body.code).toBe('insufficient_scope');
  });
});

describe('rate limits (docs/conventions.md#rate-limits)', () => {
  it('sends the RateLimit headers on every authenticated answer', async () => {
    const { key } = await h.key({ mode: 'test', rateLimitPerSecond: 50 });
    for (const res of [
      await h.request('/v1/messages', { key, json: textMessage() }),
      await h.request('/v1/messages', { key }),
      await h.request('/v1/messages/nope', { key }),
    ]) {
      expect(res.headers.get('ratelimit-policy')).toBe('"default";q=50;w=1');
      expect(res.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=1$/);
    }
  });

  it('answers 429 rate_limited with Retry-After once the key’s quota is spent', async () => {
    const { key } = await h.key({ mode: 'test', rateLimitPerSecond: 2 });
    const answers = await Promise.all(Array.from({ length: 12 }, () => h.request('/v1/messages', { key })));
    const limited = answers.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(answers.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    const problem = await problemOf(limited[0]);
    expect(problem.body).toMatchObject({ status: 429, code: 'rate_limited', type: '/errors/rate_limited' });
    expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited[0].headers.get('ratelimit')).toMatch(/^"default";r=0;t=\d+$/);
    expect(limited[0].headers.get('ratelimit-policy')).toBe('"default";q=2;w=1');
  });

  it('queues nothing and reserves no Idempotency-Key for a message over the limit', async () => {
    const { key } = await h.key({ mode: 'test', rateLimitPerSecond: 3 });
    const keys = Array.from({ length: 12 }, () => randomUUID());
    const before = await h.messageQueue.getJobCountByTypes('waiting', 'prioritized', 'delayed', 'active');
    const answers = await Promise.all(keys.map((k) => h.request('/v1/messages', { key, headers: { 'idempotency-key': k }, json: textMessage() })));
    const accepted = answers.filter((r) => r.status === 202).length;
    expect(answers.every((r) => r.status === 202 || r.status === 429)).toBe(true);
    // At most the quota in any second; the bound allows for a burst that takes longer than a second to send.
    expect(accepted).toBeLessThanOrEqual(6);
    expect(answers.length - accepted).toBeGreaterThan(0);
    expect((await h.messageQueue.getJobCountByTypes('waiting', 'prioritized', 'delayed', 'active')) - before).toBe(accepted);
    // A limited request left its key free: the same key is accepted once the window has passed.
    const limitedKey = keys[answers.findIndex((r) => r.status === 429)];
    const retried = await eventually(
      () => h.request('/v1/messages', { key, headers: { 'idempotency-key': limitedKey }, json: textMessage() }),
      (r) => r.status !== 429,
      { timeoutMs: 5_000, what: 'a slot to free in the rate-limit window' },
    );
    expect(retried.status).toBe(202);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });

  it('answers 429 before judging the body of a request over the limit', async () => {
    const { key } = await h.key({ mode: 'test', rateLimitPerSecond: 1 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => h.request('/v1/messages', { key, json: { channel: 'pigeon' } })));
    const invalid = answers.filter((r) => r.status === 400).length;
    // Only the requests within the quota (one per second; a slow burst may span two) get judged on their body.
    expect(invalid).toBeGreaterThanOrEqual(1);
    expect(invalid).toBeLessThanOrEqual(2);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(answers.length - invalid);
    for (const res of answers) expect(res.headers.get('ratelimit-policy')).toBe('"default";q=1;w=1');
  });

  it('answers 429 before judging the body or the key of a request with an Idempotency-Key over the limit', async () => {
    const { key } = await h.key({ mode: 'test', rateLimitPerSecond: 1 });
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        h.request('/v1/messages', { key, headers: { 'idempotency-key': i % 2 ? randomUUID() : 'not-a-uuid' }, json: { channel: 'pigeon' } }),
      ),
    );
    const invalid = answers.filter((r) => r.status === 400).length;
    expect(invalid).toBeGreaterThanOrEqual(1);
    expect(invalid).toBeLessThanOrEqual(2);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(answers.length - invalid);
    for (const res of answers) expect(res.headers.get('ratelimit-policy')).toBe('"default";q=1;w=1');
    for (const res of answers.filter((r) => r.status === 429)) expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('uses RATE_LIMIT_PER_SECOND for keys without their own limit', async () => {
    const { key } = await h.key({ mode: 'test' });
    expect((await h.request('/v1/messages', { key })).headers.get('ratelimit-policy')).toBe('"default";q=1000;w=1');
  });
});
