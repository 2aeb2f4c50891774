import { SANDBOX_WINDOW_ACCOUNT } from '@switchboard/domain';
import { customerWindowCacheKey } from '@switchboard/shared-state';
import { createDb, createMessageWritesRepository } from '@switchboard/store';
import type { SendMessageJob } from '@switchboard/queues';
import { problemOf, startGatewayHarness, textMessage, VALID_RECIPIENT, type GatewayHarness } from './support/gateway-harness';

let h: GatewayHarness;
let testKey: string;

beforeAll(async () => {
  h = await startGatewayHarness({ UNIT_PRICES: 'sms=3,chat=2' });
  testKey = (await h.key({ mode: 'test' })).key;
});

afterAll(async () => {
  await h?.close();
});

describe('POST /v1/messages: acceptance', () => {
  it('answers 202 with exactly the documented fields, a Location, and the job in the queue', async () => {
    const res = await h.request('/v1/messages', { key: testKey, json: textMessage({ metadata: { order: '42' } }) });
    expect(res.status).toBe(202);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['channel', 'cost_units', 'created_at', 'estimated_delivery', 'id', 'recipient', 'status']);
    expect(body).toMatchObject({ status: 'queued', channel: 'sms', recipient: VALID_RECIPIENT, cost_units: 3 });
    expect(body.id).toMatch(/^msg_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(res.headers.get('location')).toBe(`/v1/messages/${String(body.id)}`);
    expect(res.headers.get('x-request-id')).toBeTruthy();

    const job = await h.messageQueue.getJob(body.id as string);
    const data = job?.data as SendMessageJob;
    expect(data).toMatchObject({ message_id: body.id, mode: 'test', plan: ['sms'], senders: { sms: { e164: '+14155550100' } }, metadata: { order: '42' } });
  });

  it('prices SMS by segment and chat per message', async () => {
    const long = await (await h.request('/v1/messages', { key: testKey, json: textMessage({ content: { text: 'a'.repeat(161) } }) })).json();
    expect((long as { cost_units: number }).cost_units).toBe(6);
    // Free-form chat needs the customer's 24 h window; without it `auto` would skip chat (and its price).
    const window = customerWindowCacheKey(h.prefix, { accountId: SANDBOX_WINDOW_ACCOUNT, sender: '+14155550100', customer: VALID_RECIPIENT });
    await h.redis.set(window, 'open', 'PX', 60_000);
    const chat = await (await h.request('/v1/messages', { key: testKey, json: textMessage({ channel: 'auto' }) })).json();
    expect(chat).toMatchObject({ channel: 'auto', cost_units: 2, estimated_delivery: 'within 60 seconds' });
    await h.redis.del(window);
    const closed = await (await h.request('/v1/messages', { key: testKey, json: textMessage({ channel: 'auto' }) })).json();
    expect(closed).toMatchObject({ channel: 'auto', cost_units: 1 });
  });

  it('finds the message right after the 202, while it still waits in the queue', async () => {
    const accepted = (await (await h.request('/v1/messages', { key: testKey, json: textMessage() })).json()) as { id: string; created_at: string };
    const res = await h.request(`/v1/messages/${accepted.id}`, { key: testKey });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: accepted.id, status: 'queued', channel: 'sms', recipient: VALID_RECIPIENT, attempts: [], error: null });
    const events = (await (await h.request(`/v1/messages/${accepted.id}/events`, { key: testKey })).json()) as { data: unknown[] };
    expect(events.data).toEqual([{ sequence: 1, status: 'queued', channel: null, carrier_status_code: null, error_code: null, at: accepted.created_at }]);
  });

  it('answers 404 for another account’s message, malformed ids and unknown ids', async () => {
    const accepted = (await (await h.request('/v1/messages', { key: testKey, json: textMessage() })).json()) as { id: string };
    const other = (await h.key({ mode: 'test' })).key;
    for (const path of [
      `/v1/messages/${accepted.id}`,
      `/v1/messages/${accepted.id}/events`,
      '/v1/messages/msg_00000000000000000000000000',
      '/v1/messages/not-an-id',
      '/v1/messages/%E0%A4%A',
      `/v1/messages/${accepted.id.toLowerCase()}`,
    ]) {
      const problem = await problemOf(await h.request(path, { key: other }));
      expect({ path, status: problem.status, code: problem.body.code }).toEqual({ path, status: 404, code: 'not_found' });
      expect(problem.contentType).toMatch(/^application\/problem\+json/);
    }
  });
});

