import { newId } from '@switchboard/domain';
import type { AcceptedMessage, MessageWritesRepository, StartAttemptInput } from '@switchboard/store';
import { createBatchedSendStore } from '../src/dispatch/batched-send-store';
import { openMessageStore, type MessageStore } from './support/message-store';

// The send writes of concurrent jobs gathered into batches (docs/performance/dispatch.md#send-batches), on a real PostgreSQL.
let world: MessageStore;
let store: MessageWritesRepository;
let accountId: string;

beforeAll(async () => {
  world = await openMessageStore('send-batch-store-test', 6);
  ({ store, accountId } = world);
});

afterAll(() => world.close());

const T0 = Date.parse('2025-03-01T10:00:00.000Z');
const SENDER = '+14155550100';

function accepted(): AcceptedMessage {
  return {
    id: newId('msg'),
    account_id: accountId,
    mode: 'test',
    channel: 'chat',
    plan: ['chat'],
    senders: { chat: { e164: SENDER } },
    recipient: '+447911123456',
    content: { text: 'hello' },
    cost_units: 1,
    created_at: new Date(T0).toISOString(),
  };
}

const guardInput = (messageId: string): StartAttemptInput => ({ messageId, channel: 'chat', sender: SENDER, at: new Date(T0 + 1000) });

/** The store, with the size of every batch transaction it was asked for. */
function countingStore() {
  const guardBatches: number[] = [];
  const persistBatches: number[] = [];
  return {
    guardBatches,
    persistBatches,
    store: {
      ...store,
      persistAcceptedMany: (messages: readonly AcceptedMessage[]) => {
        persistBatches.push(messages.length);
        return store.persistAcceptedMany(messages);
      },
      startAttempts: (inputs: readonly StartAttemptInput[]) => {
        guardBatches.push(inputs.length);
        return store.startAttempts(inputs);
      },
    },
  };
}

describe('batched send store', () => {
  it('writes the persists and guards of jobs running together as one batch each', async () => {
    const counting = countingStore();
    const batched = createBatchedSendStore(counting.store, { maxBatch: 10, waitMs: 20 });
    const messages = Array.from({ length: 10 }, accepted);
    const persisted = await Promise.all(messages.map((m) => batched.persistAccepted(m)));
    expect(persisted.map((row) => row.inserted)).toEqual(messages.map(() => true));
    const started = await Promise.all(messages.map((m) => batched.startAttempt(guardInput(m.id))));
    expect(started.map((s) => s.outcome)).toEqual(messages.map(() => 'started'));
    expect(counting.persistBatches).toEqual([10]);
    expect(counting.guardBatches).toEqual([10]);
  });

  it('a batch with one bad job falls back to one transaction per job: only the bad job fails', async () => {
    const counting = countingStore();
    const batched = createBatchedSendStore(counting.store, { maxBatch: 10, waitMs: 20 });
    const good = [accepted(), accepted()];
    await store.persistAcceptedMany(good);
    const outcomes = await Promise.allSettled([good[0].id, newId('msg'), good[1].id].map((id) => batched.startAttempt(guardInput(id))));
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value.outcome : String(o.reason)))).toEqual([
      'started',
      expect.stringMatching(/is not persisted/),
      'started',
    ]);
    expect(counting.guardBatches).toEqual([3]);
  });

  it('two jobs of one message in one batch send it once', async () => {
    const batched = createBatchedSendStore(store, { maxBatch: 10, waitMs: 20 });
    const m = accepted();
    await store.persistAccepted(m);
    const results = await Promise.all([batched.startAttempt(guardInput(m.id)), batched.startAttempt(guardInput(m.id))]);
    expect(results.map((r) => r.outcome).sort()).toEqual(['ambiguous', 'started']);
  });

  it('with SEND_BATCH_MAX=1 each job writes alone', async () => {
    const counting = countingStore();
    const batched = createBatchedSendStore(counting.store, { maxBatch: 1 });
    const m = accepted();
    expect((await batched.persistAccepted(m)).inserted).toBe(true);
    expect((await batched.startAttempt(guardInput(m.id))).outcome).toBe('started');
    expect([counting.persistBatches, counting.guardBatches]).toEqual([[], []]);
  });
});
