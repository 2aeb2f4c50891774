import { newId } from '@switchboard/domain';
import { createTestDatabase, testSecretCipher, type TestDatabase } from '@switchboard/devstack';
import {
  createAccountsRepository,
  createDb,
  createMessageTimersRepository,
  createMessageWritesRepository,
  type Db,
  type MessageTimersRepository,
  type MessageWritesRepository,
} from '../src';

let database: TestDatabase;
let db: Db;
let writes: MessageWritesRepository;
let timers: MessageTimersRepository;
let accountId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ url: database.url, poolSize: 4 });
  writes = createMessageWritesRepository(db);
  timers = createMessageTimersRepository(db);
  accountId = (await createAccountsRepository(db, testSecretCipher(database.url)).ensure('timers-test')).id;
});

afterAll(async () => {
  await db.close();
  await database.drop();
});

const T0 = Date.parse('2025-01-01T10:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);

/** An `auto` message sent on chat under upstream id `wamid`. */
async function sentOnChat(wamid: string) {
  const id = newId('msg');
  await writes.persistAccepted({
    id,
    account_id: accountId,
    mode: 'test',
    channel: 'auto',
    plan: ['chat', 'sms'],
    senders: { chat: { e164: '+14155550100' }, sms: { e164: '+14155550100' } },
    recipient: '+447911123404',
    content: { text: 'hello' },
    cost_units: 1,
    created_at: at(0).toISOString(),
  });
  const started = await writes.startAttempt({ messageId: id, channel: 'chat', sender: '+14155550100', at: at(1) });
  if (started.outcome !== 'started') throw new Error('expected a started attempt');
  await writes.attemptAccepted({ messageId: id, attemptId: started.attempt.id, upstreamMessageId: wamid, at: at(2) });
  return { id, attemptId: started.attempt.id };
}

const chatReceipt = (wamid: string, status: 'delivered' | 'read') => ({
  channel: 'chat' as const,
  upstreamMessageId: wamid,
  status,
  carrierStatusCode: status,
  occurredAt: at(30).toISOString(),
});

describe('fallback timeout', () => {
  it('leaves the attempt once, records message.fallback, and lets the next channel start', async () => {
    const { id, attemptId } = await sentOnChat('wamid.t1');
    const first = await timers.abandonForFallback({ messageId: id, attemptId, nextChannel: 'sms', timeoutSeconds: 5, at: at(7) });
    expect(first.abandoned).toBe(true);
    expect(first.events.map((e) => e.type)).toEqual(['message.fallback']);
    const again = await timers.abandonForFallback({ messageId: id, attemptId, nextChannel: 'sms', timeoutSeconds: 5, at: at(8) });
    expect(again).toEqual({ abandoned: true, events: [] });

    const next = await writes.startAttempt({ messageId: id, channel: 'sms', sender: '+14155550100', attemptRef: 3, at: at(9) });
    expect(next.outcome).toBe('started');
  });

  it('does nothing to a delivered message', async () => {
    const { id, attemptId } = await sentOnChat('wamid.t2');
    await writes.applyReceipt(chatReceipt('wamid.t2', 'delivered'));
    expect(await timers.abandonForFallback({ messageId: id, attemptId, nextChannel: 'sms', timeoutSeconds: 5, at: at(7) })).toEqual({
      abandoned: false,
      events: [],
    });
    expect((await writes.startAttempt({ messageId: id, channel: 'sms', sender: '+14155550100', at: at(9) })).outcome).toBe('finished');
  });

  it('keeps a late receipt of the abandoned attempt off the message', async () => {
    const { id, attemptId } = await sentOnChat('wamid.t3');
    await timers.abandonForFallback({ messageId: id, attemptId, nextChannel: 'sms', timeoutSeconds: 5, at: at(7) });
    const late = await writes.applyReceipt(chatReceipt('wamid.t3', 'delivered'));
    expect(late).toMatchObject({ matched: true, events: [] });
    expect(await writes.findRow(id)).toMatchObject({ status: 'sent', delivered_at: null });
    expect((await writes.attempts(id))[0]).toMatchObject({ status: 'delivered', error_code: 'fallback_timeout' });
  });
});

describe('expiry', () => {
  it('ends a sent message undelivered / expired once, and a later receipt stays on the attempt', async () => {
    const { id } = await sentOnChat('wamid.t4');
    const expired = await timers.expireMessage({ messageId: id, ttlSeconds: 3, at: at(3) });
    expect(expired.expired).toBe(true);
    expect(expired.events.map((e) => e.type)).toEqual(['message.failed']);
    expect(await timers.expireMessage({ messageId: id, ttlSeconds: 3, at: at(4) })).toEqual({ expired: false, events: [] });

    await writes.applyReceipt(chatReceipt('wamid.t4', 'read'));
    expect(await writes.findRow(id)).toMatchObject({ status: 'undelivered', error_code: 'expired', delivered_at: null, read_at: null });
    expect((await writes.attempts(id))[0].status).toBe('read');
  });

  it('leaves a delivered message alone', async () => {
    const { id } = await sentOnChat('wamid.t5');
    await writes.applyReceipt(chatReceipt('wamid.t5', 'delivered'));
    expect(await timers.expireMessage({ messageId: id, ttlSeconds: 3, at: at(40) })).toEqual({ expired: false, events: [] });
    expect((await writes.findRow(id))?.status).toBe('delivered');
  });
});
