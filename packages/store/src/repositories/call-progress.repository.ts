import type { Db } from '../db';
import type { CallRow, CallStatus } from '../call-resource';
import type { StoredEvent } from '../message-change';
import { endEventType, insertCallEvent } from './calls.repository';

export interface CallChange {
  call: CallRow;
  events: StoredEvent[];
}

/**
 * The voice orchestrator's writes: every state transition of a call with its event in one transaction (the events
 * outbox). Status only moves forward: `ringing` → `in-progress` → an end, or `ringing` → an end.
 */
export function createCallProgressRepository(db: Db) {
  const change = (sql: string, values: unknown[], eventType: (row: CallRow) => string | null, at: Date): Promise<CallChange | null> =>
    db.transaction(async (tx) => {
      const { rows } = await tx.query<CallRow>(sql, values);
      if (!rows[0]) return null;
      const type = eventType(rows[0]);
      return { call: rows[0], events: type ? [await insertCallEvent(tx, rows[0], type, at)] : [] };
    });

  return {
    async find(id: string): Promise<CallRow | null> {
      const { rows } = await db.query<CallRow>('SELECT * FROM calls WHERE id = $1', [id]);
      return rows[0] ?? null;
    },

    /** Takes a ringing call for this process; null when it ended (canceled while queued) or another process holds it. */
    async claim(id: string, orchestratorId: string, at: Date): Promise<CallRow | null> {
      const { rows } = await db.query<CallRow>(
        `UPDATE calls SET orchestrator_id = $2, heartbeat_at = $3 WHERE id = $1 AND status = 'ringing' AND orchestrator_id IS NULL RETURNING *`,
        [id, orchestratorId, at],
      );
      return rows[0] ?? null;
    },

    answered(id: string, at: Date): Promise<CallChange | null> {
      return change(
        `UPDATE calls SET status = 'in-progress', answered_at = $2, sequence = sequence + 1 WHERE id = $1 AND status = 'ringing' RETURNING *`,
        [id, at],
        () => 'call.answered',
        at,
      );
    },

    ended(id: string, status: CallStatus, endReason: string, at: Date): Promise<CallChange | null> {
      return change(
        `UPDATE calls SET status = $2, end_reason = $3, ended_at = $4, sequence = sequence + 1
         WHERE id = $1 AND status IN ('ringing', 'in-progress') RETURNING *`,
        [id, status, endReason, at],
        (row) => endEventType(row.status),
        at,
      );
    },

    async setAnsweredBy(id: string, answeredBy: 'human' | 'machine' | 'unknown'): Promise<void> {
      await db.query('UPDATE calls SET answered_by = $2 WHERE id = $1', [id, answeredBy]);
    },

    /**
     * Puts a call that ended busy or unanswered back to wait for its next attempt (docs/voice.md#retries): still
     * `ringing`, released by this process, attempt + 1. Null when the call is no longer this process's to redial.
     */
    async awaitRedial(id: string, orchestratorId: string): Promise<CallRow | null> {
      const { rows } = await db.query<CallRow>(
        `UPDATE calls SET orchestrator_id = NULL, heartbeat_at = NULL, attempt = attempt + 1
         WHERE id = $1 AND orchestrator_id = $2 AND status = 'ringing' RETURNING *`,
        [id, orchestratorId],
      );
      return rows[0] ?? null;
    },

    /** Appends a transcript turn; resolves with its number. */
    async addTurn(callId: string, speaker: 'agent' | 'callee', text: string, at: Date): Promise<number> {
      const { rows } = await db.query<{ turn_no: number }>(
        `INSERT INTO call_transcript_turns (call_id, turn_no, speaker, text, at)
         SELECT $1, coalesce(max(turn_no), 0) + 1, $2, $3, $4 FROM call_transcript_turns WHERE call_id = $1 RETURNING turn_no`,
        [callId, speaker, text, at],
      );
      return rows[0].turn_no;
    },

    /** An agent turn the callee cut short (docs/voice-agents.md#full-duplex-listening). */
    async markTurnInterrupted(callId: string, turnNo: number): Promise<void> {
      await db.query('UPDATE call_transcript_turns SET interrupted = true WHERE call_id = $1 AND turn_no = $2', [callId, turnNo]);
    },

    saveRecording(callId: string, wav: Buffer, durationSeconds: number, at: Date): Promise<CallChange | null> {
      return db.transaction(async (tx) => {
        await tx.query(`INSERT INTO call_recordings (call_id, wav, duration_seconds, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (call_id) DO NOTHING`, [
          callId,
          wav,
          durationSeconds,
          at,
        ]);
        const { rows } = await tx.query<CallRow>('UPDATE calls SET sequence = sequence + 1 WHERE id = $1 RETURNING *', [callId]);
        if (!rows[0]) return null;
        return { call: rows[0], events: [await insertCallEvent(tx, rows[0], 'call.recording_ready', at)] };
      });
    },

    /** Marks this process's live calls as alive (docs/voice.md#orchestrator-lost). */
    async heartbeat(orchestratorId: string, callIds: string[], at: Date): Promise<void> {
      if (callIds.length === 0) return;
      await db.query('UPDATE calls SET heartbeat_at = $3 WHERE orchestrator_id = $1 AND id = ANY($2)', [orchestratorId, callIds, at]);
    },

    /** Ends as `failed` / `orchestrator_lost` the live calls whose process stopped beating before `staleBefore`. */
    async failLost(staleBefore: Date, at: Date): Promise<CallChange[]> {
      const { rows } = await db.query<{ id: string }>(
        `SELECT id FROM calls WHERE status IN ('ringing', 'in-progress') AND orchestrator_id IS NOT NULL AND heartbeat_at < $1 LIMIT 100`,
        [staleBefore],
      );
      const changes: CallChange[] = [];
      for (const { id } of rows) {
        const changed = await change(
          `UPDATE calls SET status = 'failed', end_reason = 'orchestrator_lost', ended_at = $2, sequence = sequence + 1
           WHERE id = $1 AND status IN ('ringing', 'in-progress') AND heartbeat_at < $3 RETURNING *`,
          [id, at, staleBefore],
          () => 'call.failed',
          at,
        );
        if (changed) changes.push(changed);
      }
      return changes;
    },
  };
}
export type CallProgressRepository = ReturnType<typeof createCallProgressRepository>;
