import { createTestDatabase, testSecretCipher, type TestDatabase } from '@switchboard/devstack';
import {
  createAccountsRepository,
  createDb,
  createMessageWritesRepository,
  idRange,
  maintainMonthPartitions,
  monthIdBound,
  monthStart,
  type Db,
  type Queryable,
} from '../src';
import { idAt } from './support/ids-at';

// The hot batch statements carry their batch's id range, so they touch only the batch's months
// (docs/storage-layout.md#time-partitioned-tables).
let database: TestDatabase;
let db: Db;
let accountId: string;
const now = new Date();

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ url: database.url, poolSize: 4 });
  accountId = (await createAccountsRepository(db, testSecretCipher(database.url)).ensure('month-pruning')).id;
  // Three months back and three ahead, besides this one: seven months of partitions, plus the default.
  await maintainMonthPartitions(db, { now: monthStart(now, -3) });
  await maintainMonthPartitions(db, { now });
});

afterAll(async () => {
  await db.close();
  await database.drop();
});

const monthName = (month: Date) => `${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`;

/** The statements a store call sends inside its transactions, with their values. */
function recording(): { db: Db; statements: Array<{ text: string; values: unknown[] }> } {
  const statements: Array<{ text: string; values: unknown[] }> = [];
  const record = (q: Queryable): Queryable => ({
    query: (text, values) => {
      statements.push({ text, values: values ?? [] });
      return q.query(text, values);
    },
  });
  return { db: { ...db, query: record(db).query, transaction: (work) => db.transaction((tx) => work(record(tx))) }, statements };
}

/** A value as EXECUTE's SQL literal: text as is, an array as a PostgreSQL array, JSON for the rest. */
const literal = (value: unknown) => {
  const text = Array.isArray(value) ? `{${value.map((v) => JSON.stringify(String(v))).join(',')}}` : typeof value === 'string' ? value : JSON.stringify(value);
  return `'${text.replace(/'/g, "''")}'`;
};

/** The partitions of `table` a plan reads or writes. */
const partitionsIn = (plan: string, table: string) => [
  ...new Set([...plan.matchAll(new RegExp(` on (${table}_(?:\\d{4}_\\d{2}|default))`, 'g'))].map((m) => m[1])),
];

