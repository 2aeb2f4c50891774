import { newId } from '@switchboard/domain';
import { createTestDatabase, testSecretCipher, type TestDatabase } from '@switchboard/devstack';
import {
  createAccountsRepository,
  createDb,
  createMessageReadsRepository,
  createMessageWritesRepository,
  maintainMonthPartitions,
  monthStart,
  MONTH_PARTITIONED_TABLES,
  MONTHS_AHEAD,
  type Db,
} from '../src';
import { idAt } from './support/ids-at';

// Month partition maintenance (docs/storage-layout.md#time-partitioned-tables, docs/operations.md#retention).
let database: TestDatabase;
let db: Db;
let accountId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ url: database.url, poolSize: 6 });
  accountId = (await createAccountsRepository(db, testSecretCipher(database.url)).ensure('month-partitions')).id;
});

afterAll(async () => {
  await db.close();
  await database.drop();
});

const monthName = (month: Date) => `${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`;

async function exists(name: string): Promise<boolean> {
  const { rows } = await db.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [name]);
  return rows[0].t !== null;
}

/** A message made at `at`, with an attempt, its history, its events and a webhook delivery of one of them. */
async function messageAt(at: Date): Promise<string> {
  const writes = createMessageWritesRepository(db);
  const id = idAt('msg', at.getTime());
  await writes.persistAccepted({
    id,
    account_id: accountId,
    mode: 'test',
    channel: 'sms',
    plan: ['sms'],
    senders: { sms: { e164: '+14155550100' } },
    recipient: '+447911123456',
    content: { text: 'hello' },
    cost_units: 1,
    created_at: at.toISOString(),
  });
  const started = await writes.startAttempt({ messageId: id, channel: 'sms', sender: '+14155550100', at });
  if (started.outcome !== 'started') throw new Error('expected a started attempt');
  const eventId = idAt('evt', at.getTime());
  await db.query(
    `INSERT INTO events (id, account_id, type, resource_type, resource_id, sequence, data, created_at) VALUES ($1, $2, 'message.note', 'message', $3, 99, '{}', $4)`,
    [eventId, accountId, id, at],
  );
  const delivery = newId('dlv');
  await db.query(
    `INSERT INTO webhook_deliveries (id, event_id, account_id, target_key, url, status, created_at, updated_at)
     VALUES ($1, $2, $3, 'callback', 'https://example.test/hook', 'pending', now(), now())`,
    [delivery, eventId, accountId],
  );
  await db.query(
    `INSERT INTO webhook_attempts (id, delivery_id, attempt_no, url, status_code, latency_ms, created_at) VALUES ($1, $2, 1, 'https://example.test/hook', 500, 3, now())`,
    [newId('att'), delivery],
  );
  return id;
}

