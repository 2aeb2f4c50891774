import { newId, toIso } from '@switchboard/domain';
import type { Db, Queryable } from '../db';
import { toCallResource, type CallResource, type CallRow, type CallStatus, type TranscriptTurn } from '../call-resource';
import type { StoredEvent } from '../message-change';

export interface NewCall {
  id: string;
  accountId: string;
  mode: 'live' | 'test';
  to: string;
  from: string;
  agentId: string | null;
  record: boolean;
  callbackUrl: string | null;
  ringTimeoutSeconds: number;
  maxDurationSeconds: number;
  metadata: Record<string, string> | null;
  retry: CallRow['retry'];
  machineDetection: CallRow['machine_detection'];
  idempotencyKey: string | null;
  requestFingerprint: string | null;
  at: Date;
}

export type CallCreation =
  { kind: 'created'; call: CallRow; events: StoredEvent[] } | { kind: 'replayed'; call: CallRow } | { kind: 'limit_reached'; live: number };

/** Reads the call as `GET` returns it, inside the transaction that changed it (the event's `data`). */
export async function readCallResource(q: Queryable, row: CallRow): Promise<CallResource> {
  const [{ rows: turns }, { rows: recordings }] = await Promise.all([
    q.query<{ speaker: 'agent' | 'callee'; text: string; at: Date; interrupted: boolean }>(
      'SELECT speaker, text, at, interrupted FROM call_transcript_turns WHERE call_id = $1 ORDER BY turn_no',
      [row.id],
    ),
    q.query<{ duration_seconds: string }>('SELECT duration_seconds FROM call_recordings WHERE call_id = $1', [row.id]),
  ]);
  const transcript: TranscriptTurn[] = turns.map((t) => ({
    speaker: t.speaker,
    text: t.text,
    at: toIso(t.at) as string,
    ...(t.interrupted ? { interrupted: true as const } : {}),
  }));
  return toCallResource(row, transcript, recordings[0] ? Number(recordings[0].duration_seconds) : null);
}

/** Writes one `call.*` event for the row as it is now; the caller's transaction makes it part of the change. */
export async function insertCallEvent(q: Queryable, row: CallRow, type: string, at: Date): Promise<StoredEvent> {
  const id = newId('evt');
  const data = { ...(await readCallResource(q, row)), sequence: row.sequence };
  await q.query(
    `INSERT INTO events (id, account_id, type, resource_type, resource_id, sequence, data, created_at) VALUES ($1, $2, $3, 'call', $4, $5, $6, $7)`,
    [id, row.account_id, type, row.id, row.sequence, JSON.stringify(data), at],
  );
  return { id, account_id: row.account_id, type, resource_id: row.id, sequence: row.sequence };
}

/** The event a final status announces (docs/webhooks.md#events): `call.failed` covers every unanswered end. */
export function endEventType(status: CallStatus): string {
  return status === 'completed' ? 'call.completed' : 'call.failed';
}

export interface CallListFilter {
  status?: CallStatus;
  to?: string;
  agentId?: string;
  beforeId?: string;
  limit: number;
}

