import type { Db, Queryable } from './db';

/**
 * The month-partitioned tables and the id kind their key ranges over (docs/architecture.md#time-partitioned-tables):
 * attempts and status history range over their message's id, so a message's rows share its month.
 * Migration 013 makes them; the migration's table list is the same.
 */
export const MONTH_PARTITIONED_TABLES = [
  { table: 'messages', kind: 'msg' },
  { table: 'message_attempts', kind: 'msg' },
  { table: 'message_transitions', kind: 'msg' },
  { table: 'events', kind: 'evt' },
] as const;

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
    const month = monthStart(now, offset);
    for (const { table, kind } of MONTH_PARTITIONED_TABLES) {
      // The migration's function: the one place that names a month's bounds.
      const { rows } = await tx.query<{ made: boolean }>('SELECT ensure_month_partition($1::regclass, $2, $3::timestamp) AS made', [
        table,
        kind,
        month.toISOString().slice(0, 19),
      ]);
      if (rows[0]?.made) created.push(`${table}_${monthName(month)}`);
    }
  }
  return created;
}

/**
 * One month out: its webhook deliveries and their attempts (they reference the month's events and are not
 * partitioned), then its attempts and status history, then its messages and events. Children go before the
 * messages they reference, so the foreign key check of each detach finds nothing left pointing at the month.
 */
async function dropMonth(db: Db, month: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MAINTENANCE_LOCK_KEY]);
    // A month's webhook rows can take longer than a request's timeout to delete; the lock timeout bounds the wait.
    await tx.query(`SET LOCAL statement_timeout = 0`);
    await tx.query(`SET LOCAL lock_timeout = ${DETACH_LOCK_TIMEOUT_MS}`);
    const events = `events_${month}`;
    const hasEvents = (await tx.query('SELECT to_regclass($1) AS t', [events])).rows[0]?.t !== null;
    if (hasEvents) {
      await tx.query(`DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT d.id FROM webhook_deliveries d JOIN ${events} e ON e.id = d.event_id)`);
      await tx.query(`DELETE FROM webhook_deliveries d USING ${events} e WHERE d.event_id = e.id`);
    }
    let dropped = false;
    for (const table of ['message_attempts', 'message_transitions', 'messages', 'events']) {
      const partition = `${table}_${month}`;
      if ((await tx.query('SELECT to_regclass($1) AS t', [partition])).rows[0]?.t === null) continue;
      await tx.query(`ALTER TABLE ${table} DETACH PARTITION ${partition}`);
      await tx.query(`DROP TABLE ${partition}`);
      dropped = true;
    }
    return dropped;
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
    for (const { table } of MONTH_PARTITIONED_TABLES) for (const month of await partitionMonths(db, table)) months.add(month);
    for (const month of [...months].sort()) {
      if (month >= keepFrom) continue;
      // Another process may have dropped it since the list was read.
      if (await dropMonth(db, month)) dropped.push(month);
    }
  }
  return { created, dropped };
}