describe('POST /v1/messages: refusals', () => {
  it.each<[string, Record<string, unknown>, number, string, string]>([
    ['missing recipient', { channel: 'sms', content: { text: 'x' } }, 400, 'validation_failed', '/recipient'],
    ['unknown property', textMessage({ priority: 'high' }), 400, 'validation_failed', '/priority'],
    ['invalid number', textMessage({ recipient: '+1415555267' }), 400, 'validation_failed', '/recipient'],
    ['fallback without auto', textMessage({ fallback: ['sms'] }), 400, 'validation_failed', '/fallback'],
    [
      'deep template field',
      {
        channel: 'chat',
        recipient: VALID_RECIPIENT,
        template: { name: 'otp', language: 'en', components: [{ type: 'body', parameters: [{ type: 'text' }] }] },
      },
      400,
      'validation_failed',
      '/template/components/0/parameters/0/text',
    ],
    ['neither content nor template', { channel: 'sms', recipient: VALID_RECIPIENT }, 422, 'content_or_template_required', '/content'],
    [
      'chat payload on sms',
      textMessage({ content: { type: 'location', location: { latitude: 1, longitude: 2 } } }),
      422,
      'content_not_supported_on_channel',
      '/content/type',
    ],
    ['http callback', textMessage({ callback_url: 'http://example.com/hook' }), 422, 'webhook_url_not_allowed', '/callback_url'],
    ['metadata callback', textMessage({ callback_url: 'https://169.254.169.254/' }), 422, 'webhook_url_not_allowed', '/callback_url'],
    ['from not provisioned', textMessage({ from: '+14155550199' }), 422, 'from_number_not_provisioned', '/from'],
  ])('%s', async (_name, body, status, code, field) => {
    const problem = await problemOf(await h.request('/v1/messages', { key: testKey, json: body }));
    expect(problem.status).toBe(status);
    expect(problem.contentType).toMatch(/^application\/problem\+json/);
    expect(problem.body).toMatchObject({ status, code, type: `/errors/${code}`, request_id: expect.any(String) });
    expect((problem.body.errors as Array<{ field: string }>).map((e) => e.field)).toContain(field);
  });

  it('refuses a live key without a sender, and drops auto channels without one', async () => {
    const bare = (await h.key({ mode: 'live' })).key;
    expect((await problemOf(await h.request('/v1/messages', { key: bare, json: textMessage() }))).body.code).toBe('no_sender_for_channel');
    const smsOnly = (await h.key({ mode: 'live', numbers: [{ e164: '+14155550177', channels: ['sms'] }] })).key;
    expect((await problemOf(await h.request('/v1/messages', { key: smsOnly, json: textMessage({ channel: 'chat' }) }))).body.code).toBe(
      'no_sender_for_channel',
    );
    const res = await h.request('/v1/messages', { key: smsOnly, json: textMessage({ channel: 'auto' }) });
    expect(res.status).toBe(202);
    const job = await h.messageQueue.getJob(((await res.json()) as { id: string }).id);
    expect(job?.data).toMatchObject({ mode: 'live', plan: ['sms'], senders: { sms: { e164: '+14155550177' } } });
  });

  it('answers 415 for a body that is not application/json', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1']) {
      const res = await h.request('/v1/messages', {
        key: testKey,
        method: 'POST',
        headers: { 'content-type': contentType },
        body: JSON.stringify(textMessage()),
      });
      const problem = await problemOf(res);
      expect({ contentType, status: problem.status, code: problem.body.code }).toEqual({ contentType, status: 415, code: 'unsupported_media_type' });
    }
    const none = await problemOf(await h.request('/v1/messages', { key: testKey, method: 'POST', body: new Blob([JSON.stringify(textMessage())]) }));
    expect(none.status).toBe(415);
  });

  it('answers 400 invalid_json for malformed or empty JSON', async () => {
    for (const body of ['{"channel":', '', 'nul', '\u00ff']) {
      const res = await h.request('/v1/messages', { key: testKey, method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const problem = await problemOf(res);
      expect({ body, status: problem.status, code: problem.body.code }).toEqual({ body, status: 400, code: 'invalid_json' });
    }
  });

  it('answers 413 above 256 KiB, and 400 for absurd nesting', async () => {
    const huge = textMessage({ metadata: { pad: 'x'.repeat(300 * 1024) } });
    expect((await problemOf(await h.request('/v1/messages', { key: testKey, json: huge }))).body.code).toBe('payload_too_large');
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const res = await h.request('/v1/messages', { key: testKey, method: 'POST', headers: { 'content-type': 'application/json' }, body: deep });
    expect((await problemOf(res)).body.code).toBe('validation_failed');
  });
});

