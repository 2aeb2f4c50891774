import { newId, type ConcreteChannel } from '@switchboard/domain';
import type { Queryable } from '../db';

export type SuppressionSource = 'inbound' | 'api';

export interface SuppressionRow {
  id: string;
  account_id: string;
  channel: ConcreteChannel;
  recipient: string;
  source: SuppressionSource;
  created_at: Date;
}

const COLUMNS = 'id, account_id, channel, recipient, source, created_at';

/**
 * The suppression list's record (docs/routing.md#opt-out). Writers change this table first and the
 * Redis copy the gateway reads second, so a crash between the two is repaired by the next write or by
 * the dispatcher's start-up copy (`listAll`).
 */
export function createSuppressionsRepository(db: Queryable) {
  return {
    /** Adds the recipient, or returns the row already there (a second STOP changes nothing). */
    async add(input: {
      accountId: string;
      channel: ConcreteChannel;
      recipient: string;
      source: SuppressionSource;
      at: Date;
    }): Promise<{ row: SuppressionRow; created: boolean }> {
      const inserted = await db.query<SuppressionRow>(
        `INSERT INTO suppressions (id, account_id, channel, recipient, source, created_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (account_id, channel, recipient) DO NOTHING RETURNING ${COLUMNS}`,
        [newId('sup'), input.accountId, input.channel, input.recipient, input.source, input.at],
      );
      if (inserted.rows[0]) return { row: inserted.rows[0], created: true };
      const { rows } = await db.query<SuppressionRow>(`SELECT ${COLUMNS} FROM suppressions WHERE account_id = $1 AND channel = $2 AND recipient = $3`, [
        input.accountId,
        input.channel,
        input.recipient,
      ]);
      return { row: rows[0], created: false };
    },

    /** Removes by (channel, recipient); the removed row, or null when there was none. */
    async removeRecipient(accountId: string, channel: ConcreteChannel, recipient: string): Promise<SuppressionRow | null> {
      const { rows } = await db.query<SuppressionRow>(
        `DELETE FROM suppressions WHERE account_id = $1 AND channel = $2 AND recipient = $3 RETURNING ${COLUMNS}`,
        [accountId, channel, recipient],
      );
      return rows[0] ?? null;
    },

    async removeById(accountId: string, id: string): Promise<SuppressionRow | null> {
      const { rows } = await db.query<SuppressionRow>(`DELETE FROM suppressions WHERE account_id = $1 AND id = $2 RETURNING ${COLUMNS}`, [accountId, id]);
      return rows[0] ?? null;
    },

    async list(accountId: string, filter: { channel?: string; recipient?: string; beforeId?: string; limit: number }): Promise<SuppressionRow[]> {
      const { rows } = await db.query<SuppressionRow>(
        `SELECT ${COLUMNS} FROM suppressions
         WHERE account_id = $1 AND ($2::text IS NULL OR channel = $2) AND ($3::text IS NULL OR recipient = $3) AND ($4::text IS NULL OR id < $4)
         ORDER BY id DESC LIMIT $5`,
        [accountId, filter.channel ?? null, filter.recipient ?? null, filter.beforeId ?? null, filter.limit],
      );
      return rows;
    },

    /** Every row, for rebuilding the Redis copy; `afterId` pages through a long list. */
    async listAll(afterId: string | null, limit: number): Promise<SuppressionRow[]> {
      const { rows } = await db.query<SuppressionRow>(`SELECT ${COLUMNS} FROM suppressions WHERE ($1::text IS NULL OR id > $1) ORDER BY id LIMIT $2`, [
        afterId,
        limit,
      ]);
      return rows;
    },
  };
}
export type SuppressionsRepository = ReturnType<typeof createSuppressionsRepository>;
