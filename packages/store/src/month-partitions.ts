import type { Db, Queryable } from './db';

/**
 * The month-partitioned tables (docs/storage-layout.md#time-partitioned-tables), as migration 013 and its
 * `ensure_month_partitions` name them: attempts and status history range over their message's id, so a message's
 * rows share its month; events over their own id.
 */
export const MONTH_PARTITIONED_TABLES = ['messages', 'message_attempts', 'message_transitions', 'events'] as const;

/** Months made ahead of the current one: maintenance may stay down for a quarter before a row meets the default partition. */
export const MONTHS_AHEAD = 3;

/** Serialises maintenance across processes (the migration runner holds 727274). */
const MAINTENANCE_LOCK_KEY = 727275;

/**
 * How long a detach waits for the tables' lock. A detach queued behind a long read would hold up every query
 * that comes after it; giving up and trying at the next run costs nothing.
 */
export const DETACH_LOCK_TIMEOUT_MS = 5_000;

const MONTH_SUFFIX = /_(\d{4})_(\d{2})$/;

export interface MonthPartitionsOptions {
  /** Months kept whole behind the current one; undefined keeps every month (docs/operations.md#retention). */
  retentionMonths?: number;
  /** @defaultValue the current time */
  now?: Date;
}

export interface MonthPartitionsResult {
  /** Partitions made by this run, `<table>_YYYY_MM`. */
  created: string[];
  /** Months whose partitions this run detached and dropped, `YYYY_MM`. */
  dropped: string[];
}

/** The first instant of the UTC month `offset` months from the one holding `at`. */
export function monthStart(at: Date, offset = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
}

const monthName = (month: Date) => `${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`;

/** The `YYYY_MM` months that hold a partition of `table`, from pg_inherits (the default partition has no month). */
async function partitionMonths(db: Queryable, table: string): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass`,
    [table],
  );
  return rows.flatMap(({ name }) => {
    const match = MONTH_SUFFIX.exec(name);
    return match && name === `${table}_${match[1]}_${match[2]}` ? [`${match[1]}_${match[2]}`] : [];
  });
}

async function ensureAhead(tx: Queryable, now: Date): Promise<string[]> {
  const created: string[] = [];
  for (let offset = 0; offset <= MONTHS_AHEAD; offset++) {
    // The migration's function: the one place that names a month's bounds and its partitions' foreign keys.
    const { rows } = await tx.query<{ made: string[] }>('SELECT ensure_month_partitions($1::timestamp) AS made', [
      monthStart(now, offset).toISOString().slice(0, 19),
    ]);
    created.push(...(rows[0]?.made ?? []));
  }
  return created;
}

const exists = async (tx: Queryable, name: string) =>
  ((await tx.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [name])).rows[0]?.t ?? null) !== null;

/**
 * One month out, in one transaction: its webhook deliveries and their attempts (not partitioned; they reference the
 * month's events), then its attempts and status history, then its messages and events, each detached and dropped.
 * The month's attempts and history reference the month's messages partition, so no detach makes PostgreSQL look
 * through other months. The deliveries' key to `events` would: it is dropped around the detach and added back
 * NOT VALID (no scan, and it holds for every new row), then validated after the commit without blocking writes.
 */
async function dropMonth(db: Db, month: string): Promise<boolean> {
  const dropped = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MAINTENANCE_LOCK_KEY]);
    // A month's webhook rows can take longer than a request's timeout to delete; the lock timeout bounds the wait.
    await tx.query(`SET LOCAL statement_timeout = 0`);
    await tx.query(`SET LOCAL lock_timeout = ${DETACH_LOCK_TIMEOUT_MS}`);
    const events = `events_${month}`;
    if (await exists(tx, events)) {
      await tx.query(`DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT d.id FROM webhook_deliveries d JOIN ${events} e ON e.id = d.event_id)`);
      await tx.query(`DELETE FROM webhook_deliveries d USING ${events} e WHERE d.event_id = e.id`);
    }
    let any = false;
    // Children before the messages they reference.
    for (const table of ['message_attempts', 'message_transitions', 'messages', 'events']) {
      const partition = `${table}_${month}`;
      if (!(await exists(tx, partition))) continue;
      if (table === 'events') await tx.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT ${DELIVERY_EVENT_KEY}`);
      await tx.query(`ALTER TABLE ${table} DETACH PARTITION ${partition}`);
      await tx.query(`DROP TABLE ${partition}`);
      if (table === 'events') {
        await tx.query(`ALTER TABLE webhook_deliveries ADD CONSTRAINT ${DELIVERY_EVENT_KEY} FOREIGN KEY (event_id) REFERENCES events(id) NOT VALID`);
      }
      any = true;
    }
    return any;
  });
  await validateDeliveryEventKey(db);
  return dropped;
}

/** The webhook deliveries' key to `events`, as migration 013 names it. */
const DELIVERY_EVENT_KEY = 'webhook_deliveries_event_id_fkey';

/** Validating scans the deliveries under a lock that lets reads and writes go on; a run that fails leaves it for the next. */
async function validateDeliveryEventKey(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MAINTENANCE_LOCK_KEY]);
    await tx.query(`SET LOCAL statement_timeout = 0`);
    const { rows } = await tx.query<{ valid: boolean }>(
      `SELECT convalidated AS valid FROM pg_constraint WHERE conname = $1 AND conrelid = 'webhook_deliveries'::regclass`,
      [DELIVERY_EVENT_KEY],
    );
    if (rows[0] && !rows[0].valid) await tx.query(`ALTER TABLE webhook_deliveries VALIDATE CONSTRAINT ${DELIVERY_EVENT_KEY}`);
  });
}

/**
 * Makes this month's partitions and the next {@link MONTHS_AHEAD} months', and with `retentionMonths` drops the
 * months that ended more than that many months ago. Idempotent, and safe when several processes run it at once:
 * each step holds one advisory lock, and a month already made or already gone is skipped.
 */
export async function maintainMonthPartitions(db: Db, options: MonthPartitionsOptions = {}): Promise<MonthPartitionsResult> {
  const now = options.now ?? new Date();
  const created = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MAINTENANCE_LOCK_KEY]);
    return ensureAhead(tx, now);
  });
  const dropped: string[] = [];
  if (options.retentionMonths !== undefined) {
    // A month is dropped once its end is `retentionMonths` months behind: every row is kept at least that long.
    const keepFrom = monthName(monthStart(now, -options.retentionMonths));
    const months = new Set<string>();
    for (const table of MONTH_PARTITIONED_TABLES) for (const month of await partitionMonths(db, table)) months.add(month);
    for (const month of [...months].sort()) {
      if (month >= keepFrom) continue;
      // Another process may have dropped it since the list was read.
      if (await dropMonth(db, month)) dropped.push(month);
    }
  }
  return { created, dropped };
}
