import { eventually } from '@switchboard/devstack';
import { startMessagingStack, type MessagingStack } from './messaging-helpers';

/**
 * A batch travels as a chunk (docs/messages.md#chunk-lifecycle): its messages are readable, counted and (when
 * scheduled) cancelable from the 202 on, whether the chunk still waits, is part sent or is done; and a
 * dispatcher killed in the middle of a chunk loses none of it and sends none twice. The dispatcher is held
 * with SIGSTOP to look at a chunk at a given point; short lock and stall times let a restarted one take a
 * chunk over quickly. No assertion depends on speed.
 */
let m: MessagingStack;

beforeAll(async () => {
  m = await startMessagingStack({ LOCK_DURATION_MS: '2000', RECONCILE_TIMEOUT_MS: '10000' });
}, 120_000);

afterAll(async () => {
  await m?.stop();
});

/** Recipients …10 to …99 behave normally in the sim (docs/sandbox.md#sandbox-numbers). */
const recipientOf = (i: number) => `+447911${1000 + Math.floor(i / 90)}${10 + (i % 90)}`;

interface BatchAnswer {
  batch_id: string;
  results: Array<{ id: string; status: string }>;
}
interface BatchCounts {
  total: number;
  accepted: number;
  counts: Record<string, number>;
}

async function sendBatch(tag: string, size: number, envelope: Record<string, unknown> = {}): Promise<BatchAnswer> {
  const messages = Array.from({ length: size }, (_, i) => ({ recipient: recipientOf(i), content: { text: `${tag} ${i}` } }));
  const res = await m.api<BatchAnswer>('POST', '/v1/messages/batch', { channel: 'sms', messages, ...envelope });
  expect(res.status).toBe(202);
  return res.body;
}

/** Accepted upstream sends per text of this tag at carrier-sim (the texts are unique, so they name the message). */
async function sendsPerText(tag: string): Promise<Map<string, number>> {
  const perText = new Map<string, number>();
  for (const send of await m.simSends()) {
    if (send.outcome === 'accepted' && send.text?.startsWith(`${tag} `)) perText.set(send.text, (perText.get(send.text) ?? 0) + 1);
  }
  return perText;
}

const counts = async (batchId: string) => (await m.api<BatchCounts>('GET', `/v1/batches/${batchId}`)).body;
const sum = (c: Record<string, number>, ...statuses: string[]) => statuses.reduce((n, s) => n + (c[s] ?? 0), 0);

