import { randomBytes } from 'node:crypto';
import { eventually } from '@switchboard/devstack';
import type { Db, StoredEvent } from '@switchboard/store';
import { sentAndDeliveredMessage } from '../services/webhook-delivery/test/support/message-events';
import { ReceiverProcess, startWebhookStack, verify, type WebhookStack } from './webhooks-harness';

// Failure paths through the API: 410, Retry-After, rotation, a slow endpoint, dead letters and redelivery.
describe('webhook retries, rotation and the webhook API (real processes)', () => {
  const prefix = `sbwr${randomBytes(4).toString('hex')}`;
  let h: WebhookStack;
  let db: Db;
  let api: Pick<WebhookStack, 'request'>;
  let publish: WebhookStack['publish'];
  const receiver = new ReceiverProcess();

  beforeAll(async () => {
    await receiver.start();
    h = await startWebhookStack({
      prefix,
      // 1 s between attempts: a Retry-After of 2 s is then distinguishable from the schedule (≤ 1.2 s with jitter).
      env: { WEBHOOK_RETRY_SCHEDULE_MS: '0,1000,1000,1000', WEBHOOK_ENDPOINT_CONCURRENCY: '2' },
      // The gateway refuses private targets other than the receiver's loopback host.
      gatewayEnv: { TARGET_ALLOW_PRIVATE_NETWORKS: 'false', TARGET_ALLOWED_HOSTS: '127.0.0.1' },
    });
    ({ db, publish } = h);
    api = h;
  });
  afterAll(async () => {
    await h?.stop();
    await receiver.kill();
  });

  async function keyFor(name: string, scopes = ['*']) {
    return h.keyFor(`${name}-${prefix}`, scopes);
  }
  async function register(key: string, path: string, events: string[] = ['*']) {
    const res = await api.request(key, 'POST', '/v1/webhooks', { url: receiver.url(path), events });
    expect(res.status).toBe(201);
    return res.body as { id: string; secret: string };
  }
  async function produce(accountId: string, messages = 1): Promise<StoredEvent[]> {
    const events: StoredEvent[] = [];
    for (let i = 0; i < messages; i++) events.push(...(await sentAndDeliveredMessage(db, accountId)).events);
    await publish.publisher.publish(events);
    return events;
  }

  it('validates registrations: event types, refused addresses, scopes, foreign ids', async () => {
    const { key } = await keyFor('validation');
    const bad = await api.request(key, 'POST', '/v1/webhooks', { url: receiver.url('/v'), events: ['message.sent', 'message.exploded'] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: '/events/1' })]);
    const privateUrl = await api.request(key, 'POST', '/v1/webhooks', { url: 'http://10.0.0.1/hook', events: ['*'] });
    expect(privateUrl).toMatchObject({ status: 422, body: { code: 'webhook_url_not_allowed' } });
    const metadata = await api.request(key, 'POST', '/v1/webhooks', { url: 'http://169.254.169.254/', events: ['*'] });
    expect(metadata.status).toBe(422);

    const created = await register(key, '/v');
    expect(created.secret).toMatch(/^whsec_/);
    const got = await api.request(key, 'GET', `/v1/webhooks/${created.id}`);
    expect(got.status).toBe(200);
    expect(got.body.secret).toBeUndefined();
    expect((await api.request(key, 'GET', '/v1/webhooks?limit=1')).body).toMatchObject({
      data: [expect.objectContaining({ id: created.id })],
      next_cursor: null,
    });

    const { key: readOnly } = await keyFor('validation', ['messages:read']);
    expect((await api.request(readOnly, 'DELETE', `/v1/webhooks/${created.id}`)).status).toBe(403);
    const { key: stranger } = await keyFor('stranger');
    expect((await api.request(stranger, 'GET', `/v1/webhooks/${created.id}`)).status).toBe(404);
    expect((await api.request(key, 'GET', '/v1/webhooks/whk_nope')).status).toBe(404);
    expect((await api.request(key, 'GET', '/v1/events/evt_01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(404);
    expect((await api.request(key, 'GET', '/v1/account/webhook-secret')).body.secret).toMatch(/^whsec_/);
    expect((await api.request(key, 'DELETE', `/v1/webhooks/${created.id}`)).status).toBe(204);
    expect((await api.request(key, 'GET', `/v1/webhooks/${created.id}`)).status).toBe(404);
  });

  it('disables an endpoint that answers 410 and sends it nothing more', async () => {
    const { key, accountId } = await keyFor('gone');
    const gone = await register(key, '/gone');
    const control = await register(key, '/gone-control');
    await receiver.behave('/gone', { status: 410 });
    await produce(accountId);
    await eventually(
      async () => (await api.request(key, 'GET', `/v1/webhooks/${gone.id}`)).body,
      (e) => e.enabled === false,
      { what: 'endpoint disabled' },
    );
    expect((await api.request(key, 'GET', `/v1/webhooks/${gone.id}`)).body.disabled_reason).toMatch(/^gone/);

    const [later] = await produce(accountId);
    const event = await eventually(
      async () => (await api.request(key, 'GET', `/v1/events/${later.id}`)).body,
      (e) => e.deliveries.length > 0 && e.delivery_status === 'delivered',
      { what: 'the later event delivered to the control endpoint' },
    );
    expect(event.deliveries.map((d: { endpoint_id: string }) => d.endpoint_id)).toEqual([control.id]);
  });

  it('honours Retry-After, clamped to twice the scheduled delay', async () => {
    const { key, accountId } = await keyFor('retry-after');
    await register(key, '/ra-short', ['message.sent']);
    await register(key, '/ra-long', ['message.sent']);
    await receiver.behave('/ra-short', { status: 200, next: [{ status: 503, retryAfter: '2' }] });
    await receiver.behave('/ra-long', { status: 200, next: [{ status: 429, retryAfter: '3600' }] });
    await produce(accountId);
    const [short, long] = await eventually(
      async () => [receiver.received('/ra-short'), receiver.received('/ra-long')],
      ([s, l]) => s.length === 2 && l.length === 2,
      { what: 'the retried deliveries' },
    );
    expect(short.map((d) => d.status)).toEqual([503, 200]);
    expect(short[0].headers['webhook-id']).toBe(short[1].headers['webhook-id']);
    // The schedule alone would retry within 1.2 s; Retry-After: 2 makes it wait 2 s (a lower bound, never early).
    expect(short[1].at - short[0].at).toBeGreaterThanOrEqual(1_900);
    // Retry-After: 3600 is clamped to 2 × 1 s, so the retry did come.
    expect(long.map((d) => d.status)).toEqual([429, 200]);
  });

  it('signs with both secrets for a while after a rotation', async () => {
    const { key, accountId } = await keyFor('rotation');
    const endpoint = await register(key, '/rotation', ['message.sent']);
    const rotated = await api.request(key, 'POST', `/v1/webhooks/${endpoint.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    await produce(accountId);
    const [d] = await eventually(
      async () => receiver.received('/rotation'),
      (r) => r.length === 1,
      { what: 'delivery after rotation' },
    );
    expect(d.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verify(rotated.body.secret, d).type).toBe('message.sent');
    expect(verify(endpoint.secret, d).type).toBe('message.sent');
  });

  it('does not let a slow endpoint delay another endpoint', async () => {
    const { key, accountId } = await keyFor('slow');
    await register(key, '/slow');
    await register(key, '/fast');
    await receiver.behave('/slow', { status: 200, delayMs: 4_000 });
    const events = await produce(accountId, 6);
    await eventually(
      async () => receiver.received('/fast').length,
      (n) => n === events.length,
      { what: 'every fast delivery' },
    );
    // Two slots for the slow endpoint at 4 s each: it has not finished, the fast one did not wait for it.
    expect(receiver.received('/slow').length).toBeLessThan(events.length);
  });

  it('marks exhausted deliveries failed (dead letter), shows them, and redelivers them', async () => {
    const { key, accountId } = await keyFor('dead');
    const endpoint = await register(key, '/dead', ['message.delivered']);
    await receiver.behave('/dead', { status: 500 });
    const delivered = (await produce(accountId)).find((e) => e.type === 'message.delivered')!;
    const dead = await eventually(
      async () => (await api.request(key, 'GET', `/v1/events/${delivered.id}`)).body,
      (e) => e.delivery_status === 'failed',
      { what: 'dead letter' },
    );
    expect(dead.deliveries[0]).toMatchObject({ status: 'failed', attempts: 4, last_status_code: 500, last_error: expect.stringMatching(/^retries_exhausted/) });
    const failedList = await api.request(key, 'GET', `/v1/events?type=message.delivered&resource_id=${dead.data.id}`);
    expect(failedList.body.data).toEqual([expect.objectContaining({ id: delivered.id, delivery_status: 'failed' })]);
    const attempts = await api.request(key, 'GET', `/v1/webhooks/${endpoint.id}/deliveries?limit=2`);
    expect(attempts.body.data).toHaveLength(2);
    expect(attempts.body.data[0]).toMatchObject({ event_id: delivered.id, status_code: 500, error: 'http_status: 500', latency_ms: expect.any(Number) });
    expect(attempts.body.next_cursor).toEqual(expect.any(String));

    await receiver.behave('/dead', { status: 200 });
    expect((await api.request(key, 'POST', `/v1/events/${delivered.id}/redeliver`)).status).toBe(202);
    await eventually(
      async () => (await api.request(key, 'GET', `/v1/events/${delivered.id}`)).body.delivery_status,
      (s) => s === 'delivered',
      {
        what: 'redelivered',
      },
    );
    const last = receiver.received('/dead').at(-1)!;
    expect(last.status).toBe(200);
    expect(verify(endpoint.secret, last).id).toBe(delivered.id);
  });
});
