import type { Db } from '../db';
import { idRange } from '../id-range';

/** Stored messages of a batch by status (docs/messages.md#batch-sends); the batch's ids come from its Redis summary. */
export function createBatchCountsRepository(db: Db) {
  return {
    /** The status of each stored message among `messageIds` (at most a batch's 1,000); unstored ids are absent. */
    async statuses(accountId: string, messageIds: readonly string[]): Promise<Map<string, string>> {
      if (messageIds.length === 0) return new Map();
      const { rows } = await db.query<{ id: string; status: string }>(
        'SELECT id, status FROM messages WHERE account_id = $1 AND id = ANY($2::text[]) AND id >= $3 AND id <= $4',
        [accountId, messageIds, ...idRange(messageIds)],
      );
      return new Map(rows.map((r) => [r.id, r.status]));
    },
  };
}
export type BatchCountsRepository = ReturnType<typeof createBatchCountsRepository>;