/** The gateway's side of calls: acceptance under the concurrent-call limit, reads, and cancelling a call no orchestrator took. */
export function createCallsRepository(db: Db) {
  return {
    /**
     * Inserts the call and its `call.ringing` event unless the account already has `limit` live calls, or the
     * idempotency key already names a call. One advisory lock per account serialises the count and the insert,
     * so two concurrent requests cannot both take the last slot.
     */
    async create(call: NewCall, limit: number): Promise<CallCreation> {
      return db.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`calls:${call.accountId}`]);
        if (call.idempotencyKey) {
          const { rows } = await tx.query<CallRow>('SELECT * FROM calls WHERE account_id = $1 AND idempotency_key = $2', [call.accountId, call.idempotencyKey]);
          if (rows[0]) return { kind: 'replayed', call: rows[0] };
        }
        const { rows: counted } = await tx.query<{ live: string }>(
          `SELECT count(*) AS live FROM calls WHERE account_id = $1 AND status IN ('ringing', 'in-progress')`,
          [call.accountId],
        );
        const live = Number(counted[0].live);
        if (live >= limit) return { kind: 'limit_reached', live };
        const { rows } = await tx.query<CallRow>(
          `INSERT INTO calls (id, account_id, mode, status, "to", "from", agent_id, record, callback_url, ring_timeout_seconds,
             max_duration_seconds, metadata, idempotency_key, request_fingerprint, created_at, retry, machine_detection)
           VALUES ($1, $2, $3, 'ringing', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING *`,
          [
            call.id,
            call.accountId,
            call.mode,
            call.to,
            call.from,
            call.agentId,
            call.record,
            call.callbackUrl,
            call.ringTimeoutSeconds,
            call.maxDurationSeconds,
            call.metadata ? JSON.stringify(call.metadata) : null,
            call.idempotencyKey,
            call.requestFingerprint,
            call.at,
            call.retry ? JSON.stringify(call.retry) : null,
            call.machineDetection,
          ],
        );
        const event = await insertCallEvent(tx, rows[0], 'call.ringing', call.at);
        return { kind: 'created', call: rows[0], events: [event] };
      });
    },

    /** Takes back a call whose job could not be queued, so it does not count against the limit. */
    async remove(id: string): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.query(`DELETE FROM events WHERE resource_type = 'call' AND resource_id = $1`, [id]);
        await tx.query('DELETE FROM calls WHERE id = $1', [id]);
      });
    },

    async findRow(accountId: string, id: string): Promise<CallRow | null> {
      const { rows } = await db.query<CallRow>('SELECT * FROM calls WHERE id = $1 AND account_id = $2', [id, accountId]);
      return rows[0] ?? null;
    },

    async findForAccount(accountId: string, id: string): Promise<CallResource | null> {
      const { rows } = await db.query<CallRow>('SELECT * FROM calls WHERE id = $1 AND account_id = $2', [id, accountId]);
      return rows[0] ? readCallResource(db, rows[0]) : null;
    },

    async list(accountId: string, filter: CallListFilter): Promise<CallResource[]> {
      const where = ['account_id = $1'];
      const values: unknown[] = [accountId];
      const add = (sql: string, value: unknown) => {
        values.push(value);
        where.push(sql.replace('?', `$${values.length}`));
      };
      if (filter.status) add('status = ?', filter.status);
      if (filter.to) add('"to" = ?', filter.to);
      if (filter.agentId) add('agent_id = ?', filter.agentId);
      if (filter.beforeId) add('id < ?', filter.beforeId);
      values.push(filter.limit);
      const { rows } = await db.query<CallRow>(`SELECT * FROM calls WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT $${values.length}`, values);
      return Promise.all(rows.map((row) => readCallResource(db, row)));
    },

    /**
     * Cancels a ringing call that no orchestrator has claimed yet (its job still waits), with its `call.failed`
     * event. Null when an orchestrator holds it: the hangup must then reach that process.
     */
    async cancelUnclaimed(accountId: string, id: string, at: Date): Promise<{ call: CallRow; events: StoredEvent[] } | null> {
      return db.transaction(async (tx) => {
        const { rows } = await tx.query<CallRow>(
          `UPDATE calls SET status = 'canceled', end_reason = 'hangup_api', ended_at = $3, sequence = sequence + 1
           WHERE id = $1 AND account_id = $2 AND status = 'ringing' AND orchestrator_id IS NULL RETURNING *`,
          [id, accountId, at],
        );
        if (!rows[0]) return null;
        return { call: rows[0], events: [await insertCallEvent(tx, rows[0], 'call.failed', at)] };
      });
    },

    async recording(accountId: string, id: string): Promise<Buffer | null> {
      const { rows } = await db.query<{ wav: Buffer }>(
        'SELECT r.wav FROM call_recordings r JOIN calls c ON c.id = r.call_id WHERE r.call_id = $1 AND c.account_id = $2',
        [id, accountId],
      );
      return rows[0]?.wav ?? null;
    },
  };
}
export type CallsRepository = ReturnType<typeof createCallsRepository>;
