import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { MESSAGE_SEND_QUEUE } from '@switchboard/queues';
import { reached, startMessagingStack, type MessagingStack } from './messaging-helpers';

/**
 * Contract §3, end to end: one Idempotency-Key gives at most one dispatch to the upstream. The gateway
 * test counts jobs; this one counts what reached the carrier simulator and what the store holds.
 */
let m: MessagingStack;

beforeAll(async () => {
  m = await startMessagingStack();
}, 60_000);

afterAll(async () => {
  await m?.stop();
});

async function post(idempotencyKey: string, body: Record<string, unknown>): Promise<{ status: number; text: string; replayed: string | null }> {
  const res = await fetch(`${m.stack.baseUrl}/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${m.key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text(), replayed: res.headers.get('idempotent-replayed') };
}

describe('Idempotency-Key end to end', () => {
  it('turns 50 concurrent identical requests into one message and one upstream send', async () => {
    const recipient = '+447911123420';
    const body = { channel: 'sms', recipient, content: { text: `burst ${randomUUID()}` } };
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 50 }, () => post(key, body)));
    expect(answers.every((a) => a.status === 202 || a.status === 409)).toBe(true);
    const ids = new Set(answers.filter((a) => a.status === 202).map((a) => (JSON.parse(a.text) as { id: string }).id));
    expect(ids.size).toBe(1);
    const [id] = [...ids];

    await m.waitForMessage(id, reached('delivered'), 'delivered');
    // Replayed after the fact: the first answer, byte for byte.
    const first = answers.find((a) => a.status === 202 && a.replayed === null);
    const replay = await post(key, body);
    expect(replay).toMatchObject({ status: 202, replayed: 'true' });
    if (first) expect(replay.text).toBe(first.text);

    // Once BullMQ has dropped the finished job, the stored message still proves the key was honoured.
    const queue = new Queue(MESSAGE_SEND_QUEUE.name, { connection: { url: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' }, prefix: m.stack.prefix });
    try {
      await queue.remove(id);
      expect(await queue.getJob(id)).toBeUndefined();
    } finally {
      await queue.close();
    }
    const afterRemoval = await post(key, body);
    expect(afterRemoval).toMatchObject({ status: 202, replayed: 'true' });
    if (first) expect(afterRemoval.text).toBe(first.text);

    const sends = await m.simSends({ channel: 'sms', to: recipient });
    expect(sends.filter((s) => s.outcome === 'accepted')).toHaveLength(1);
    const listed = await m.api<{ data: Array<{ id: string }> }>('GET', `/v1/messages?recipient=${encodeURIComponent(recipient)}`);
    expect(listed.body.data.map((x) => x.id)).toEqual([id]);
  });
});
