import { eventually } from '@switchboard/devstack';
import { reached, SANDBOX_SENDER, startMessagingStack, type MessageView, type MessagingStack } from './messaging-helpers';

/**
 * docs/routing.md through the real stack: time-based fallback, ttl expiry and multi-part SMS. The
 * simulator's `…04` numbers accept a message and never report it delivered (docs/sandbox.md#sandbox-numbers);
 * its /sim controls send a late chat receipt and release held part receipts in a chosen order.
 */
let m: MessagingStack;

beforeAll(async () => {
  m = await startMessagingStack();
}, 60_000);

afterAll(async () => {
  await m?.stop();
});

type Attempt = MessageView['attempts'][number] & { parts?: number; parts_delivered?: number };
const attemptsOf = (v: MessageView) => v.attempts as Attempt[];
const summary = (v: MessageView) => attemptsOf(v).map((a) => `${a.channel}:${a.status}${a.error_code ? `:${a.error_code}` : ''}`);

async function sim(path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${m.stack.simUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
}

async function historyOf(id: string): Promise<string[]> {
  const res = await m.api<{ data: Array<{ status: string }> }>('GET', `/v1/messages/${id}/events`);
  return res.body.data.map((t) => t.status);
}

describe('time-based fallback', () => {
  it('moves a chat message that is never delivered on to sms; a late chat receipt changes nothing', async () => {
    const recipient = '+447911124404';
    await m.simInbound({ channel: 'chat', from: recipient, to: SANDBOX_SENDER, text: 'Hi' });
    const { id } = await m.send({ channel: 'auto', fallback: ['chat', 'sms'], fallback_timeout_seconds: 5, recipient, content: { text: 'Your code is 4821' } });

    const moved = await m.waitForMessage(
      id,
      (v) => v.channel_used === 'sms' && attemptsOf(v).some((a) => a.channel === 'sms' && a.status === 'sent'),
      'sent on sms',
    );
    expect(moved.status).toBe('sent');
    expect(summary(moved)).toEqual(['chat:sent:fallback_timeout', 'sms:sent']);
    expect(await historyOf(id)).toEqual(['queued', 'sending', 'sent', 'fallback', 'sent']);

    const [chatSend] = (await m.simSends({ channel: 'chat', client_ref: id })) as Array<{ upstream_message_id: string }>;
    await sim('/sim/receipts', { channel: 'chat', upstream_message_id: chatSend.upstream_message_id, status: 'delivered' });
    const late = await m.waitForMessage(id, (v) => attemptsOf(v)[0].status === 'delivered', 'late chat receipt on its attempt');
    expect(late).toMatchObject({ status: 'sent', channel_used: 'sms', delivered_at: null, error: null });
    expect(summary(late)).toEqual(['chat:delivered:fallback_timeout', 'sms:sent']);
    expect(await historyOf(id)).toEqual(['queued', 'sending', 'sent', 'fallback', 'sent']);
    // Exactly one send per channel.
    expect(await m.simSends({ channel: 'chat', client_ref: id })).toHaveLength(1);
    expect(await m.simSends({ channel: 'sms', to: recipient })).toHaveLength(1);
  }, 30_000);

  it('does not move a message that was delivered in time', async () => {
    const recipient = '+447911124407';
    await m.simInbound({ channel: 'chat', from: recipient, to: SANDBOX_SENDER, text: 'Hi' });
    const { id } = await m.send({ channel: 'auto', fallback: ['chat', 'sms'], fallback_timeout_seconds: 5, recipient, content: { text: 'Hello' } });
    await m.waitForMessage(id, reached('read'), 'read on chat');
    // The fallback check of the chat attempt has run by the time the sms send would show in the sim.
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    const after = await m.message(id);
    expect(summary(after)).toEqual(['chat:read']);
    expect(await m.simSends({ channel: 'sms', to: recipient })).toHaveLength(0);
  }, 30_000);
});

describe('ttl', () => {
  it('ends a chat message that stays sent as undelivered / expired', async () => {
    const recipient = '+447911124504';
    await m.simInbound({ channel: 'chat', from: recipient, to: SANDBOX_SENDER, text: 'Hi' });
    const { id } = await m.send({ channel: 'chat', ttl_seconds: 3, recipient, content: { text: 'Flash sale ends soon' } });
    await m.waitForMessage(id, (v) => v.sent_at !== null, 'sent');
    const expired = await m.waitForMessage(id, reached('undelivered'), 'expired');
    expect(expired).toMatchObject({ channel_used: 'chat', error: { code: 'expired' }, delivered_at: null });
    expect(await historyOf(id)).toEqual(['queued', 'sending', 'sent', 'undelivered']);

    // A delivered receipt after the expiry fills in the attempt; the message stays expired.
    const [chatSend] = (await m.simSends({ channel: 'chat', client_ref: id })) as Array<{ upstream_message_id: string }>;
    await sim('/sim/receipts', { channel: 'chat', upstream_message_id: chatSend.upstream_message_id, status: 'delivered' });
    const late = await m.waitForMessage(id, (v) => attemptsOf(v)[0].status === 'delivered', 'late receipt on the attempt');
    expect(late).toMatchObject({ status: 'undelivered', error: { code: 'expired' }, delivered_at: null });
  }, 30_000);

  it('sends the remaining ttl as the SMPP validity_period and expires an sms that stays sent', async () => {
    const recipient = '+447911124604';
    const { id } = await m.send({ channel: 'sms', ttl_seconds: 4, recipient, content: { text: 'Code 1234' } });
    const expired = await m.waitForMessage(id, reached('undelivered'), 'expired');
    expect(expired).toMatchObject({ error: { code: 'expired' }, attempts: [expect.objectContaining({ channel: 'sms', status: 'sent' })] });
    const [send] = (await m.simSends({ channel: 'sms', to: recipient })) as Array<{ validity_seconds?: number }>;
    expect(send.validity_seconds).toBeGreaterThan(0);
    expect(send.validity_seconds).toBeLessThanOrEqual(4);
  }, 30_000);
});

describe('multi-part sms', () => {
  const longText = 'Your parcel 4821 is on its way. '.repeat(12).trim(); // 383 GSM-7 characters: 3 parts of 153

  it('is delivered only when every part is, whatever order the receipts come in', async () => {
    const recipient = '+447911124711';
    await sim('/sim/sms-receipt-plans', { to: recipient, order: [3, 1, 2] });
    const { id, cost_units } = await m.send({ channel: 'sms', recipient, content: { text: longText } });
    expect(cost_units).toBe(3);
    const sent = await m.waitForMessage(id, reached('sent'), 'sent');
    expect(attemptsOf(sent)).toEqual([expect.objectContaining({ channel: 'sms', status: 'sent', parts: 3, parts_delivered: 0 })]);

    await sim('/sim/sms-receipt-plans/release', { to: recipient, count: 2 });
    const partly = await m.waitForMessage(id, (v) => attemptsOf(v)[0].parts_delivered === 2, 'two parts delivered');
    expect(partly).toMatchObject({ status: 'sent', delivered_at: null });

    await sim('/sim/sms-receipt-plans/release', { to: recipient, count: 1 });
    const done = await m.waitForMessage(id, reached('delivered'), 'delivered');
    expect(attemptsOf(done)).toEqual([expect.objectContaining({ status: 'delivered', parts: 3, parts_delivered: 3 })]);
    expect(await historyOf(id)).toEqual(['queued', 'sending', 'sent', 'delivered']);
  }, 30_000);

  it('is undelivered when one part fails', async () => {
    const recipient = '+447911124712';
    await sim('/sim/sms-receipt-plans', { to: recipient, order: [2, 1, 3], fail_part: 1 });
    const { id } = await m.send({ channel: 'sms', recipient, content: { text: longText } });
    await m.waitForMessage(id, reached('sent'), 'sent');

    await sim('/sim/sms-receipt-plans/release', { to: recipient, count: 1 });
    await m.waitForMessage(id, (v) => attemptsOf(v)[0].parts_delivered === 1, 'part 2 delivered');
    await sim('/sim/sms-receipt-plans/release', { to: recipient, count: 2 });
    const failed = await eventually(
      () => m.message(id),
      (v) => v.status === 'undelivered' && attemptsOf(v)[0].parts_delivered === 2,
      { what: `${id} undelivered with two parts delivered`, timeoutMs: 20_000, intervalMs: 150 },
    );
    expect(attemptsOf(failed)).toEqual([expect.objectContaining({ status: 'undelivered', parts: 3, parts_delivered: 2 })]);
    expect(failed.delivered_at).toBeNull();
  }, 30_000);
});

describe('account default for fallback_timeout_seconds', () => {
  it('is validated, stored, and used by an auto message that sets none', async () => {
    const invalid = await m.api<{ errors: Array<{ field: string }> }>('PATCH', '/v1/account', { fallback_timeout_seconds: 2 });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors.map((e) => e.field)).toEqual(['/fallback_timeout_seconds']);
    const patched = await m.api('PATCH', '/v1/account', { fallback_timeout_seconds: 5 });
    expect(patched).toEqual({ status: 200, body: { fallback_timeout_seconds: 5, quiet_hours: null } });
    expect((await m.api('GET', '/v1/account')).body).toEqual({ fallback_timeout_seconds: 5, quiet_hours: null });

    const recipient = '+447911124804';
    await m.simInbound({ channel: 'chat', from: recipient, to: SANDBOX_SENDER, text: 'Hi' });
    try {
      const { id } = await m.send({ channel: 'auto', fallback: ['chat', 'sms'], recipient, content: { text: 'Account default' } });
      const moved = await m.waitForMessage(id, (v) => v.channel_used === 'sms', 'moved to sms after the account default');
      expect(summary(moved)).toEqual(['chat:sent:fallback_timeout', expect.stringMatching(/^sms:(sending|sent)$/)]);
    } finally {
      await m.api('PATCH', '/v1/account', { fallback_timeout_seconds: null });
    }
  }, 30_000);
});
