import { CUSTOMER_SERVICE_WINDOW_MS, type ConcreteChannel, type CustomerWindowKey } from '@switchboard/domain';
import { createCustomerWindowCache, type WindowCacheRedis } from './customer-window.cache';
import { createSuppressionCache, type SuppressionCacheRedis } from './suppression.cache';

/** Rows per page when the copies are rebuilt: one query and one pipeline-sized burst of writes each. */
const COPY_PAGE_SIZE = 1_000;

export interface PartitionCopiesDeps {
  redis: SuppressionCacheRedis & WindowCacheRedis;
  /** The prefix of an account's queue partition under the new layout. */
  prefixOf: (accountId: string) => string;
  suppressions: { listAll(afterId: string | null, limit: number): Promise<Array<{ id: string; account_id: string; channel: string; recipient: string }>> };
  windows: { listOpen(since: Date, after: CustomerWindowKey | null, limit: number): Promise<Array<CustomerWindowKey & { lastInboundAt: Date }>> };
  clock?: () => number;
}

/**
 * Writes the Redis copies the gateway reads on its hot path, the suppression list and the open customer windows,
 * from their PostgreSQL records under each account's partition, when the partition count changes
 * (docs/operations.md#changing-queue-partitions): without them an opted-out recipient would look reachable.
 * Answers how many keys were written.
 */
export async function copyStateToPartitions({ redis, prefixOf, suppressions, windows, clock = Date.now }: PartitionCopiesDeps): Promise<number> {
  let written = 0;
  for (let afterId: string | null = null; ;) {
    const rows = await suppressions.listAll(afterId, COPY_PAGE_SIZE);
    await Promise.all(
      rows.map((r) =>
        createSuppressionCache({ redis, prefix: prefixOf(r.account_id) }).add({
          accountId: r.account_id,
          channel: r.channel as ConcreteChannel,
          recipient: r.recipient,
        }),
      ),
    );
    written += rows.length;
    if (rows.length < COPY_PAGE_SIZE) break;
    afterId = rows[rows.length - 1].id;
  }
  const now = clock();
  for (let after: CustomerWindowKey | null = null; ;) {
    const rows = await windows.listOpen(new Date(now - CUSTOMER_SERVICE_WINDOW_MS), after, COPY_PAGE_SIZE);
    await Promise.all(rows.map((w) => createCustomerWindowCache({ redis, prefix: prefixOf(w.accountId) }).remember(w, w.lastInboundAt, now)));
    written += rows.length;
    if (rows.length < COPY_PAGE_SIZE) break;
    const last = rows[rows.length - 1];
    after = { accountId: last.accountId, sender: last.sender, customer: last.customer };
  }
  return written;
}