describe('GET /v1/messages and persisted messages', () => {
  it('lists persisted messages newest first with an opaque cursor, and reads them from the store', async () => {
    const account = await h.key({ mode: 'test' });
    const db = createDb({ url: h.database.url, poolSize: 1 });
    const writes = createMessageWritesRepository(db);
    const ids: string[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const accepted = (await (await h.request('/v1/messages', { key: account.key, json: textMessage() })).json()) as { id: string };
        const job = (await h.messageQueue.getJob(accepted.id))?.data as SendMessageJob;
        await writes.persistAccepted({ ...job, id: job.message_id });
        ids.push(accepted.id);
      }
    } finally {
      await db.close();
    }
    const first = (await (await h.request('/v1/messages?limit=2', { key: account.key })).json()) as { data: Array<{ id: string }>; next_cursor: string };
    expect(first.data.map((m) => m.id)).toEqual([ids[2], ids[1]]);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = (await (await h.request(`/v1/messages?limit=2&cursor=${first.next_cursor}`, { key: account.key })).json()) as {
      data: Array<{ id: string }>;
      next_cursor: string | null;
    };
    expect(second).toMatchObject({ data: [{ id: ids[0] }], next_cursor: null });
    const filtered = (await (await h.request(`/v1/messages?status=delivered&recipient=%2B14155552671`, { key: account.key })).json()) as { data: unknown[] };
    expect(filtered.data).toEqual([]);
    const stored = await (await h.request(`/v1/messages/${ids[0]}`, { key: account.key })).json();
    expect(stored).toMatchObject({ id: ids[0], status: 'queued', channel_used: null });
    const events = (await (await h.request(`/v1/messages/${ids[0]}/events`, { key: account.key })).json()) as { data: Array<{ status: string }> };
    expect(events.data.map((e) => e.status)).toEqual(['queued']);
  });

  it('answers 400 naming the query parameter', async () => {
    const problem = await problemOf(await h.request('/v1/messages?limit=500&channel=fax&cursor=%%%', { key: testKey }));
    expect(problem.status).toBe(400);
    expect((problem.body.errors as Array<{ field: string }>).map((e) => e.field).sort()).toEqual(['query:channel', 'query:cursor', 'query:limit']);
  });
});

describe('operations', () => {
  it('serves health, readiness, metrics, the OpenAPI document and its page', async () => {
    expect((await h.request('/healthz')).status).toBe(200);
    expect(await (await h.request('/readyz')).json()).toEqual({ status: 'ready' });
    const metrics = await (await h.request('/metrics')).text();
    expect(metrics).toMatch(/http_requests_total\{method="POST",route="\/v1\/messages",status="202"\} \d+/);
    expect(metrics).toMatch(/http_request_duration_seconds_bucket\{/);
    const openapi = (await (await h.request('/v1/openapi.json')).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(openapi.openapi).toBe('3.1.0');
    expect(Object.keys(openapi.paths)).toEqual(expect.arrayContaining(['/v1/messages', '/v1/messages/{id}', '/v1/messages/{id}/events']));
    const page = await h.request('/docs');
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    // The renderer and the document both come from the gateway itself (docs/api.md#reference-docs).
    expect(html).toContain('/v1/openapi.json');
    expect([...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1])).toEqual(['/docs/scalar-api-reference.js']);
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect((await h.request('/docs/scalar-api-reference.js')).headers.get('content-type')).toMatch(/javascript/);
  });

  it('echoes a safe X-Request-Id and replaces an unsafe one', async () => {
    expect((await h.request('/healthz', { headers: { 'x-request-id': 'abc.DEF-123_x' } })).headers.get('x-request-id')).toBe('abc.DEF-123_x');
    const replaced = (await h.request('/healthz', { headers: { 'x-request-id': 'no spaces <allowed>' } })).headers.get('x-request-id');
    expect(replaced).toMatch(/^[0-9a-f-]{36}$/);
    const long = (await h.request('/healthz', { headers: { 'x-request-id': 'a'.repeat(129) } })).headers.get('x-request-id');
    expect(long).not.toBe('a'.repeat(129));
  });

  it('answers unknown routes with a problem document', async () => {
    const problem = await problemOf(await h.request('/v2/nothing'));
    expect(problem).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(problem.contentType).toMatch(/^application\/problem\+json/);
  });
});
