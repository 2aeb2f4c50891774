import { newId, type UpstreamReceipt } from '@switchboard/domain';
import { createTestDatabase, testSecretCipher, type TestDatabase } from '@switchboard/devstack';
import { createAccountsRepository, createDb, createMessageWritesRepository, type Db, type MessageWritesRepository } from '../src';

let database: TestDatabase;
let db: Db;
let writes: MessageWritesRepository;
let accountId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ url: database.url, poolSize: 8 });
  writes = createMessageWritesRepository(db);
  accountId = (await createAccountsRepository(db, testSecretCipher(database.url)).ensure('receipts-test')).id;
});

afterAll(async () => {
  await db.close();
  await database.drop();
});

const T0 = Date.parse('2025-01-01T10:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);

async function acceptedMessage(channel: 'chat' | 'sms' | 'rcs', recipient = '+447911123456') {
  const id = newId('msg');
  await writes.persistAccepted({
    id,
    account_id: accountId,
    mode: 'test',
    channel,
    plan: [channel],
    senders: { [channel]: { e164: '+14155550100' } },
    recipient,
    content: { text: 'hello' },
    cost_units: 1,
    created_at: at(0).toISOString(),
  });
  return id;
}

/** A message whose attempt the upstream accepted under `upstreamId`. */
async function sentMessage(channel: 'chat' | 'sms' | 'rcs', upstreamId: string) {
  const id = await acceptedMessage(channel);
  const started = await writes.startAttempt({ messageId: id, channel, sender: '+14155550100', at: at(1) });
  if (started.outcome !== 'started') throw new Error('expected a started attempt');
  await writes.attemptAccepted({ messageId: id, attemptId: started.attempt.id, upstreamMessageId: upstreamId, at: at(2) });
  return { id, attemptId: started.attempt.id };
}

const receipt = (over: Partial<UpstreamReceipt> & Pick<UpstreamReceipt, 'upstreamMessageId' | 'status'>): UpstreamReceipt => ({
  channel: 'chat',
  carrierStatusCode: over.status,
  occurredAt: at(5).toISOString(),
  ...over,
});

async function history(id: string) {
  const transitions = await db.query<{ sequence: number; status: string }>(
    'SELECT sequence, status FROM message_transitions WHERE message_id = $1 ORDER BY sequence',
    [id],
  );
  const events = await db.query<{ type: string; sequence: number }>('SELECT type, sequence FROM events WHERE resource_id = $1 ORDER BY sequence', [id]);
  return { transitions: transitions.rows, events: events.rows };
}

function expectStrictlyIncreasing(values: number[]) {
  values.slice(1).forEach((v, i) => expect(v).toBeGreaterThan(values[i]));
}

describe('applyReceipt out of order', () => {
  it('read before delivered: ends read, fills delivered_at, one transition and one event per change', async () => {
    const { id } = await sentMessage('chat', 'wamid.read-first');
    await writes.applyReceipt(receipt({ upstreamMessageId: 'wamid.read-first', status: 'read', occurredAt: at(7).toISOString() }));
    const late = await writes.applyReceipt(receipt({ upstreamMessageId: 'wamid.read-first', status: 'delivered', occurredAt: at(6).toISOString() }));

    expect(late.matched).toBe(true);
    const row = await writes.findRow(id);
    expect(row).toMatchObject({ status: 'read', carrier_status_code: 'read' });
    expect(row?.sent_at).toEqual(at(2));
    expect(row?.delivered_at).toEqual(at(6));
    expect(row?.read_at).toEqual(at(7));

    const { transitions, events } = await history(id);
    expect(transitions.map((t) => t.status)).toEqual(['queued', 'sending', 'sent', 'read', 'delivered']);
    expectStrictlyIncreasing(transitions.map((t) => t.sequence));
    expect(events.map((e) => e.type)).toEqual(['message.sent', 'message.read', 'message.delivered']);
    expect(events.map((e) => e.sequence)).toEqual(transitions.slice(2).map((t) => t.sequence));
    expect(row?.sequence).toBe(transitions[transitions.length - 1].sequence);
  });

  it('delivered before the send recorded its acceptance: matched by clientRef, sent_at filled later', async () => {
    const id = await acceptedMessage('chat');
    const started = await writes.startAttempt({ messageId: id, channel: 'chat', sender: '+14155550100', at: at(1) });
    if (started.outcome !== 'started') throw new Error('expected a started attempt');

    const early = await writes.applyReceipt(receipt({ upstreamMessageId: 'wamid.early', clientRef: id, status: 'delivered', carrierStatusCode: 'delivered' }));
    expect(early).toMatchObject({ matched: true, messageId: id });
    await writes.attemptAccepted({ messageId: id, attemptId: started.attempt.id, upstreamMessageId: 'wamid.early', at: at(6) });

    const row = await writes.findRow(id);
    expect(row).toMatchObject({ status: 'delivered', carrier_status_code: 'delivered', channel_used: 'chat', error_code: null });
    expect(row?.sent_at).toEqual(at(6));
    expect(row?.delivered_at).toEqual(at(5));
    const [attempt] = await writes.attempts(id);
    expect(attempt).toMatchObject({ status: 'delivered', upstream_message_id: 'wamid.early' });

    const { transitions, events } = await history(id);
    expect(transitions.map((t) => t.status)).toEqual(['queued', 'sending', 'delivered', 'sent']);
    expect(events.map((e) => e.type)).toEqual(['message.delivered', 'message.sent']);
  });

  it('a duplicate receipt changes nothing', async () => {
    const { id } = await sentMessage('rcs', 'msg-dup');
    const first = await writes.applyReceipt(receipt({ channel: 'rcs', upstreamMessageId: 'msg-dup', status: 'delivered' }));
    const before = await history(id);
    const again = await writes.applyReceipt(receipt({ channel: 'rcs', upstreamMessageId: 'msg-dup', status: 'delivered' }));

    expect(first.events).toHaveLength(1);
    expect(again).toMatchObject({ matched: true, events: [] });
    expect(await history(id)).toEqual(before);
  });

  it('a late failure after delivered changes nothing', async () => {
    const { id } = await sentMessage('sms', 'smsc-late-failure');
    await writes.applyReceipt(receipt({ channel: 'sms', upstreamMessageId: 'smsc-late-failure', status: 'delivered', carrierStatusCode: 'DELIVRD' }));
    const before = await history(id);
    const late = await writes.applyReceipt(
      receipt({ channel: 'sms', upstreamMessageId: 'smsc-late-failure', status: 'undelivered', carrierStatusCode: 'UNDELIV', errorCode: 'UNDELIV' }),
    );

    expect(late.events).toEqual([]);
    expect(await writes.findRow(id)).toMatchObject({ status: 'delivered', carrier_status_code: 'DELIVRD', error_code: null, undelivered_at: null });
    expect(await history(id)).toEqual(before);
  });

  it('a failure after sent ends the message; a later delivered outranks it and clears the error', async () => {
    const { id } = await sentMessage('sms', 'smsc-undeliv-then-dlvrd');
    await writes.applyReceipt(
      receipt({ channel: 'sms', upstreamMessageId: 'smsc-undeliv-then-dlvrd', status: 'undelivered', carrierStatusCode: 'UNDELIV', errorCode: 'UNDELIV' }),
    );
    expect(await writes.findRow(id)).toMatchObject({ status: 'undelivered', error_code: 'UNDELIV' });

    await writes.applyReceipt(receipt({ channel: 'sms', upstreamMessageId: 'smsc-undeliv-then-dlvrd', status: 'delivered', carrierStatusCode: 'DELIVRD' }));
    expect(await writes.findRow(id)).toMatchObject({ status: 'delivered', error_code: null, carrier_status_code: 'DELIVRD' });
    const { events } = await history(id);
    expect(events.map((e) => e.type)).toEqual(['message.sent', 'message.failed', 'message.delivered']);
  });

  it('a failed message keeps its error when the acceptance is recorded late', async () => {
    const id = await acceptedMessage('chat');
    const started = await writes.startAttempt({ messageId: id, channel: 'chat', sender: '+14155550100', at: at(1) });
    if (started.outcome !== 'started') throw new Error('expected a started attempt');
    await writes.applyReceipt(
      receipt({ upstreamMessageId: 'wamid.failed', clientRef: id, status: 'failed', carrierStatusCode: '131026', errorCode: '131026' }),
    );
    await writes.attemptAccepted({ messageId: id, attemptId: started.attempt.id, upstreamMessageId: 'wamid.failed', at: at(6) });

    expect(await writes.findRow(id)).toMatchObject({ status: 'failed', error_code: '131026', carrier_status_code: '131026' });
  });

  it('concurrent receipts for one attempt never move the attempt back', async () => {
    for (let round = 0; round < 5; round += 1) {
      const upstreamId = `wamid.race-${round}`;
      const { id } = await sentMessage('chat', upstreamId);
      await Promise.all([
        writes.applyReceipt(receipt({ upstreamMessageId: upstreamId, status: 'read' })),
        writes.applyReceipt(receipt({ upstreamMessageId: upstreamId, status: 'delivered' })),
      ]);
      const [attempt] = await writes.attempts(id);
      expect(attempt.status).toBe('read');
      expect(await writes.findRow(id)).toMatchObject({ status: 'read' });
      const { transitions } = await history(id);
      expectStrictlyIncreasing(transitions.map((t) => t.sequence));
    }
  });
});

describe('applyReceipt matching', () => {
  it('matches an SMS receipt by attemptRef and recipient and adopts the SMSC id', async () => {
    const id = await acceptedMessage('sms', '+447911123457');
    const other = await acceptedMessage('sms', '+447911123458');
    await writes.startAttempt({ messageId: other, channel: 'sms', sender: '+14155550100', attemptRef: 4242, at: at(1) });
    await writes.startAttempt({ messageId: id, channel: 'sms', sender: '+14155550100', attemptRef: 4242, at: at(1) });

    const result = await writes.applyReceipt(
      receipt({ channel: 'sms', upstreamMessageId: 'smsc-by-ref', attemptRef: 4242, recipient: '+447911123457', status: 'delivered' }),
    );
    expect(result).toMatchObject({ matched: true, messageId: id });
    const [attempt] = await writes.attempts(id);
    expect(attempt.upstream_message_id).toBe('smsc-by-ref');
    expect((await writes.findRow(other))?.status).toBe('sending');
  });

  it('matches a receipt for a later part of a long SMS by the stored part ids', async () => {
    const id = await acceptedMessage('sms');
    const started = await writes.startAttempt({ messageId: id, channel: 'sms', sender: '+14155550100', attemptRef: 7, at: at(1) });
    if (started.outcome !== 'started') throw new Error('expected a started attempt');
    await writes.attemptAccepted({
      messageId: id,
      attemptId: started.attempt.id,
      upstreamMessageId: 'part-1',
      partIds: ['part-1', 'part-2', 'part-3'],
      at: at(2),
    });

    const result = await writes.applyReceipt(receipt({ channel: 'sms', upstreamMessageId: 'part-3', status: 'delivered' }));
    expect(result).toMatchObject({ matched: true, messageId: id });
    // One part of three: the message waits for the others (docs/routing.md#multi-part-sms).
    expect((await writes.findRow(id))?.status).toBe('sent');
    await writes.applyReceipt(receipt({ channel: 'sms', upstreamMessageId: 'part-1', status: 'delivered' }));
    await writes.applyReceipt(receipt({ channel: 'sms', upstreamMessageId: 'part-3', status: 'delivered' }));
    expect((await writes.findRow(id))?.status).toBe('sent');
    await writes.applyReceipt(receipt({ channel: 'sms', upstreamMessageId: 'part-1', partId: 'part-2', parts: 3, status: 'delivered' }));
    expect((await writes.findRow(id))?.status).toBe('delivered');
    expect((await writes.attempts(id))[0]).toMatchObject({
      status: 'delivered',
      part_statuses: { 'part-1': 'delivered', 'part-2': 'delivered', 'part-3': 'delivered' },
    });
  });

  it('ends a long SMS undelivered when one part fails, whatever the others say later', async () => {
    const id = await acceptedMessage('sms');
    const started = await writes.startAttempt({ messageId: id, channel: 'sms', sender: '+14155550100', attemptRef: 8, at: at(1) });
    if (started.outcome !== 'started') throw new Error('expected a started attempt');
    await writes.attemptAccepted({ messageId: id, attemptId: started.attempt.id, upstreamMessageId: 'q-1', partIds: ['q-1', 'q-2'], at: at(2) });
    await writes.applyReceipt(receipt({ channel: 'sms', upstreamMessageId: 'q-2', status: 'undelivered', errorCode: '001' }));
    await writes.applyReceipt(receipt({ channel: 'sms', upstreamMessageId: 'q-1', status: 'delivered' }));
    expect(await writes.findRow(id)).toMatchObject({ status: 'undelivered', error_code: '001', delivered_at: null });
    expect((await writes.attempts(id))[0].status).toBe('undelivered');
  });

  it('leaves a part receipt unmatched until the part ids are stored', async () => {
    const id = await acceptedMessage('sms', '+447911120077');
    const started = await writes.startAttempt({ messageId: id, channel: 'sms', sender: '+14155550100', attemptRef: 9, at: at(1) });
    if (started.outcome !== 'started') throw new Error('expected a started attempt');
    const early = receipt({
      channel: 'sms',
      upstreamMessageId: 'r-1',
      partId: 'r-2',
      parts: 2,
      attemptRef: 9,
      recipient: '+447911120077',
      status: 'delivered',
    });
    expect(await writes.applyReceipt(early)).toEqual({ matched: false, events: [] });
    expect((await writes.findRow(id))?.status).toBe('sending');
  });

  it('reports a receipt that matches nothing, and whether its reference names no message of ours', async () => {
    const result = await writes.applyReceipt(receipt({ upstreamMessageId: 'wamid.nobody', clientRef: newId('msg'), status: 'delivered' }));
    expect(result).toEqual({ matched: false, notOurs: true, events: [] });
    const id = await acceptedMessage('chat', '+447911120078');
    const [ours, foreign] = await writes.applyReceipts([
      receipt({ upstreamMessageId: `wamid.${id}`, clientRef: id, status: 'delivered' }),
      receipt({ upstreamMessageId: 'wamid.someone-else', clientRef: 'bench-1', status: 'delivered' }),
    ]);
    expect(ours).toEqual({ matched: false, events: [] });
    expect(foreign).toEqual({ matched: false, notOurs: true, events: [] });
  });
});

describe('startAttempt guard', () => {
  it('lets exactly one of two concurrent starts send; the other sees an ambiguous attempt', async () => {
    for (let round = 0; round < 10; round += 1) {
      const id = await acceptedMessage('chat');
      const results = await Promise.all([
        writes.startAttempt({ messageId: id, channel: 'chat', sender: '+14155550100', at: at(1) }),
        writes.startAttempt({ messageId: id, channel: 'chat', sender: '+14155550100', at: at(1) }),
      ]);
      expect(results.map((r) => r.outcome).sort()).toEqual(['ambiguous', 'started']);
      expect(await writes.attempts(id)).toHaveLength(1);
    }
  });

  it('answers finished once the message was sent, and reuses an abandoned attempt row', async () => {
    const id = await acceptedMessage('sms');
    const first = await writes.startAttempt({ messageId: id, channel: 'sms', sender: '+14155550100', attemptRef: 1, at: at(1) });
    if (first.outcome !== 'started') throw new Error('expected a started attempt');
    await writes.abandonAttempt(first.attempt, at(2));
    const second = await writes.startAttempt({ messageId: id, channel: 'sms', sender: '+14155550100', attemptRef: 2, at: at(3) });
    expect(second).toMatchObject({ outcome: 'started', attempt: { id: first.attempt.id, attempt_ref: 2 } });
    await writes.attemptAccepted({ messageId: id, attemptId: first.attempt.id, upstreamMessageId: 'smsc-x', at: at(4) });
    expect((await writes.startAttempt({ messageId: id, channel: 'sms', sender: '+14155550100', at: at(5) })).outcome).toBe('finished');
  });
});
