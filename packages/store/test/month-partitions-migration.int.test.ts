import { newId } from '@switchboard/domain';
import { createTestDatabase, testSecretCipher, type TestDatabase } from '@switchboard/devstack';
import {
  createAccountsRepository,
  createBatchCountsRepository,
  createConsoleReadsRepository,
  createDb,
  createEventsRepository,
  createMessageReadsRepository,
  createMessageWritesRepository,
  migrate,
  type Db,
} from '../src';
import { idAt } from './support/ids-at';

// Migration 013 rebuilds messages, attempts, status history and events as month partitions in place
// (docs/storage-layout.md#time-partitioned-tables): a database that holds three months of them reads the same after.
let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase(undefined, { throughMigration: '012_transcript_interrupted.sql' });
  db = createDb({ url: database.url, poolSize: 4 });
});

afterAll(async () => {
  await db.close();
  await database.drop();
});

// Three months, the last message a second before a month's end, so a month's edge is crossed too.
const MONTHS = ['2026-08-14T09:00:00.000Z', '2026-09-03T12:00:00.000Z', '2026-10-31T23:59:59.000Z'];
const SENDER = '+14155550100';

async function fill(accountId: string): Promise<string[]> {
  const writes = createMessageWritesRepository(db);
  const ids: string[] = [];
  for (const [n, iso] of MONTHS.entries()) {
    for (const k of [0, 1]) {
      const createdAt = new Date(Date.parse(iso) + k);
      const id = idAt('msg', createdAt.getTime());
      ids.push(id);
      await writes.persistAccepted({
        id,
        account_id: accountId,
        mode: 'test',
        channel: 'sms',
        plan: ['sms'],
        senders: { sms: { e164: SENDER } },
        recipient: `+4479111234${n}${k}`,
        content: { text: `month ${n} message ${k}` },
        cost_units: 1 + k,
        created_at: createdAt.toISOString(),
      });
      const started = await writes.startAttempt({ messageId: id, channel: 'sms', sender: SENDER, at: new Date(createdAt.getTime() + 1_000) });
      if (started.outcome !== 'started') throw new Error('expected a started attempt');
      if (k === 0)
        await writes.attemptAccepted({ messageId: id, attemptId: started.attempt.id, upstreamMessageId: `up-${n}`, at: new Date(createdAt.getTime() + 2_000) });
      // An event of the message's own month, with a delivery that references it (the foreign key the migration moves).
      const eventId = idAt('evt', createdAt.getTime() + 3_000);
      await db.query(
        `INSERT INTO events (id, account_id, type, resource_type, resource_id, sequence, data, created_at)
         VALUES ($1, $2, 'message.note', 'message', $3, 99, $4, $5)`,
        [eventId, accountId, id, { note: n }, new Date(createdAt.getTime() + 3_000)],
      );
      await db.query(
        `INSERT INTO webhook_deliveries (id, event_id, account_id, target_key, url, status, created_at, updated_at)
         VALUES ($1, $2, $3, 'callback', 'https://example.test/hook', 'pending', now(), now())`,
        [newId('dlv'), eventId, accountId],
      );
    }
  }
  return ids;
}

async function readEverything(accountId: string, ids: string[]) {
  const reads = createMessageReadsRepository(db);
  const events = createEventsRepository(db);
  const counts = await db.query(
    `SELECT (SELECT count(*) FROM messages) AS messages, (SELECT count(*) FROM message_attempts) AS attempts,
            (SELECT count(*) FROM message_transitions) AS transitions, (SELECT count(*) FROM events) AS events,
            (SELECT count(*) FROM webhook_deliveries) AS deliveries`,
  );
  return {
    byId: await Promise.all(ids.map((id) => reads.findForAccount(accountId, id))),
    history: await Promise.all(ids.map((id) => reads.transitions(accountId, id))),
    list: await reads.list(accountId, { limit: 100 }),
    page: await reads.list(accountId, { limit: 2, beforeId: ids[3] }),
    byStatus: await reads.list(accountId, { status: 'sent', limit: 100 }),
    events: await events.list(accountId, { limit: 100 }),
    eventsOfMessage: await events.list(accountId, { resourceId: ids[2], limit: 100 }),
    batchCounts: await createBatchCountsRepository(db).statuses(accountId, ids),
    usage: await createConsoleReadsRepository(db).usage(accountId, new Date('2026-01-01T00:00:00Z')),
    counts: counts.rows[0] as Record<string, string>,
  };
}

describe('migration 013 on a database that holds rows', () => {
  it('keeps every message, attempt, history row and event, each read the same, in the partition of its month', async () => {
    const accountId = (await createAccountsRepository(db, testSecretCipher(database.url)).ensure('partition-migration')).id;
    const ids = await fill(accountId);
    const before = await readEverything(accountId, ids);
    expect(before.counts).toEqual({ messages: '6', attempts: '6', transitions: '15', events: '9', deliveries: '6' });

    expect(await migrate(db)).toEqual(['013_month_partitions.sql']);

    expect(await readEverything(accountId, ids)).toEqual(before);
    const placed = await db.query<{ part: string; n: string }>(`SELECT tableoid::regclass::text AS part, count(*) AS n FROM messages GROUP BY 1 ORDER BY 1`);
    expect(placed.rows).toEqual([
      { part: 'messages_2026_08', n: '2' },
      { part: 'messages_2026_09', n: '2' },
      { part: 'messages_2026_10', n: '2' },
    ]);
    const children = await db.query<{ part: string; n: string }>(
      `SELECT tableoid::regclass::text AS part, count(*) AS n FROM message_attempts GROUP BY 1
       UNION ALL SELECT tableoid::regclass::text, count(*) FROM message_transitions GROUP BY 1 ORDER BY 1`,
    );
    expect(children.rows.map((r) => r.part)).toEqual([
      'message_attempts_2026_08',
      'message_attempts_2026_09',
      'message_attempts_2026_10',
      'message_transitions_2026_08',
      'message_transitions_2026_09',
      'message_transitions_2026_10',
    ]);
    const eventParts = await db.query<{ part: string }>(`SELECT DISTINCT tableoid::regclass::text AS part FROM events WHERE type = 'message.note' ORDER BY 1`);
    // An event is placed by its own id: the last month's events come three seconds after that month ended.
    expect(eventParts.rows.map((r) => r.part)).toEqual(['events_2026_08', 'events_2026_09', 'events_2026_11']);
    const inDefault = await db.query(
      `SELECT (SELECT count(*) FROM messages_default) + (SELECT count(*) FROM message_attempts_default)
            + (SELECT count(*) FROM message_transitions_default) + (SELECT count(*) FROM events_default) AS n`,
    );
    expect(inDefault.rows[0]).toEqual({ n: '0' });
    // Each month's attempts and history keep their key to that month's messages.
    for (const table of ['message_attempts', 'message_transitions']) {
      const row =
        table === 'message_attempts'
          ? `(id, message_id, attempt_no, channel, status, created_at, updated_at) VALUES ('att_x', $1, 1, 'sms', 'sending', now(), now())`
          : `(message_id, sequence, status, at) VALUES ($1, 1, 'queued', now())`;
      await expect(db.query(`INSERT INTO ${table} ${row}`, [idAt('msg', Date.parse(MONTHS[0]))])).rejects.toMatchObject({ code: '23503' });
    }
  });
});