it('reads, counts and cancels every message of a batch before its chunk is stored, while it is part sent, and after', async () => {
  const dispatcher = m.stack.services.dispatcher!;
  const tag = 'chunk-reads';
  const SIZE = 1_000;
  // A scheduled batch keeps a delayed job per message, cancelable until its time.
  const scheduled = await sendBatch(`${tag}-later`, 2, { send_at: new Date(Date.now() + 3_600_000).toISOString() });
  dispatcher.child.kill('SIGSTOP');
  let batch: BatchAnswer;
  try {
    batch = await sendBatch(tag, SIZE);
    const ids = batch.results.map((r) => r.id);
    const [first, last] = [ids[0], ids[SIZE - 1]];

    // Nothing is stored yet: the chunk in Redis answers for its messages.
    expect((await m.api<{ status: string }>('GET', `/v1/messages/${first}`)).body.status).toBe('queued');
    expect((await m.api<{ status: string }>('GET', `/v1/messages/${last}`)).body.status).toBe('queued');
    expect((await m.api<{ data: Array<{ status: string }> }>('GET', `/v1/messages/${ids[500]}/events`)).body.data.map((t) => t.status)).toEqual(['queued']);
    expect(await counts(batch.batch_id)).toMatchObject({ total: SIZE, accepted: SIZE, counts: expect.objectContaining({ queued: SIZE }) });
    expect((await m.api<{ code: string }>('DELETE', `/v1/messages/${first}`)).body).toMatchObject({ code: 'message_not_cancelable' });
  } finally {
    dispatcher.child.kill('SIGCONT');
  }
  const ids = batch.results.map((r) => r.id);

  // Held again once part of the chunk went out: its first slice holds message 0. Asked by recipient, a light read,
  // so that the hold comes before the chunk is done.
  await eventually(
    () => m.simSends({ to: recipientOf(0) }),
    (sends) => sends.length > 0,
    { what: 'the first slice sent', timeoutMs: 60_000, intervalMs: 5 },
  );
  dispatcher.child.kill('SIGSTOP');
  try {
    // A statement the dispatcher sent just before the hold may still commit: read until two reads agree.
    let midway = await counts(batch.batch_id);
    for (;;) {
      await new Promise((r) => setTimeout(r, 300));
      const again = await counts(batch.batch_id);
      if (JSON.stringify(again.counts) === JSON.stringify(midway.counts)) break;
      midway = again;
    }
    const handedOver = sum(midway.counts, 'sending', 'sent', 'delivered');
    expect(handedOver).toBeGreaterThan(0);
    expect(midway.counts.queued).toBeGreaterThan(0);
    expect(sum(midway.counts, ...Object.keys(midway.counts))).toBe(SIZE);
    // Every message reads, whatever its place in the chunk.
    // Fifty at a time, within the key's request rate limit.
    const statuses: string[] = [];
    for (let i = 0; i < ids.length; i += 50) {
      const reads = await Promise.all(ids.slice(i, i + 50).map((id) => m.api<{ status: string }>('GET', `/v1/messages/${id}`)));
      expect(reads.filter((r) => r.status !== 200)).toEqual([]);
      statuses.push(...reads.map((r) => r.body.status));
    }
    expect(statuses.filter((s) => s === 'queued').length).toBe(midway.counts.queued);
    // Stored with the chunk's first run: listed, in the bulk lane.
    const listed = await m.api<{ data: Array<{ id: string; traffic_class: string }> }>('GET', '/v1/messages?status=queued&traffic_class=bulk&limit=100');
    expect(listed.body.data.length).toBeGreaterThan(0);
    expect(listed.body.data.every((msg) => ids.includes(msg.id))).toBe(true);
    const queuedId = ids[statuses.lastIndexOf('queued')];
    expect((await m.api<{ code: string }>('DELETE', `/v1/messages/${queuedId}`)).status).toBe(409);
    expect((await m.api<{ status: string }>('DELETE', `/v1/messages/${scheduled.results[0].id}`)).body.status).toBe('canceled');
  } finally {
    dispatcher.child.kill('SIGCONT');
  }

  await eventually(
    () => counts(batch.batch_id),
    (c) => c.counts.delivered === SIZE,
    { what: 'every message delivered', timeoutMs: 120_000, intervalMs: 500 },
  );
  expect((await counts(scheduled.batch_id)).counts).toMatchObject({ canceled: 1, scheduled: 1 });
  const perText = await sendsPerText(tag);
  expect(perText.size).toBe(SIZE);
  expect([...perText.values()].every((n) => n === 1)).toBe(true);
}, 240_000);

it('a dispatcher SIGKILLed in the middle of a chunk leaves no message behind and sends none twice', async () => {
  const tag = 'chunk-kill';
  const BATCHES = 3;
  const SIZE = 1_000;
  const batches: BatchAnswer[] = [];
  for (let b = 0; b < BATCHES; b += 1) batches.push(await sendBatch(`${tag}${b}`, SIZE));
  const sent = async () => {
    let n = 0;
    for (let b = 0; b < BATCHES; b += 1) n += (await sendsPerText(`${tag}${b}`)).size;
    return n;
  };
  // Killed once the third slice of a chunk went out (asked by recipient, a light read), so chunks are part sent.
  await eventually(
    () => m.simSends({ to: recipientOf(250) }),
    (sends) => sends.length > 0,
    { what: 'a chunk part sent', timeoutMs: 60_000, intervalMs: 5 },
  );
  await m.stack.services.dispatcher!.kill('SIGKILL');
  const sentAtKill = await sent();
  expect(sentAtKill).toBeLessThan(BATCHES * SIZE);
  await m.stack.startService('dispatcher');

  for (const batch of batches) {
    await eventually(
      () => counts(batch.batch_id),
      (c) => c.counts.delivered === SIZE,
      { what: `batch ${batch.batch_id} delivered`, timeoutMs: 180_000, intervalMs: 500 },
    );
  }
  for (let b = 0; b < BATCHES; b += 1) {
    const perText = await sendsPerText(`${tag}${b}`);
    expect(perText.size).toBe(SIZE);
    expect([...perText.entries()].filter(([, n]) => n !== 1)).toEqual([]);
  }
}, 300_000);
