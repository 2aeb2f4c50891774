import { randomUUID } from 'node:crypto';
import { requestFingerprint } from '../src/idempotency/request-fingerprint';
import { problemOf, startGatewayHarness, textMessage, type GatewayHarness } from './support/gateway-harness';

let h: GatewayHarness;
let key: string;
let accountId: string;

beforeAll(async () => {
  h = await startGatewayHarness({ RATE_LIMIT_PER_SECOND: '100000' });
  ({ key, accountId } = await h.key({ mode: 'test' }));
});

afterAll(async () => {
  await h?.close();
});

function send(idempotencyKey: string, body: unknown, apiKey = key): Promise<Response> {
  return h.request('/v1/messages', { key: apiKey, headers: { 'idempotency-key': idempotencyKey }, json: body });
}

describe('Idempotency-Key (docs/api.md#idempotency-key)', () => {
  it('replays the first answer byte for byte with Idempotent-Replayed, and enqueues once', async () => {
    const idem = randomUUID();
    const first = await send(idem, textMessage());
    const firstBody = await first.text();
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // Same body with other key order and spacing is the same request.
    const reordered = `{ "content": {"text": "Your code is 1234"}, "recipient": "+14155552671", "channel": "sms" }`;
    const again = await h.request('/v1/messages', {
      key,
      method: 'POST',
      headers: { 'idempotency-key': idem.toUpperCase(), 'content-type': 'application/json' },
      body: reordered,
    });
    expect(again.status).toBe(202);
    expect(await again.text()).toBe(firstBody);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(await h.messageQueue.count()).toBe(1);
  });

  it('answers 422 idempotency_key_reused for the same key with another body', async () => {
    const idem = randomUUID();
    expect((await send(idem, textMessage())).status).toBe(202);
    const problem = await problemOf(await send(idem, textMessage({ content: { text: 'something else' } })));
    expect(problem).toMatchObject({ status: 422, body: { code: 'idempotency_key_reused' } });
  });

  it('scopes keys to the account', async () => {
    const idem = randomUUID();
    const other = (await h.key({ mode: 'test' })).key;
    const a = (await (await send(idem, textMessage())).json()) as { id: string };
    const b = (await (await send(idem, textMessage(), other)).json()) as { id: string };
    expect(a.id).not.toBe(b.id);
  });

  it('does not keep a 4xx answer, so the fixed request may reuse the key', async () => {
    const idem = randomUUID();
    expect((await send(idem, textMessage({ recipient: 'nope' }))).status).toBe(400);
    expect((await send(idem, textMessage({ from: '+14155550199' }))).status).toBe(422);
    const fixed = await send(idem, textMessage());
    expect(fixed.status).toBe(202);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('refuses an opted-out recipient with 422 and keeps nothing under the key (the opt-out read shares the reservation script)', async () => {
    const recipient = '+14155550123';
    const suppression = `${h.prefix}:sup:${accountId}:sms:${recipient}`;
    await h.redis.set(suppression, '1');
    const idem = randomUUID();
    const queued = await h.messageQueue.count();
    const refused = await problemOf(await send(idem, textMessage({ recipient })));
    expect(refused).toMatchObject({ status: 422, body: { code: 'recipient_opted_out', errors: [{ field: '/recipient' }] } });
    expect(await h.redis.keys(`${h.prefix}:gateway:idempotency:${accountId}:*`)).not.toContainEqual(expect.stringContaining(idem));
    expect(await h.messageQueue.count()).toBe(queued);
    await h.redis.del(suppression);
    const accepted = await send(idem, textMessage({ recipient }));
    expect(accepted.status).toBe(202);
    expect(accepted.headers.get('idempotent-replayed')).toBeNull();
    expect(await h.messageQueue.count()).toBe(queued + 1);
  });

  it('answers 400 invalid_idempotency_key for anything but a UUID v4', async () => {
    for (const value of ['123', 'not-a-uuid', '6f1c8a3e-2b7d-1c1e-9a5f-0d3b2c1e4f5a']) {
      const problem = await problemOf(await send(value, textMessage()));
      expect(problem).toMatchObject({ status: 400, body: { code: 'invalid_idempotency_key', errors: [{ field: 'header:Idempotency-Key' }] } });
    }
  });

  it('turns 50 concurrent identical requests into exactly one job; the others see 202 or 409', async () => {
    const before = await h.messageQueue.count();
    const idem = randomUUID();
    const answers = await Promise.all(Array.from({ length: 50 }, () => send(idem, textMessage({ metadata: { burst: 'yes' } }))));
    const statuses = answers.map((r) => r.status);
    expect(statuses.every((s) => s === 202 || s === 409)).toBe(true);
    expect(statuses).toContain(202);
    for (const res of answers.filter((r) => r.status === 409)) {
      expect(res.headers.get('retry-after')).toBe('1');
      expect(((await res.json()) as { code: string }).code).toBe('idempotency_key_in_use');
    }
    const ids = new Set(await Promise.all(answers.filter((r) => r.status === 202).map(async (r) => ((await r.json()) as { id: string }).id)));
    expect(ids.size).toBe(1);
    expect((await h.messageQueue.count()) - before).toBe(1);
  });

  it('answers 409 while a first request is in flight, and finishes a reservation orphaned by a crash with its message id', async () => {
    const redisKey = (idem: string) => `${h.prefix}:gateway:idempotency:${accountId}:post-messages:${idem}`;
    const body = textMessage({ metadata: { crash: 'test' } });
    const fingerprint = requestFingerprint(body);

    // A reservation as a live gateway holds it while it enqueues.
    const inFlight = randomUUID();
    const storedAnswer = (id: string) => ({
      status: 202,
      location: `/v1/messages/${id}`,
      body: JSON.stringify({
        id,
        status: 'queued',
        channel: 'sms',
        recipient: body.recipient,
        created_at: new Date().toISOString(),
        estimated_delivery: 'within 5 seconds',
        cost_units: 1,
      }),
    });
    await h.redis.set(
      redisKey(inFlight),
      JSON.stringify({
        message_id: 'msg_01M830NRVQG7JH2MJ0JXDCTT8S',
        fingerprint,
        started_at: Date.now(),
        response: storedAnswer('msg_01M830NRVQG7JH2MJ0JXDCTT8S'),
      }),
      'EX',
      600,
    );
    const busy = await send(inFlight, body);
    expect(busy.status).toBe(409);
    expect(busy.headers.get('retry-after')).toBe('1');

    // A reservation left by a gateway that crashed between reserving and answering: older than the lease.
    const orphaned = randomUUID();
    const crashedId = 'msg_01M830NRVQG7JH2MJ0JXDCTT8T';
    await h.redis.set(
      redisKey(orphaned),
      JSON.stringify({ message_id: crashedId, fingerprint, started_at: Date.now() - 60_000, response: storedAnswer(crashedId) }),
      'EX',
      600,
    );
    const before = await h.messageQueue.count();
    const takeover = await send(orphaned, body);
    expect(takeover.status).toBe(202);
    expect(((await takeover.json()) as { id: string }).id).toBe(crashedId);
    expect((await h.messageQueue.getJob(crashedId))?.data).toMatchObject({ message_id: crashedId, account_id: accountId });
    // The crashed gateway may already have enqueued the job: the same id is never enqueued twice.
    const replay = await send(orphaned, body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await h.messageQueue.count()) - before).toBe(1);
  });
});
