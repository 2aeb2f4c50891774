import { newId } from '@switchboard/domain';
import { createTestDatabase, testSecretCipher, type TestDatabase } from '@switchboard/devstack';
import { createAccountsRepository, createDb, createMessageWritesRepository, type AcceptedMessage, type Db, type MessageWritesRepository } from '../src';

// The batched send writes (docs/performance/dispatch.md#send-batches) against a real PostgreSQL.
let database: TestDatabase;
let db: Db;
let writes: MessageWritesRepository;
let accountId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ url: database.url, poolSize: 8 });
  writes = createMessageWritesRepository(db);
  accountId = (await createAccountsRepository(db, testSecretCipher(database.url)).ensure('send-batch-test')).id;
});

afterAll(async () => {
  await db.close();
  await database.drop();
});

const T0 = Date.parse('2025-01-01T10:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);
const SENDER = '+14155550100';

function accepted(channel: 'chat' | 'sms' = 'chat'): AcceptedMessage {
  return {
    id: newId('msg'),
    account_id: accountId,
    mode: 'test',
    channel,
    plan: [channel],
    senders: { [channel]: { e164: SENDER } },
    recipient: '+447911123456',
    content: { text: 'hello' },
    metadata: { campaign: 'c1' },
    cost_units: 1,
    created_at: at(0).toISOString(),
  };
}

async function history(id: string) {
  const transitions = await db.query<{ sequence: number; status: string; channel: string | null }>(
    'SELECT sequence, status, channel FROM message_transitions WHERE message_id = $1 ORDER BY sequence',
    [id],
  );
  const events = await db.query<{ type: string; sequence: number; data: { status: string; attempts: Array<{ status: string }> } }>(
    'SELECT type, sequence, data FROM events WHERE resource_id = $1 ORDER BY sequence',
    [id],
  );
  return {
    transitions: transitions.rows,
    events: events.rows.map((e) => ({ type: e.type, sequence: e.sequence, status: e.data.status, attempts: e.data.attempts.map((a) => a.status) })),
  };
}

async function attemptRows(id: string) {
  return (
    await db.query<{ status: string; upstream_message_id: string | null }>('SELECT status, upstream_message_id FROM message_attempts WHERE message_id = $1', [
      id,
    ])
  ).rows;
}

describe('persistAcceptedMany', () => {
  it('inserts every message with its queued history row in one statement, and reads back the ones already there', async () => {
    const [a, b] = [accepted(), accepted('sms')];
    await writes.persistAccepted(a);
    const rows = await writes.persistAcceptedMany([a, b, b]);
    expect(rows.map((r) => [r.id, r.inserted])).toEqual([
      [a.id, false],
      [b.id, true],
      [b.id, false],
    ]);
    expect(rows[1]).toMatchObject({ status: 'queued', sequence: 1, plan: ['sms'], metadata: { campaign: 'c1' }, content: { text: 'hello' } });
    expect((await history(b.id)).transitions).toEqual([{ sequence: 1, status: 'queued', channel: null }]);
  });
});

describe('startAttempts and attemptsAccepted', () => {
  it('gives each message of a batch the history and events one transaction per message gives', async () => {
    const alone = accepted();
    const batched = [accepted(), accepted()];
    await writes.persistAccepted(alone);
    await writes.persistAcceptedMany(batched);

    const single = await writes.startAttempt({ messageId: alone.id, channel: 'chat', sender: SENDER, at: at(1) });
    const started = await writes.startAttempts(batched.map((m) => ({ messageId: m.id, channel: 'chat', sender: SENDER, at: at(1) })));
    expect([single.outcome, ...started.map((s) => s.outcome)]).toEqual(['started', 'started', 'started']);
    if (single.outcome !== 'started') throw new Error('expected a started attempt');
    await writes.attemptAccepted({ messageId: alone.id, attemptId: single.attempt.id, upstreamMessageId: 'up-alone', at: at(2) });
    const acceptedResults = await writes.attemptsAccepted(
      started.map((s, i) => {
        if (s.outcome !== 'started') throw new Error('expected a started attempt');
        return { messageId: batched[i].id, attemptId: s.attempt.id, upstreamMessageId: `up-${i}`, at: at(2) };
      }),
    );
    expect(acceptedResults.map((r) => [r.row.status, r.events.map((e) => e.type)])).toEqual([
      ['sent', ['message.sent']],
      ['sent', ['message.sent']],
    ]);

    const expected = await history(alone.id);
    expect(expected.transitions.map((t) => t.status)).toEqual(['queued', 'sending', 'sent']);
    for (const m of batched) expect(await history(m.id)).toEqual(expected);
    const [row] = (
      await db.query('SELECT status, sequence, channel_used, carrier_status_code, sending_at, sent_at FROM messages WHERE id = $1', [batched[0].id])
    ).rows;
    expect(row).toEqual({ status: 'sent', sequence: 3, channel_used: 'chat', carrier_status_code: 'accepted', sending_at: at(1), sent_at: at(2) });
    expect(await attemptRows(batched[1].id)).toEqual([{ status: 'sent', upstream_message_id: 'up-1' }]);
  });

  it('sends a message given twice in one batch once: the second entry finds the first one sending', async () => {
    const m = accepted();
    await writes.persistAccepted(m);
    const results = await writes.startAttempts([0, 1].map(() => ({ messageId: m.id, channel: 'chat', sender: SENDER, at: at(1) })));
    expect(results.map((r) => r.outcome)).toEqual(['started', 'ambiguous']);
    expect(results[0].outcome === 'started' && results[1].outcome === 'ambiguous' && results[0].attempt.id === results[1].attempt.id).toBe(true);
    expect((await history(m.id)).transitions.map((t) => t.status)).toEqual(['queued', 'sending']);
  });

  it('two batches racing on the same messages, locked in opposite orders, start each message once and never deadlock', async () => {
    const messages = Array.from({ length: 20 }, () => accepted());
    await writes.persistAcceptedMany(messages);
    const inputs = messages.map((m) => ({ messageId: m.id, channel: 'chat', sender: SENDER, at: at(1) }));
    const [first, second] = await Promise.all([writes.startAttempts(inputs), writes.startAttempts([...inputs].reverse())]);
    const secondInOrder = [...second].reverse();
    messages.forEach((_, i) => expect([first[i].outcome, secondInOrder[i].outcome].sort()).toEqual(['ambiguous', 'started']));
    for (const m of messages) {
      expect(await attemptRows(m.id)).toEqual([{ status: 'sending', upstream_message_id: null }]);
      expect((await history(m.id)).transitions.map((t) => t.status)).toEqual(['queued', 'sending']);
    }
  });

  it('a batch with one message that was never persisted writes nothing, and its other messages then start alone', async () => {
    const good = accepted();
    await writes.persistAccepted(good);
    const inputs = [good.id, newId('msg')].map((messageId) => ({ messageId, channel: 'chat', sender: SENDER, at: at(1) }));
    await expect(writes.startAttempts(inputs)).rejects.toThrow(/is not persisted/);
    expect(await attemptRows(good.id)).toEqual([]);
    expect((await writes.startAttempt(inputs[0])).outcome).toBe('started');
  });

  it('leaves a message that was handed off before the guard ran finished', async () => {
    const m = accepted();
    await writes.persistAccepted(m);
    const [started] = await writes.startAttempts([{ messageId: m.id, channel: 'chat', sender: SENDER, at: at(1) }]);
    if (started.outcome !== 'started') throw new Error('expected a started attempt');
    await writes.attemptsAccepted([{ messageId: m.id, attemptId: started.attempt.id, upstreamMessageId: 'up-finished', at: at(2) }]);
    const again = await writes.startAttempts([{ messageId: m.id, channel: 'chat', sender: SENDER, at: at(3) }]);
    expect(again.map((r) => [r.outcome, r.events])).toEqual([['finished', []]]);
  });

  it('records a batch of failures: one message ends, one falls back, one keeps its status for a retry', async () => {
    const messages = [accepted(), accepted(), accepted()];
    await writes.persistAcceptedMany(messages);
    const started = await writes.startAttempts(messages.map((m) => ({ messageId: m.id, channel: 'chat', sender: SENDER, at: at(1) })));
    const attemptId = (i: number) => {
      const s = started[i];
      if (s.outcome !== 'started') throw new Error('expected a started attempt');
      return s.attempt.id;
    };
    const base = (i: number) => ({ messageId: messages[i].id, attemptId: attemptId(i), errorCode: '131026', errorMessage: 'undeliverable', at: at(2) });
    const results = await writes.attemptsFailed([{ ...base(0), finalStatus: 'failed' }, { ...base(1), nextChannel: 'sms' }, base(2)]);
    expect(results.map((r) => [r.row.status, r.events.map((e) => e.type)])).toEqual([
      ['failed', ['message.failed']],
      ['sending', ['message.fallback']],
      ['sending', []],
    ]);
    expect((await history(messages[0].id)).transitions.map((t) => t.status)).toEqual(['queued', 'sending', 'failed']);
    expect((await history(messages[1].id)).transitions.map((t) => t.status)).toEqual(['queued', 'sending', 'fallback']);
    expect((await history(messages[0].id)).events.at(-1)).toMatchObject({ type: 'message.failed', status: 'failed', attempts: ['failed'] });
    for (const m of messages) expect((await attemptRows(m.id)).map((a) => a.status)).toEqual(['failed']);
  });
});

describe('failMessage', () => {
  it('ends a message that never reached an upstream through the set-based writer: the row, one history row, one event; a second call changes nothing', async () => {
    const m = accepted();
    await writes.persistAccepted(m);
    const ended = await writes.failMessage({
      messageId: m.id,
      status: 'undelivered',
      errorCode: 'ttl_expired',
      errorMessage: 'the message expired',
      at: at(5),
    });
    expect([ended.changed, ended.row.status, ended.row.error_code, ended.row.carrier_status_code, ended.row.sequence, ended.events.map((e) => e.type)]).toEqual(
      [true, 'undelivered', 'ttl_expired', 'ttl_expired', 2, ['message.failed']],
    );
    expect(await writes.findRow(m.id)).toMatchObject({ status: 'undelivered', error_message: 'the message expired', sequence: 2 });
    expect((await history(m.id)).transitions.map((t) => t.status)).toEqual(['queued', 'undelivered']);
    expect((await history(m.id)).events).toEqual([{ type: 'message.failed', sequence: 2, status: 'undelivered', attempts: [] }]);
    const again = await writes.failMessage({
      messageId: m.id,
      status: 'undelivered',
      errorCode: 'ttl_expired',
      errorMessage: 'the message expired',
      at: at(6),
    });
    expect([again.changed, again.events]).toEqual([false, []]);
  });

  it('refuses a message that was never persisted', async () => {
    await expect(writes.failMessage({ messageId: newId('msg'), status: 'failed', errorCode: 'x', errorMessage: 'x', at: at(1) })).rejects.toThrow(
      /is not persisted/,
    );
  });
});
