import type { UpstreamReceipt } from '@switchboard/domain';
import { createBatcher } from '@switchboard/runtime';
import type { MessageWritesRepository, ReceiptResult } from '@switchboard/store';

export interface ReceiptBatcher {
  /** The results of `receipts`, in their order; rejects only with an error of this caller's own receipts. */
  apply(receipts: readonly UpstreamReceipt[]): Promise<ReceiptResult[]>;
}

/** 100 receipts keep one transaction short while taking every receipt of a busy moment (docs/performance/dispatch.md#receipt-batches). */
export const RECEIPT_BATCH_MAX = 100;
/** 2 ms: the callback jobs running together join, and a lone receipt is hardly delayed (docs/performance/dispatch.md#receipt-batches). */
export const RECEIPT_BATCH_WAIT_MS = 2;

/**
 * Applies the receipts of the callback jobs running at the same moment in one transaction
 * (docs/performance/dispatch.md#receipt-batches): it collects for `waitMs` or until `maxReceipts` receipts, then writes them
 * together. When that transaction fails, nothing of it was applied, and each job's receipts are applied again
 * in a transaction of their own, so that one bad receipt (or a deadlock) fails only its own job.
 */
export function createReceiptBatcher({
  store,
  maxReceipts = RECEIPT_BATCH_MAX,
  waitMs = RECEIPT_BATCH_WAIT_MS,
}: {
  store: Pick<MessageWritesRepository, 'applyReceipts'>;
  maxReceipts?: number;
  waitMs?: number;
}): ReceiptBatcher {
  const applyTogether = createBatcher<readonly UpstreamReceipt[], ReceiptResult[]>({
    runOne: (receipts) => store.applyReceipts(receipts),
    runMany: async (jobs) => {
      const results = await store.applyReceipts(jobs.flat());
      let offset = 0;
      return jobs.map((receipts) => results.slice(offset, (offset += receipts.length)));
    },
    flush: { waitMs },
    maxSize: maxReceipts,
    sizeOf: (receipts) => receipts.length,
    onGroupFailure: 'retry-each-alone',
  });
  return {
    apply: (receipts) => (receipts.length === 0 ? Promise.resolve([]) : applyTogether(receipts)),
  };
}
