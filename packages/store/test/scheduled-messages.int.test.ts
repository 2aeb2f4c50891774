import { newId } from '@switchboard/domain';
import { createTestDatabase, testSecretCipher, type TestDatabase } from '@switchboard/devstack';
import {
  createAccountsRepository,
  createDb,
  createMessageWritesRepository,
  createScheduledMessagesRepository,
  type AcceptedMessage,
  type Db,
  type MessageWritesRepository,
  type ScheduledMessagesRepository,
} from '../src';

// The message row decides between a cancel (or an early expiry) and the dispatcher
// (docs/messages.md#canceling-a-scheduled-message, docs/routing.md#ttl).
let database: TestDatabase;
let db: Db;
let writes: MessageWritesRepository;
let scheduled: ScheduledMessagesRepository;
let accountId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ url: database.url, poolSize: 6 });
  writes = createMessageWritesRepository(db);
  scheduled = createScheduledMessagesRepository(db);
  accountId = (await createAccountsRepository(db, testSecretCipher(database.url)).ensure('scheduled-test')).id;
});

afterAll(async () => {
  await db.close();
  await database.drop();
});

const at = (seconds: number) => new Date(Date.parse('2025-01-01T10:00:00.000Z') + seconds * 1000);

function message(): AcceptedMessage {
  return {
    id: newId('msg'),
    account_id: accountId,
    mode: 'test',
    channel: 'sms',
    plan: ['sms'],
    senders: { sms: { e164: '+14155550100' } },
    recipient: '+447911123404',
    content: { text: 'later' },
    cost_units: 1,
    ttl_seconds: 60,
    created_at: at(0).toISOString(),
  };
}

describe('scheduled messages', () => {
  it('a cancel that comes first ends the message, and the dispatcher’s run afterwards sends nothing', async () => {
    const m = message();
    const canceled = await scheduled.cancelScheduled({ message: m, at: at(5) });
    expect(canceled.outcome).toBe('canceled');
    if (canceled.outcome !== 'canceled') return;
    expect(canceled.row).toMatchObject({ status: 'canceled', sequence: 2 });
    expect(canceled.events.map((e) => e.type)).toEqual(['message.canceled']);
    // The dispatcher's insert finds the row; its send guard finds the message ended.
    expect((await writes.persistAccepted(m)).status).toBe('canceled');
    expect((await writes.startAttempt({ messageId: m.id, channel: 'sms', sender: '+14155550100', at: at(6) })).outcome).toBe('finished');
    expect(await writes.attempts(m.id)).toEqual([]);
    // Canceling again changes nothing.
    expect((await scheduled.cancelScheduled({ message: m, at: at(7) })).outcome).toBe('not_cancelable');
  });

  it('a message the dispatcher stored first is not cancelable and stays as it was', async () => {
    const m = message();
    await writes.persistAccepted(m);
    const result = await scheduled.cancelScheduled({ message: m, at: at(5) });
    expect(result).toMatchObject({ outcome: 'not_cancelable', row: { status: 'queued' } });
  });

  it('cancels and dispatcher runs racing on many messages: each ends either canceled and unsent, or sent and not canceled', async () => {
    const messages = Array.from({ length: 20 }, message);
    const outcomes = await Promise.all(
      messages.map(async (m) => {
        const [cancel, started] = await Promise.all([
          scheduled.cancelScheduled({ message: m, at: at(5) }),
          (async () => {
            await writes.persistAccepted(m);
            return writes.startAttempt({ messageId: m.id, channel: 'sms', sender: '+14155550100', at: at(5) });
          })(),
        ]);
        return { cancel: cancel.outcome, send: started.outcome };
      }),
    );
    for (const o of outcomes) expect([o.cancel, o.send].sort()).toEqual(o.cancel === 'canceled' ? ['canceled', 'finished'] : ['not_cancelable', 'started']);
  });

  it('expires a message still unstored at its TTL, and leaves a stored one to the ordinary expiry', async () => {
    const waiting = message();
    const expired = await scheduled.expireScheduled({ message: waiting, ttlSeconds: 60, at: at(60) });
    expect(expired).toMatchObject({ stored: true, expired: true });
    expect(expired.events.map((e) => e.type)).toEqual(['message.failed']);
    const row = await writes.findRow(waiting.id);
    expect(row).toMatchObject({ status: 'undelivered', error_code: 'expired' });

    const stored = message();
    await writes.persistAccepted(stored);
    expect(await scheduled.expireScheduled({ message: stored, ttlSeconds: 60, at: at(60) })).toEqual({ stored: false, expired: false, events: [] });
  });
});