describe('maintainMonthPartitions', () => {
  it('makes this month and the months ahead once, when two processes run it at the same time', async () => {
    const now = new Date();
    const [first, second] = await Promise.all([maintainMonthPartitions(db, { now }), maintainMonthPartitions(db, { now })]);
    // The migration made this month; the months ahead are made by exactly one of the two runs.
    const ahead = Array.from({ length: MONTHS_AHEAD }, (_, i) => monthName(monthStart(now, i + 1)));
    const expected = ahead.flatMap((month) => MONTH_PARTITIONED_TABLES.map((table) => `${table}_${month}`));
    expect([...first.created, ...second.created].sort()).toEqual([...expected].sort());
    for (const table of MONTH_PARTITIONED_TABLES) for (const month of [monthName(now), ...ahead]) expect(await exists(`${table}_${month}`)).toBe(true);
    expect(await maintainMonthPartitions(db, { now })).toEqual({ created: [], dropped: [] });
  });

  it('with a retention drops the months that ended that long ago, their webhook rows with them, and keeps the rest', async () => {
    const now = new Date();
    // Partitions for five to two months back, as a maintenance run then would have made them.
    await maintainMonthPartitions(db, { now: monthStart(now, -5) });
    const old = await messageAt(new Date(monthStart(now, -5).getTime() + 86_400_000));
    const edge = await messageAt(new Date(monthStart(now, -2).getTime() + 86_400_000));
    const current = await messageAt(now);
    const deliveriesBefore = await db.query<{ n: string }>('SELECT count(*) AS n FROM webhook_deliveries');

    const [a, b] = await Promise.all([maintainMonthPartitions(db, { now, retentionMonths: 2 }), maintainMonthPartitions(db, { now, retentionMonths: 2 })]);
    const gone = [-5, -4, -3].map((offset) => monthName(monthStart(now, offset)));
    expect([...a.dropped, ...b.dropped].sort()).toEqual(gone);
    for (const month of gone) for (const table of MONTH_PARTITIONED_TABLES) expect(await exists(`${table}_${month}`)).toBe(false);
    for (const table of MONTH_PARTITIONED_TABLES) expect(await exists(`${table}_${monthName(monthStart(now, -2))}`)).toBe(true);

    const reads = createMessageReadsRepository(db);
    // A dropped month's message reads as not found, like any unknown id.
    expect(await reads.findForAccount(accountId, old)).toBeNull();
    expect(await reads.transitions(accountId, old)).toBeNull();
    expect(await reads.findForAccount(accountId, edge)).toMatchObject({ id: edge });
    expect(await reads.findForAccount(accountId, current)).toMatchObject({ id: current });
    const deliveriesAfter = await db.query<{ n: string }>('SELECT count(*) AS n FROM webhook_deliveries');
    expect(Number(deliveriesAfter.rows[0].n)).toBe(Number(deliveriesBefore.rows[0].n) - 1);
    // The deliveries' key to events, taken off around the detach, is back and validated.
    const key = await db.query(`SELECT convalidated FROM pg_constraint WHERE conname = 'webhook_deliveries_event_id_fkey'`);
    expect(key.rows).toEqual([{ convalidated: true }]);
    await expect(
      db.query(
        `INSERT INTO webhook_deliveries (id, event_id, account_id, target_key, url, status, created_at, updated_at)
         VALUES ($1, $2, $3, 'callback', 'https://example.test/hook', 'pending', now(), now())`,
        [newId('dlv'), newId('evt'), accountId],
      ),
    ).rejects.toMatchObject({ code: '23503' });
  });

  it('reads a message by id from its one partition, with a statement planned for its value or a generic one', async () => {
    const id = await messageAt(new Date());
    const partition = `messages_${monthName(new Date())}`;
    const plan = await db.query<{ 'QUERY PLAN': string }>('EXPLAIN SELECT * FROM messages WHERE id = $1 AND account_id = $2', [id, accountId]);
    const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    expect([...text.matchAll(/ on (\w+)/g)].map((m) => m[1])).toEqual([partition]);
    expect(text).toMatch(/^Index Scan using messages_\w+ on /);

    // A prepared statement's generic plan prunes when it starts: one partition is left, the others removed.
    const generic = await db.transaction(async (tx) => {
      await tx.query('SET LOCAL plan_cache_mode = force_generic_plan');
      await tx.query('PREPARE read_by_id (text, text) AS SELECT * FROM messages WHERE id = $1 AND account_id = $2');
      const { rows } = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE read_by_id('${id}', '${accountId}')`);
      await tx.query('DEALLOCATE read_by_id');
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(generic).toMatch(/Subplans Removed: [1-9]/);
    expect([...generic.matchAll(/ on (\w+)/g)].map((m) => m[1])).toEqual([partition]);
  });

  it('leaves a month whose rows reached the default partition there, still read by id, and makes the months after it', async () => {
    // Only possible when maintenance stopped for longer than MONTHS_AHEAD: a month that has no partition yet.
    const later = monthStart(new Date(), MONTHS_AHEAD + 3);
    const id = await messageAt(new Date(later.getTime() + 60_000));
    const placed = await db.query<{ part: string }>('SELECT tableoid::regclass::text AS part FROM messages WHERE id = $1', [id]);
    expect(placed.rows).toEqual([{ part: 'messages_default' }]);

    const { created } = await maintainMonthPartitions(db, { now: later });
    expect(created).not.toContain(`messages_${monthName(later)}`);
    expect(created).toContain(`messages_${monthName(monthStart(later, 1))}`);
    expect(await createMessageReadsRepository(db).findForAccount(accountId, id)).toMatchObject({ id, status: 'sending' });
  });
});
