import { reached, startMessagingStack, type MessagingStack } from './messaging-helpers';

// Scheduled sends through the real stack (docs/messages.md#scheduled-sends): send_at holds the job in
// BullMQ's delayed set, DELETE cancels it, and a TTL that runs out while it waits ends it at the TTL.
let m: MessagingStack;

beforeAll(async () => {
  m = await startMessagingStack();
}, 90_000);

afterAll(async () => {
  await m?.stop();
});

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('scheduled sends', () => {
  it('holds a message as scheduled until send_at, then delivers it', async () => {
    const recipient = '+14155550301';
    const sendAt = inSeconds(4);
    const res = await m.api<any>('POST', '/v1/messages', { channel: 'sms', recipient, send_at: sendAt, content: { text: 'later' } });
    expect(res.status).toBe(202);
    expect(res.body.status).toBe('scheduled');
    const waiting = await m.message(res.body.id);
    // Only meaningful while send_at is still ahead, which it is unless this machine stalled for seconds.
    if (Date.now() < Date.parse(sendAt) - 1_000) expect(waiting.status).toBe('scheduled');
    const delivered = await m.waitForMessage(res.body.id, reached('delivered'), 'delivered at send_at', 60_000);
    expect(Date.parse(delivered.sent_at!)).toBeGreaterThanOrEqual(Date.parse(sendAt) - 1_000);
    expect((await m.simSends({ channel: 'sms', to: recipient })).map((s) => s.text)).toEqual(['later']);

    const cancelDelivered = await fetch(`${m.stack.baseUrl}/v1/messages/${res.body.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${m.key}` } });
    expect(cancelDelivered.status).toBe(409);
    expect(cancelDelivered.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect((await cancelDelivered.json()).code).toBe('message_not_cancelable');
  }, 90_000);

  it('cancels a scheduled message: canceled, message.canceled recorded and published, never sent', async () => {
    const recipient = '+14155550302';
    const sendAt = inSeconds(5);
    const res = await m.api<any>('POST', '/v1/messages', { channel: 'sms', recipient, send_at: sendAt, content: { text: 'never' } });
    expect(res.status).toBe(202);
    const canceled = await m.api<any>('DELETE', `/v1/messages/${res.body.id}`);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ id: res.body.id, status: 'canceled' });
    expect((await m.message(res.body.id)).status).toBe('canceled');
    // A second DELETE answers like the first.
    expect((await m.api<any>('DELETE', `/v1/messages/${res.body.id}`)).body.status).toBe('canceled');

    const events = await m.api<any>('GET', `/v1/events?type=message.canceled&resource_id=${res.body.id}`);
    expect(events.status).toBe(200);
    expect(events.body.data).toHaveLength(1);
    expect(events.body.data[0]).toMatchObject({ type: 'message.canceled', data: { id: res.body.id, status: 'canceled' } });
    const transitions = await m.api<any>('GET', `/v1/messages/${res.body.id}/events`);
    expect(transitions.body.data.map((t: any) => t.status)).toEqual(['scheduled', 'canceled']);

    // Past send_at: the dispatcher would have taken the job by now; the message stays canceled and unsent.
    await sleep(Math.max(0, Date.parse(sendAt) - Date.now()) + 3_000);
    expect((await m.message(res.body.id)).status).toBe('canceled');
    expect(await m.simSends({ channel: 'sms', to: recipient })).toEqual([]);
  }, 90_000);

  it('ends a scheduled message whose ttl_seconds runs out while it waits, at its TTL', async () => {
    const recipient = '+14155550303';
    const sendAt = inSeconds(60);
    const res = await m.api<any>('POST', '/v1/messages', { channel: 'sms', recipient, send_at: sendAt, ttl_seconds: 2, content: { text: 'too late' } });
    expect(res.status).toBe(202);
    const ended = await m.waitForMessage(res.body.id, reached('undelivered', 'delivered', 'sent'), 'expired while scheduled', 40_000);
    expect(ended).toMatchObject({ status: 'undelivered', error: { code: 'expired' } });
    // Ended at its TTL, not when send_at came.
    expect(Date.now()).toBeLessThan(Date.parse(sendAt));
    expect((await m.api<any>('DELETE', `/v1/messages/${res.body.id}`)).status).toBe(409);
    expect(await m.simSends({ channel: 'sms', to: recipient })).toEqual([]);
  }, 60_000);

  it('names the field of a bad send_at and of a malformed id on DELETE', async () => {
    const far = await m.api<any>('POST', '/v1/messages', {
      channel: 'sms',
      recipient: '+14155550304',
      send_at: inSeconds(31 * 24 * 3600),
      content: { text: 'x' },
    });
    expect(far.status).toBe(400);
    expect(far.body.errors).toEqual([expect.objectContaining({ field: '/send_at' })]);
    const noZone = await m.api<any>('POST', '/v1/messages', {
      channel: 'sms',
      recipient: '+14155550304',
      send_at: '2030-01-01T10:00:00',
      content: { text: 'x' },
    });
    expect(noZone.status).toBe(400);
    expect(noZone.body.errors[0].field).toBe('/send_at');
    const malformed = await m.api<any>('DELETE', '/v1/messages/not-an-id');
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors).toEqual([expect.objectContaining({ field: 'path:id' })]);
    expect((await m.api<any>('DELETE', '/v1/messages/msg_00000000000000000000000000')).status).toBe(404);
  });
});
