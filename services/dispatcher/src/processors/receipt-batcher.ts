import type { UpstreamReceipt } from '@switchboard/domain';
import type { MessageWritesRepository, ReceiptResult } from '@switchboard/store';

export interface ReceiptBatcher {
  /** The results of `receipts`, in their order; rejects only with an error of this caller's own receipts. */
  apply(receipts: readonly UpstreamReceipt[]): Promise<ReceiptResult[]>;
}

interface Waiting {
  receipts: readonly UpstreamReceipt[];
  resolve: (results: ReceiptResult[]) => void;
  reject: (error: unknown) => void;
}

/**
 * Applies the receipts of the callback jobs running at the same moment in one transaction
 * (docs/performance.md#receipt-batches): it collects for `waitMs` or until `maxReceipts`, then writes them
 * together. When that transaction fails, nothing of it was applied, and each job's receipts are applied again
 * in a transaction of their own, so that one bad receipt (or a deadlock) fails only its own job.
 */
export function createReceiptBatcher({
  store,
  maxReceipts = 100,
  waitMs = 2,
}: {
  store: Pick<MessageWritesRepository, 'applyReceipts'>;
  maxReceipts?: number;
  waitMs?: number;
}): ReceiptBatcher {
  let waiting: Waiting[] = [];
  let count = 0;
  let timer: NodeJS.Timeout | undefined;

  const flush = async () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = waiting;
    waiting = [];
    count = 0;
    if (batch.length === 0) return;
    if (batch.length === 1) return settleAlone(batch[0]);
    try {
      const results = await store.applyReceipts(batch.flatMap((entry) => entry.receipts));
      let offset = 0;
      for (const entry of batch) {
        entry.resolve(results.slice(offset, offset + entry.receipts.length));
        offset += entry.receipts.length;
      }
    } catch {
      await Promise.all(batch.map(settleAlone));
    }
  };

  const settleAlone = async (entry: Waiting) => {
    try {
      entry.resolve(await store.applyReceipts(entry.receipts));
    } catch (error) {
      entry.reject(error);
    }
  };

  return {
    apply(receipts) {
      if (receipts.length === 0) return Promise.resolve([]);
      return new Promise<ReceiptResult[]>((resolve, reject) => {
        waiting.push({ receipts, resolve, reject });
        count += receipts.length;
        if (count >= maxReceipts) void flush();
        else timer ??= setTimeout(() => void flush(), waitMs);
      });
    },
  };
}