/** The plan PostgreSQL makes for the statement's values (custom) and the one a prepared statement reuses (generic). */
async function plans({ text, values }: { text: string; values: unknown[] }): Promise<{ custom: string; generic: string }> {
  const custom = (await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, values)).rows.map((r) => r['QUERY PLAN']).join('\n');
  const generic = await db.transaction(async (tx) => {
    await tx.query('SET LOCAL plan_cache_mode = force_generic_plan');
    await tx.query(`PREPARE pruned AS ${text}`);
    const { rows } = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE pruned(${values.map(literal).join(', ')})`);
    await tx.query('DEALLOCATE pruned');
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  });
  return { custom, generic };
}

async function sentMessages(count: number): Promise<Array<{ id: string; attemptId: string }>> {
  const writes = createMessageWritesRepository(db);
  const ids = Array.from({ length: count }, () => idAt('msg', now.getTime()));
  await writes.persistAcceptedMany(
    ids.map((id) => ({
      id,
      account_id: accountId,
      mode: 'test',
      channel: 'sms',
      plan: ['sms'],
      senders: { sms: { e164: '+14155550100' } },
      recipient: '+447911123456',
      content: { text: 'hello' },
      cost_units: 1,
      created_at: now.toISOString(),
    })),
  );
  const started = await writes.startAttempts(ids.map((id) => ({ messageId: id, channel: 'sms', sender: '+14155550100', at: now })));
  return started.map((s) => {
    if (s.outcome !== 'started') throw new Error('expected a started attempt');
    return { id: s.row.id, attemptId: s.attempt.id };
  });
}

describe('batch statements on month-partitioned tables', () => {
  it('update a batch of this month only in this month, with a plan for the values and with a generic one', async () => {
    const sent = await sentMessages(3);
    const recorder = recording();
    await createMessageWritesRepository(recorder.db).attemptsAccepted(
      sent.map((s, i) => ({ messageId: s.id, attemptId: s.attemptId, upstreamMessageId: `smsc-${s.id}-${i}`, at: now })),
    );
    const messagesUpdate = recorder.statements.find((s) => /UPDATE messages m/.test(s.text));
    const attemptsUpdate = recorder.statements.find((s) => /UPDATE message_attempts a/.test(s.text));
    expect(messagesUpdate).toBeDefined();
    expect(attemptsUpdate).toBeDefined();
    const month = monthName(now);
    for (const [statement, table] of [
      [messagesUpdate, 'messages'],
      [attemptsUpdate, 'message_attempts'],
    ] as const) {
      const { custom, generic } = await plans(statement as { text: string; values: unknown[] });
      expect(partitionsIn(custom, table)).toEqual([`${table}_${month}`]);
      // A generic plan is pruned when it starts: the other months are removed, their scans never shown.
      expect(generic).toMatch(/Subplans Removed: [1-9]/);
      expect(partitionsIn(generic.replace(/^\s*Update on .*$/gm, ''), table)).toEqual([`${table}_${month}`]);
    }
  });

  it('find a receipt of this month by upstream id in the window, and a receipt of an old message in every month', async () => {
    const writes = createMessageWritesRepository(db);
    const old = new Date(monthStart(now, -3).getTime() + 86_400_000);
    const id = idAt('msg', old.getTime());
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
      created_at: old.toISOString(),
    });
    const started = await writes.startAttempt({ messageId: id, channel: 'sms', sender: '+14155550100', at: old });
    if (started.outcome !== 'started') throw new Error('expected a started attempt');
    await writes.attemptAccepted({ messageId: id, attemptId: started.attempt.id, upstreamMessageId: `smsc-old-${id}`, at: old });
    const late = await writes.applyReceipt({
      channel: 'sms',
      upstreamMessageId: `smsc-old-${id}`,
      status: 'delivered',
      carrierStatusCode: 'DELIVRD',
      occurredAt: now.toISOString(),
    });
    expect(late).toMatchObject({ matched: true, messageId: id, row: { status: 'delivered' } });

    const [recent] = await sentMessages(1);
    await writes.attemptAccepted({ messageId: recent.id, attemptId: recent.attemptId, upstreamMessageId: `smsc-new-${recent.id}`, at: now });
    const recorder = recording();
    const result = await createMessageWritesRepository(recorder.db).applyReceipt({
      channel: 'sms',
      upstreamMessageId: `smsc-new-${recent.id}`,
      status: 'delivered',
      carrierStatusCode: 'DELIVRD',
      occurredAt: now.toISOString(),
    });
    expect(result).toMatchObject({ matched: true, messageId: recent.id });
    const lookups = recorder.statements.filter((s) => /a\.upstream_message_id = r\.upstream_id/.test(s.text));
    // Found in the window: no lookup over every month.
    expect(lookups).toHaveLength(1);
    const { custom } = await plans(lookups[0]);
    expect(partitionsIn(custom, 'message_attempts').sort()).toEqual(
      [-1, 0, 1].map((offset) => `message_attempts_${monthName(monthStart(now, offset))}`).sort(),
    );
  });

  it('order ids as the partition bounds do: JavaScript and the database agree, and on each month bound', async () => {
    const ids = [-3, -2, -1, 0, 1, 2, 3].flatMap((offset) => {
      const start = monthStart(now, offset).getTime();
      return [idAt('msg', start), idAt('msg', start - 1), idAt('msg', start + 1), monthIdBound('msg', now, offset), idAt('msg', start + 86_400_000)];
    });
    const { rows } = await db.query<{ sorted: string[] }>('SELECT array_agg(id ORDER BY id) AS sorted FROM unnest($1::text[]) AS id', [ids]);
    expect(rows[0].sorted).toEqual([...ids].sort());
    expect(idRange(ids)).toEqual([rows[0].sorted[0], rows[0].sorted[ids.length - 1]]);
    const bounds = await db.query<{ msg: string; evt: string }>(
      `SELECT month_partition_bound('msg', $1::timestamp) AS msg, month_partition_bound('evt', $1::timestamp) AS evt`,
      [monthStart(now, -2).toISOString().slice(0, 19)],
    );
    expect(bounds.rows[0]).toEqual({ msg: monthIdBound('msg', now, -2), evt: monthIdBound('evt', now, -2) });
  });
});
