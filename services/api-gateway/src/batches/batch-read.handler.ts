import type { RequestHandler } from 'express';
import { isId, MESSAGE_STATUSES, NotFoundError } from '@switchboard/domain';
import type { BatchCountsRepository } from '@switchboard/store';
import type { DependencyGuard } from '../http/dependency-guard';
import { callerOf } from '../http/request-context';
import type { BatchSummaryStore } from './batch-summary.store';

/**
 * `GET /v1/batches/{id}` (docs/messages.md#batch-sends): counts per status. Stored messages are counted
 * from PostgreSQL; a message the dispatcher has not stored yet is counted from the Redis summary, as
 * `scheduled` until its time and `queued` after, exactly as GET /v1/messages/{id} shows it.
 */
export function createBatchReadHandler({
  summaries,
  counts,
  guard,
  clock = Date.now,
}: {
  summaries: BatchSummaryStore;
  counts: BatchCountsRepository;
  guard: DependencyGuard;
  clock?: () => number;
}): RequestHandler {
  return async (req, res) => {
    const { accountId } = callerOf(res);
    const id = req.params.id;
    // Malformed ids are answered like unknown ones (docs/conventions.md#identifiers).
    if (!isId('bat', id)) throw new NotFoundError();
    const summary = await guard('redis', () => summaries.find(id));
    if (!summary || summary.account_id !== accountId) throw new NotFoundError();
    const stored = await guard('store', () =>
      counts.statuses(
        accountId,
        summary.messages.map(([messageId]) => messageId),
      ),
    );
    const byStatus: Record<string, number> = Object.fromEntries(MESSAGE_STATUSES.map((s) => [s, 0]));
    const now = clock();
    for (const [messageId, until] of summary.messages) {
      const status = stored.get(messageId) ?? (until !== null && Date.parse(until) > now ? 'scheduled' : 'queued');
      byStatus[status] = (byStatus[status] ?? 0) + 1;
    }
    res.json({
      id: summary.id,
      created_at: summary.created_at,
      total: summary.total,
      accepted: summary.messages.length,
      rejected: summary.rejected,
      counts: byStatus,
    });
  };
}
