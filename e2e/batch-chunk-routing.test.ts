import { eventually } from '@switchboard/devstack';
import { startMessagingStack, type MessageView, type MessagingStack } from './messaging-helpers';

/**
 * A batch's messages travel in a chunk, and each still takes the single send's path (docs/messages.md#chunk-lifecycle):
 * `auto` fallback, failure on every channel, throttling and the per-sender limit, whose waits hand a message off to a
 * job of its own. The per-sender limit is low so that a batch of 30 SMS from one sender must wait for it.
 */
const SMS_PER_SECOND = 10;
let m: MessagingStack;

beforeAll(async () => {
  m = await startMessagingStack({}, { sandboxUpstreamFields: { sms: { sender_rate: SMS_PER_SECOND } } });
}, 120_000);

afterAll(async () => {
  await m?.stop();
});

const attemptSummary = (attempts: MessageView['attempts']) => attempts.map((a) => `${a.channel}:${a.status}${a.error_code ? `:${a.error_code}` : ''}`);

async function sendBatch(body: Record<string, unknown>): Promise<{ batchId: string; ids: string[] }> {
  const res = await m.api<{ batch_id: string; results: Array<{ id?: string }> }>('POST', '/v1/messages/batch', body);
  expect(res.status).toBe(202);
  return { batchId: res.body.batch_id, ids: res.body.results.map((r) => r.id as string) };
}

async function metric(outcome: string): Promise<number> {
  const res = await fetch(`${m.stack.services.dispatcher!.url}/metrics`);
  const line = (await res.text()).split('\n').find((l) => l.startsWith('switchboard_dispatcher_sends_total') && l.includes(`outcome="${outcome}"`));
  return line ? Number(line.split(' ').pop()) : 0;
}

it('routes every message of a chunk as a single send: auto fallback, failure on every channel', async () => {
  // Sandbox numbers (docs/sandbox.md#sandbox-numbers): …02 has no RCS, …03 is refused everywhere, …10 behaves normally.
  // No chat window is open, so chat is skipped on `auto`.
  const {
    ids: [noRcs, refused, normal],
  } = await sendBatch({
    channel: 'auto',
    content: { text: 'Spring sale' },
    messages: [{ recipient: '+447911123402' }, { recipient: '+447911123403' }, { recipient: '+447911123410' }],
  });
  const settled = (id: string, statuses: string[]) => m.waitForMessage(id, (msg) => statuses.includes(msg.status), statuses.join(' or '), 60_000);
  expect(attemptSummary((await settled(noRcs, ['delivered'])).attempts)).toEqual([
    'chat:failed:outside_customer_service_window',
    'rcs:failed:recipient_unreachable',
    'sms:delivered',
  ]);
  expect(attemptSummary((await settled(refused, ['failed'])).attempts)).toEqual([
    'chat:failed:outside_customer_service_window',
    'rcs:failed:rejected_by_upstream',
    'sms:failed:rejected_by_upstream',
  ]);
  expect((await settled(normal, ['read'])).channel_used).toBe('rcs');
}, 120_000);

it("holds a chunk's SMS to the sender's limit and to throttling by handing the waiting ones off, and sends each once", async () => {
  const limitedBefore = await metric('sender_rate_limited');
  // 30 plain numbers, and …05, which the SMSC throttles three times before it takes the message.
  const recipients = [...Array.from({ length: 30 }, (_, i) => `+4479111234${10 + i}`), '+447911123405'];
  const { batchId } = await sendBatch({ channel: 'sms', messages: recipients.map((recipient, i) => ({ recipient, content: { text: `limited ${i}` } })) });
  await eventually(
    async () => (await m.api<{ counts: Record<string, number> }>('GET', `/v1/batches/${batchId}`)).body.counts,
    (c) => c.delivered === recipients.length,
    { what: 'every message delivered', timeoutMs: 120_000, intervalMs: 500 },
  );
  expect(await metric('sender_rate_limited')).toBeGreaterThan(limitedBefore);
  const sends = (await m.simSends({ channel: 'sms' })).filter((s) => s.text?.startsWith('limited '));
  const accepted = sends.filter((s) => s.outcome === 'accepted');
  expect(new Set(accepted.map((s) => s.text)).size).toBe(recipients.length);
  expect(accepted.length).toBe(recipients.length);
  expect(sends.filter((s) => s.to === '+447911123405').map((s) => s.outcome)).toEqual(['throttled', 'throttled', 'throttled', 'accepted']);
}, 180_000);
