import { randomUUID } from 'node:crypto';
import { eventually } from '@switchboard/devstack';
import { reached, startMessagingStack, type MessagingStack } from './messaging-helpers';

// Batch sends through the real stack (docs/messages.md#batch-sends): one 202 with a result per item,
// the valid items accepted and delivered, the refused ones pointing at their field.
let m: MessagingStack;

beforeAll(async () => {
  m = await startMessagingStack();
}, 90_000);

afterAll(async () => {
  await m?.stop();
});

async function postBatch(body: unknown, idempotencyKey?: string): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(`${m.stack.baseUrl}/v1/messages/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${m.key}`, 'content-type': 'application/json', ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

describe('batch sends', () => {
  it('accepts the valid items and refuses the others per item, pointing at the field; GET /v1/batches counts them', async () => {
    const optedOut = '+14155550412';
    expect((await m.api('POST', '/v1/suppressions', { recipient: optedOut, channel: 'sms' })).status).toBe(201);
    const res = await postBatch({
      channel: 'sms',
      metadata: { campaign: 'spring' },
      messages: [
        { recipient: '+14155550410', content: { text: 'hello one' } },
        { recipient: '+1415', content: { text: 'bad number' } },
        { recipient: optedOut, content: { text: 'opted out' } },
        { recipient: '+14155550411', content: { text: 'hello two' }, metadata: { row: '4' } },
        { recipient: '+14155550413', content: { text: 'x' }, channel: 'rcs' },
      ],
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ accepted: 2, rejected: 3 });
    expect(res.body.batch_id).toMatch(/^bat_/);
    const [first, badNumber, suppressed, second, unknownField] = res.body.results;
    expect(first).toMatchObject({ status: 'queued', channel: 'sms', recipient: '+14155550410' });
    expect(second).toMatchObject({ status: 'queued', recipient: '+14155550411' });
    expect(badNumber).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(badNumber.errors.map((e: any) => e.field)).toEqual(['/messages/1/recipient']);
    expect(suppressed).toMatchObject({ status: 422, code: 'recipient_opted_out', errors: [expect.objectContaining({ field: '/messages/2/recipient' })] });
    expect(unknownField.errors.map((e: any) => e.field)).toEqual(['/messages/4/channel']);
    // Accepted means its job is in Redis: each id reads at once, before the dispatcher stores it.
    for (const accepted of [first, second]) {
      const read = await m.api<any>('GET', `/v1/messages/${accepted.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ id: accepted.id, recipient: accepted.recipient });
    }

    const one = await m.waitForMessage(first.id, reached('delivered'), 'first batch item delivered', 60_000);
    const two = await m.waitForMessage(second.id, reached('delivered'), 'second batch item delivered', 60_000);
    expect((two as any).metadata).toEqual({ campaign: 'spring', row: '4' });
    expect((one as any).metadata).toEqual({ campaign: 'spring' });
    expect(await m.simSends({ channel: 'sms', to: optedOut })).toEqual([]);

    const batch = await m.api<any>('GET', `/v1/batches/${res.body.batch_id}`);
    expect(batch.status).toBe(200);
    expect(batch.body).toMatchObject({ id: res.body.batch_id, total: 5, accepted: 2, rejected: 3 });
    expect(batch.body.counts).toMatchObject({ delivered: 2, queued: 0, scheduled: 0 });
    expect((await m.api<any>('GET', '/v1/batches/bat_01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(404);
  }, 120_000);

  it('counts scheduled items before the dispatcher stores them, and a canceled one after', async () => {
    const sendAt = new Date(Date.now() + 60_000).toISOString();
    const res = await postBatch({
      channel: 'sms',
      send_at: sendAt,
      messages: [1, 2, 3].map((i) => ({ recipient: `+1415555042${i}`, content: { text: `later ${i}` } })),
    });
    expect(res.status).toBe(202);
    expect(res.body.results.map((r: any) => r.status)).toEqual(['scheduled', 'scheduled', 'scheduled']);
    const waiting = await m.api<any>('GET', `/v1/messages/${res.body.results[1].id}`);
    expect(waiting.body).toMatchObject({ id: res.body.results[1].id, status: 'scheduled' });
    expect((await m.api<any>('DELETE', `/v1/messages/${res.body.results[0].id}`)).status).toBe(200);
    const batch = await m.api<any>('GET', `/v1/batches/${res.body.batch_id}`);
    expect(batch.body.counts).toMatchObject({ scheduled: 2, canceled: 1, queued: 0 });
  });

  it('replays the whole answer for the same Idempotency-Key and body, and refuses another body', async () => {
    const key = randomUUID();
    const body = {
      channel: 'sms',
      messages: [
        { recipient: '+14155550431', content: { text: 'once' } },
        { recipient: 'nope', content: { text: 'x' } },
      ],
    };
    const first = await postBatch(body, key);
    expect(first.status).toBe(202);
    const again = await postBatch(body, key);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const other = await postBatch({ ...body, messages: body.messages.slice(0, 1) }, key);
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reused');
    await m.waitForMessage(first.body.results[0].id, reached('delivered'), 'idempotent batch item delivered', 60_000);
    // Sent once, although the request came twice.
    await eventually(
      () => m.simSends({ channel: 'sms', to: '+14155550431' }),
      (s) => s.length === 1,
      { what: 'one send' },
    );
  }, 90_000);

  it('refuses a malformed envelope as a whole, naming the field', async () => {
    const empty = await postBatch({ channel: 'sms', messages: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0].field).toBe('/messages');
    const tooMany = await postBatch({ channel: 'sms', messages: Array.from({ length: 1001 }, () => ({ recipient: '+14155550440', content: { text: 'x' } })) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors[0].field).toMatch(/^\/messages/);
    const badDefault = await postBatch({ channel: 'fax', messages: [{ recipient: '+14155550440', content: { text: 'x' } }] });
    expect(badDefault.status).toBe(400);
    expect(badDefault.body.errors[0].field).toBe('/channel');
  });
});
