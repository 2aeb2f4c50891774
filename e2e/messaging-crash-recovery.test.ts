import { eventually } from '@switchboard/devstack';
import { SANDBOX_SENDER, startMessagingStack, type MessagingStack, type SimSend } from './messaging-helpers';

/**
 * At-most-once dispatch across a crash (docs/architecture.md#exactly-once-dispatch): the dispatcher is SIGKILLed while it has sends in
 * flight, a new one takes over the stalled jobs, and every message still ends delivered or read with
 * exactly one accepted upstream send. Short lock and stall times keep the takeover quick. The reconcile time is
 * the upstream's budget for reporting a send (counted from when the new dispatcher can read receipts), so it is
 * kept well above a loaded machine's receipt latency: under it, a resend is the documented duplicate window, not a
 * bug. The waits are generous because the machine may be loaded; no assertion depends on speed.
 */
const MESSAGES = 210;
const CHANNELS = ['sms', 'rcs', 'chat'] as const;

let m: MessagingStack;

beforeAll(async () => {
  m = await startMessagingStack({
    DISPATCH_CONCURRENCY: '16',
    LOCK_DURATION_MS: '2000',
    RECONCILE_TIMEOUT_MS: '10000',
  });
}, 120_000);

afterAll(async () => {
  await m?.stop();
});

/** Recipients …10 to …99 behave normally in the sim (docs/sandbox.md#sandbox-numbers). */
const recipientOf = (i: number) => `+4479111234${String(10 + (i % 90)).padStart(2, '0')}`;
const textOf = (i: number) => `crash-recovery message ${i}`;

it('a dispatcher killed mid-run leaves no message behind and none sent twice', async () => {
  const plan = Array.from({ length: MESSAGES }, (_, i) => ({ i, channel: CHANNELS[i % CHANNELS.length], recipient: recipientOf(i), text: textOf(i) }));
  // Free-form chat needs the customer to have written first (docs/chat.md#the-24-hour-customer-service-window).
  const chatRecipients = [...new Set(plan.filter((p) => p.channel === 'chat').map((p) => p.recipient))];
  for (const recipient of chatRecipients) await m.simInbound({ channel: 'chat', from: recipient, to: SANDBOX_SENDER, text: 'hi' });

  const accepted = async () => (await m.simSends()).filter((s) => s.outcome === 'accepted' && s.text?.startsWith('crash-recovery'));
  const ids: string[] = [];
  const sending = (async () => {
    for (let start = 0; start < plan.length; start += 30) {
      const batch = plan.slice(start, start + 30);
      const created = await Promise.all(batch.map((p) => m.send({ channel: p.channel, recipient: p.recipient, content: { text: p.text } })));
      ids.push(...created.map((c) => c.id));
    }
  })();

  // Kill as soon as the first sends went out, while the rest are queued or in flight.
  await eventually(accepted, (sends) => sends.length >= 15, { what: 'first sends', timeoutMs: 60_000, intervalMs: 10 });
  await m.stack.services.dispatcher?.kill('SIGKILL');
  const acceptedAtKill = (await accepted()).length;
  await sending;
  expect(acceptedAtKill).toBeLessThan(MESSAGES);

  await m.stack.startService('dispatcher');

  const final = await eventually(
    async () => Promise.all(ids.map((id) => m.message(id))),
    (messages) => messages.every((msg) => (msg.channel === 'sms' ? msg.status === 'delivered' : msg.status === 'read')),
    { what: 'every message delivered (sms) or read (chat, rcs)', timeoutMs: 150_000, intervalMs: 250 },
  );
  expect(final.filter((msg) => msg.channel_used !== msg.channel)).toEqual([]);

  // Exactly one accepted upstream send per message: the texts are unique, so they name the message.
  const perText = new Map<string, SimSend[]>();
  for (const send of await accepted()) perText.set(send.text as string, [...(perText.get(send.text as string) ?? []), send]);
  expect(plan.filter((p) => perText.get(p.text)?.length !== 1).map((p) => ({ text: p.text, sends: perText.get(p.text)?.length ?? 0 }))).toEqual([]);
  const byId = new Map(ids.map((id, i) => [id, plan[i]]));
  for (const msg of final.filter((f) => f.channel !== 'sms')) {
    expect((await m.simSends({ client_ref: msg.id })).filter((s) => s.outcome === 'accepted')).toEqual([
      expect.objectContaining({ text: byId.get(msg.id)?.text }),
    ]);
  }

  // Every history is in order: strictly increasing sequence, each status once, starting queued → sending.
  // `sent` may be missing: a send whose acceptance died with the process is known only by its receipts.
  for (const msg of final) {
    const history = await m.api<{ data: Array<{ sequence: number; status: string }> }>('GET', `/v1/messages/${msg.id}/events`);
    const sequences = history.body.data.map((t) => t.sequence);
    const statuses = history.body.data.map((t) => t.status);
    expect(sequences.slice(1).every((s, k) => s > sequences[k])).toBe(true);
    expect(statuses.slice(0, 2)).toEqual(['queued', 'sending']);
    expect(new Set(statuses).size).toBe(statuses.length);
    expect(statuses).toContain(msg.status);
    expect(statuses.filter((s) => !['queued', 'sending', 'sent', 'delivered', 'read'].includes(s))).toEqual([]);
  }
}, 300_000);
