import {
  accountWebhookSecretSchema,
  buildOpenApiDocument,
  compileSchema,
  webhookEndpointCreatedSchema,
  webhookEndpointSchema,
  webhookSecretRotationSchema,
} from '@switchboard/schemas';
import { problemOf, startGatewayHarness, type GatewayHarness } from './support/gateway-harness';

let h: GatewayHarness;
let key: string;

beforeAll(async () => {
  h = await startGatewayHarness({ RATE_LIMIT_PER_SECOND: '1000000' });
  ({ key } = await h.key({ mode: 'test' }));
});

afterAll(async () => {
  await h?.close();
});

const register = (json: unknown, as = key) => h.request('/v1/webhooks', { key: as, json });
const fieldsOf = (body: Record<string, unknown>) => (body.errors as Array<{ field: string }>).map((e) => e.field).sort();

describe('POST /v1/webhooks body', () => {
  it('answers 400 validation_failed naming every offending field by JSON Pointer', async () => {
    const res = await problemOf(
      await register({ url: 'https://hooks.example.com/x', events: ['message.sent', 'message.exploded', 'message.sent'], description: 5, colour: 'red' }),
    );
    expect(res).toMatchObject({ status: 400, contentType: expect.stringContaining('application/problem+json'), body: { code: 'validation_failed' } });
    expect(fieldsOf(res.body)).toEqual(['/colour', '/description', '/events/1', '/events/2']);
  });

  it('wants url and a non-empty events list, in an object', async () => {
    expect(fieldsOf((await problemOf(await register({ events: [] }))).body)).toEqual(['/events', '/url']);
    const notObject = await problemOf(await register(['https://hooks.example.com/x']));
    expect(notObject).toMatchObject({ status: 400, body: { errors: [{ field: '', message: 'must be an object' }] } });
  });

  it('answers a URL that is not one with 400, and an address the policy refuses with 422', async () => {
    for (const url of [
      'ftp://hooks.example.com/x',
      'https://user:secret@hooks.example.com/x',
      'hooks.example.com/x',
      `https://hooks.example.com/${'a'.repeat(2048)}`,
    ]) {
      const res = await problemOf(await register({ url, events: ['*'] }));
      expect({ url, status: res.status, fields: fieldsOf(res.body) }).toEqual({ url, status: 400, fields: ['/url'] });
    }
    const refused = await problemOf(await register({ url: 'https://10.0.0.1/hook', events: ['*'] }));
    expect(refused).toMatchObject({ status: 422, body: { code: 'webhook_url_not_allowed', errors: [{ field: '/url' }] } });
  });

  it('needs webhooks:write to register; any key of the account reads', async () => {
    const { key: reader } = await h.key({ mode: 'test', scopes: ['messages:read'] });
    expect((await register({ url: 'https://hooks.example.com/x', events: ['*'] }, reader)).status).toBe(403);
    expect((await h.request('/v1/webhooks', { key: reader })).status).toBe(200);
  });
});

describe('answers as the OpenAPI document describes them', () => {
  const created = compileSchema(webhookEndpointCreatedSchema);
  const endpoint = compileSchema(webhookEndpointSchema);
  const rotation = compileSchema(webhookSecretRotationSchema);
  const accountSecret = compileSchema(accountWebhookSecretSchema);

  it('registers, reads, rotates and deletes an endpoint', async () => {
    const res = await register({ url: 'https://hooks.example.com/orders', events: ['message.delivered', 'message.failed'], description: 'orders' });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { id: string };
    expect(created(body)).toEqual([]);
    expect(res.headers.get('location')).toBe(`/v1/webhooks/${body.id}`);

    const got = await (await h.request(`/v1/webhooks/${body.id}`, { key })).json();
    expect(endpoint(got)).toEqual([]);
    expect(got).not.toHaveProperty('secret');
    const page = (await (await h.request('/v1/webhooks?limit=1', { key })).json()) as { data: unknown[] };
    expect(page.data.map(endpoint)).toEqual([[]]);

    const rotated = await h.request(`/v1/webhooks/${body.id}/rotate-secret`, { key, method: 'POST' });
    expect(rotated.status).toBe(200);
    expect(rotation(await rotated.json())).toEqual([]);
    expect(await (await h.request(`/v1/webhooks/${body.id}/deliveries`, { key })).json()).toEqual({ data: [], next_cursor: null });
    expect((await h.request(`/v1/webhooks/${body.id}`, { key, method: 'DELETE' })).status).toBe(204);
  });

  it('shows the account callback secret', async () => {
    const res = await h.request('/v1/account/webhook-secret', { key });
    expect(res.status).toBe(200);
    expect(accountSecret(await res.json())).toEqual([]);
  });

  it('serves a document that lists these operations', async () => {
    const served = (await (await h.request('/v1/openapi.json')).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(served.paths)).toEqual(Object.keys((buildOpenApiDocument() as { paths: object }).paths));
    expect(served.paths).toHaveProperty(['/v1/webhooks/{id}/rotate-secret', 'post', 'x-required-scopes'], ['webhooks:write']);
  });
});

describe('GET /v1/events query', () => {
  it('answers every bad parameter in one 400 naming query:<name>', async () => {
    const res = await problemOf(await h.request('/v1/events?type=message.exploded&resource_id=evt_1&limit=0', { key }));
    expect(res).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    expect(fieldsOf(res.body)).toEqual(['query:limit', 'query:resource_id', 'query:type']);
    expect(res.body.errors).toContainEqual({ field: 'query:resource_id', message: 'must be a msg_, call_ or inb_ id' });
  });

  it('refuses a filter given twice, and lists with valid filters', async () => {
    const twice = await problemOf(await h.request('/v1/events?type=message.sent&type=message.read', { key }));
    expect(twice).toMatchObject({ status: 400, body: { errors: [{ field: 'query:type', message: 'must be given once' }] } });
    const ok = await h.request('/v1/events?type=message.sent&resource_id=msg_01JD3Q4W6T9ZK1H8X2C5V7B3NM&limit=5&unknown=1', { key });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ data: [], next_cursor: null });
  });
});
