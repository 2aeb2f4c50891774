import { countSmsSegments } from '@switchboard/domain';
import { reached, SANDBOX_SENDER, startMessagingStack, type MessagingStack } from './messaging-helpers';

/**
 * Each channel end to end through real processes: gateway → queue → dispatcher → carrier-sim → upstream
 * receipts (chat and RBM webhooks through the gateway, SMPP deliver_sm on the dispatcher's own bind) →
 * `GET /v1/messages/{id}`. The sim's behaviour is chosen by the recipient's last two digits (docs/sandbox.md#sandbox-numbers).
 */
let m: MessagingStack;

beforeAll(async () => {
  m = await startMessagingStack();
}, 60_000);

afterAll(async () => {
  await m?.stop();
});

const attemptSummary = (attempts: Array<{ channel: string; status: string; error_code: string | null }>) =>
  attempts.map((a) => `${a.channel}:${a.status}${a.error_code ? `:${a.error_code}` : ''}`);

describe('messaging end to end', () => {
  it('chat: free-form text inside the customer service window is read', async () => {
    const recipient = '+447911123410';
    await m.simInbound({ channel: 'chat', from: recipient, to: SANDBOX_SENDER, text: 'Hi, where is my order?' });
    const { id } = await m.send({ channel: 'chat', recipient, content: { text: 'It ships today.' } });

    const done = await m.waitForMessage(id, reached('read'), 'read');
    expect(done).toMatchObject({ channel: 'chat', channel_used: 'chat', error: null });
    expect([done.sent_at, done.delivered_at, done.read_at].every(Boolean)).toBe(true);
    expect(await m.simSends({ channel: 'chat', client_ref: id })).toEqual([expect.objectContaining({ outcome: 'accepted', text: 'It ships today.' })]);

    const history = await m.api<{ data: Array<{ sequence: number; status: string }> }>('GET', `/v1/messages/${id}/events`);
    expect(history.body.data.map((t) => t.status)).toEqual(['queued', 'sending', 'sent', 'delivered', 'read']);
    const sequences = history.body.data.map((t) => t.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    expect(new Set(sequences).size).toBe(sequences.length);
  });

  it('sms: a long UCS-2 text goes out in concatenated parts, is priced per part and delivered', async () => {
    const recipient = '+447911123411';
    const text = 'Ваш заказ №4821 принят. Курьер приедет завтра между 10:00 и 14:00. Спасибо, что выбрали нас! 📦';
    const parts = countSmsSegments(text);
    expect(parts).toBeGreaterThan(1);
    const { id, cost_units } = await m.send({ channel: 'sms', recipient, content: { text } });
    expect(cost_units).toBe(parts);

    const done = await m.waitForMessage(id, reached('delivered'), 'delivered');
    expect(done).toMatchObject({ channel_used: 'sms', cost_units: parts, carrier_status_code: expect.stringContaining('DELIVRD') });
    expect(done.sent_at && done.delivered_at).toBeTruthy();
    const sends = await m.simSends({ channel: 'sms', to: recipient });
    expect(sends).toEqual([expect.objectContaining({ outcome: 'accepted', parts, text })]);
  });

  it('rcs: text is delivered and read', async () => {
    const { id } = await m.send({ channel: 'rcs', recipient: '+447911123412', content: { text: 'Your table is ready.' } });
    const done = await m.waitForMessage(id, reached('read'), 'read');
    expect(done).toMatchObject({ channel_used: 'rcs', attempts: [expect.objectContaining({ channel: 'rcs', status: 'read' })] });
    expect([done.sent_at, done.delivered_at, done.read_at].every(Boolean)).toBe(true);
  });

  it('auto: a number that is not a chat user (…01) falls back to rcs', async () => {
    // The customer wrote first, so the window is open and chat stays in the plan; the upstream then says 131026.
    await m.simInbound({ channel: 'chat', from: '+447911123401', to: SANDBOX_SENDER, text: 'Hello?' });
    const { id } = await m.send({ channel: 'auto', recipient: '+447911123401', content: { text: 'Fallback to RCS' } });
    const done = await m.waitForMessage(id, reached('read'), 'read over rcs');
    expect(done.channel_used).toBe('rcs');
    expect(attemptSummary(done.attempts)).toEqual(['chat:failed:recipient_unreachable', 'rcs:read']);
    const history = await m.api<{ data: Array<{ status: string }> }>('GET', `/v1/messages/${id}/events`);
    expect(history.body.data.map((t) => t.status)).toEqual(['queued', 'sending', 'fallback', 'sent', 'delivered', 'read']);
  });

  it('auto: a number without RCS (…02) and no open chat window ends on sms', async () => {
    const { id } = await m.send({
      channel: 'auto',
      recipient: '+447911123402',
      content: {
        type: 'interactive',
        interactive: {
          type: 'button',
          body: { text: 'Keep the appointment?' },
          action: {
            buttons: [
              { type: 'reply', reply: { id: 'y', title: 'Yes' } },
              { type: 'reply', reply: { id: 'n', title: 'No' } },
            ],
          },
        },
      },
    });
    const done = await m.waitForMessage(id, reached('delivered'), 'delivered over sms');
    expect(done.channel_used).toBe('sms');
    // The window is closed: chat is skipped, and the switch is recorded like any other (docs/messages.md#auto-fallback).
    expect(attemptSummary(done.attempts)).toEqual(['chat:failed:outside_customer_service_window', 'rcs:failed:recipient_unreachable', 'sms:delivered']);
    expect(await m.simSends({ channel: 'chat', to: '+447911123402' })).toEqual([]);
    // Interactive content travels to SMS rendered as text: the body, then numbered options (docs/messages.md#auto-fallback).
    expect(await m.simSends({ channel: 'sms', to: '+447911123402' })).toEqual([expect.objectContaining({ text: 'Keep the appointment?\n1. Yes\n2. No' })]);
  });

  it('a number every upstream rejects (…03) ends failed after trying each channel', async () => {
    await m.simInbound({ channel: 'chat', from: '+447911123403', to: SANDBOX_SENDER, text: 'Hello?' });
    const { id } = await m.send({ channel: 'auto', recipient: '+447911123403', content: { text: 'Nobody takes this' } });
    const done = await m.waitForMessage(id, reached('failed'), 'failed');
    expect(done.error).toEqual({ code: 'rejected_by_upstream', message: expect.stringContaining('sms upstream answered') });
    expect(attemptSummary(done.attempts)).toEqual(['chat:failed:rejected_by_upstream', 'rcs:failed:rejected_by_upstream', 'sms:failed:rejected_by_upstream']);
  });

  it('a throttled number (…05) is delayed, not failed, and then delivered', async () => {
    const recipient = '+447911123405';
    const { id } = await m.send({ channel: 'sms', recipient, content: { text: 'Throttled, then delivered' } });
    const done = await m.waitForMessage(id, reached('delivered'), 'delivered after throttling');
    expect(attemptSummary(done.attempts)).toEqual(['sms:delivered']);
    const outcomes = (await m.simSends({ channel: 'sms', to: recipient })).map((s) => s.outcome);
    expect(outcomes).toEqual(['throttled', 'throttled', 'throttled', 'accepted']);
  });
});
