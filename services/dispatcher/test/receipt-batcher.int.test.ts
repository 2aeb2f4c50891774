import { newId, type UpstreamReceipt } from '@switchboard/domain';
import type { Db, MessageWritesRepository } from '@switchboard/store';
import { createReceiptBatcher } from '../src/processors/receipt-batcher';
import { openMessageStore, type MessageStore } from './support/message-store';

let world: MessageStore;
let db: Db;
let store: MessageWritesRepository;
let accountId: string;

beforeAll(async () => {
  world = await openMessageStore('receipt-batch-test', 6);
  ({ db, store, accountId } = world);
});

afterAll(() => world.close());

const T0 = Date.parse('2025-03-01T10:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

/** A message whose attempt is `sending` (chat) or accepted under its SMSC part ids (sms). */
async function messageInFlight(channel: 'chat' | 'sms', partIds?: string[]) {
  const id = newId('msg');
  await store.persistAccepted({
    id,
    account_id: accountId,
    mode: 'test',
    channel,
    plan: [channel],
    senders: { [channel]: { e164: '+14155550100' } },
    recipient: '+447911123456',
    content: { text: 'hello' },
    cost_units: 1,
    created_at: at(0),
  });
  const started = await store.startAttempt({ messageId: id, channel, sender: '+14155550100', at: new Date(at(1)) });
  if (started.outcome !== 'started') throw new Error('expected a started attempt');
  if (partIds) await store.attemptAccepted({ messageId: id, attemptId: started.attempt.id, upstreamMessageId: partIds[0], partIds, at: new Date(at(2)) });
  return id;
}

const chatReceipt = (id: string, status: 'sent' | 'delivered' | 'read', seconds: number): UpstreamReceipt => ({
  channel: 'chat',
  upstreamMessageId: `wamid.${id}`,
  clientRef: id,
  status,
  carrierStatusCode: status,
  occurredAt: at(seconds),
});

/** Counts the store's batch transactions, so that the test can see receipts of several jobs went together. */
function countingStore() {
  const sizes: number[] = [];
  return {
    sizes,
    applyReceipts: async (receipts: readonly UpstreamReceipt[]) => {
      sizes.push(receipts.length);
      return store.applyReceipts(receipts);
    },
  };
}

async function historyOf(id: string) {
  const transitions = await db.query<{ status: string; sequence: number }>(
    'SELECT status, sequence FROM message_transitions WHERE message_id = $1 ORDER BY sequence',
    [id],
  );
  const events = await db.query<{ type: string }>('SELECT type FROM events WHERE resource_id = $1 ORDER BY sequence', [id]);
  return { transitions: transitions.rows, events: events.rows.map((e) => e.type) };
}

/** A fixed shuffle (no randomness in tests): reverses pairs and interleaves the halves. */
function scramble<T>(items: T[]): T[] {
  const reversed = [...items].reverse();
  const half = Math.ceil(reversed.length / 2);
  return reversed.slice(0, half).flatMap((item, i) => (reversed[half + i] === undefined ? [item] : [item, reversed[half + i]]));
}

describe('receipt batcher', () => {
  it('applies the receipts of many concurrent jobs in few transactions, out of order and duplicated, each event once', async () => {
    const counted = countingStore();
    const batcher = createReceiptBatcher({ store: counted, maxReceipts: 40, waitMs: 5 });
    const ids = await Promise.all(Array.from({ length: 30 }, () => messageInFlight('chat')));
    // Every message gets sent, delivered and read, the read first for half of them, and the delivered twice.
    const receipts = ids.flatMap((id, i) => {
      const all = [chatReceipt(id, 'sent', 3), chatReceipt(id, 'delivered', 4), chatReceipt(id, 'read', 5), chatReceipt(id, 'delivered', 4)];
      return i % 2 === 0 ? all.reverse() : all;
    });
    const jobs = scramble(receipts).reduce<UpstreamReceipt[][]>((groups, r, i) => {
      if (i % 3 === 0) groups.push([]);
      groups[groups.length - 1].push(r);
      return groups;
    }, []);

    const results = await Promise.all(jobs.map((job) => batcher.apply(job)));

    expect(results.flat().every((r) => r.matched)).toBe(true);
    expect(results.map((r, i) => r.length === jobs[i].length)).not.toContain(false);
    expect(counted.sizes.reduce((a, b) => a + b, 0)).toBe(receipts.length);
    expect(counted.sizes.length).toBeLessThan(jobs.length / 3);
    for (const id of ids) {
      const row = await store.findRow(id);
      expect(row).toMatchObject({ status: 'read', channel_used: 'chat' });
      expect(row?.delivered_at).not.toBeNull();
      const { transitions, events } = await historyOf(id);
      transitions.slice(1).forEach((t, i) => expect(t.sequence).toBe(transitions[i].sequence + 1));
      // Whatever the order, no event type twice; a late `sent` only fills its timestamp (the row stays `read`).
      expect(new Set(events).size).toBe(events.length);
      expect(events).toContain('message.read');
    }
    const [attempt] = await store.attempts(ids[0]);
    expect(attempt).toMatchObject({ status: 'read', upstream_message_id: `wamid.${ids[0]}` });
  });

  it('a receipt that makes the batch fail fails only its own job; the others are applied', async () => {
    const counted = countingStore();
    const batcher = createReceiptBatcher({ store: counted, maxReceipts: 100, waitMs: 5 });
    const ids = await Promise.all(Array.from({ length: 5 }, () => messageInFlight('chat')));
    const bad = { ...chatReceipt(ids[0], 'delivered', 4), occurredAt: 'not a time' };

    const outcomes = await Promise.allSettled([batcher.apply([bad]), ...ids.slice(1).map((id) => batcher.apply([chatReceipt(id, 'delivered', 4)]))]);

    expect(outcomes[0].status).toBe('rejected');
    expect(outcomes.slice(1).map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    // The batch of five first, then every job alone.
    expect(counted.sizes).toEqual([5, 1, 1, 1, 1, 1]);
    expect(await store.findRow(ids[0])).toMatchObject({ status: 'sending' });
    for (const id of ids.slice(1)) {
      expect(await store.findRow(id)).toMatchObject({ status: 'delivered' });
      expect((await historyOf(id)).events.filter((type) => type === 'message.delivered')).toHaveLength(1);
    }
  });

  it('combines the parts of a multi-part SMS that arrive in one batch, and an unmatched receipt stays unmatched', async () => {
    const batcher = createReceiptBatcher({ store, maxReceipts: 100, waitMs: 5 });
    const both = await messageInFlight('sms', ['p1-' + newId('x'), 'p2-' + newId('x')]);
    const one = await messageInFlight('sms', ['q1-' + newId('x'), 'q2-' + newId('x')]);
    const [bothAttempt] = await store.attempts(both);
    const [oneAttempt] = await store.attempts(one);
    const part = (partId: string): UpstreamReceipt => ({
      channel: 'sms',
      upstreamMessageId: partId,
      parts: 2,
      status: 'delivered',
      carrierStatusCode: 'DELIVRD',
      occurredAt: at(6),
    });
    const parts = bothAttempt.upstream_part_ids as string[];

    const [a, b, c, d] = await Promise.all([
      batcher.apply([part(parts[1])]),
      batcher.apply([part((oneAttempt.upstream_part_ids as string[])[0])]),
      batcher.apply([part(parts[0])]),
      batcher.apply([part('no-such-part')]),
    ]);

    expect([a[0].matched, b[0].matched, c[0].matched, d[0].matched]).toEqual([true, true, true, false]);
    expect(await store.findRow(both)).toMatchObject({ status: 'delivered' });
    expect(await store.findRow(one)).toMatchObject({ status: 'sent' });
    const [after] = await store.attempts(one);
    expect(Object.values(after.part_statuses)).toEqual(['delivered']);
  });
});
