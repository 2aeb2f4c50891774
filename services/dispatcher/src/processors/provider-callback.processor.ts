import { UnrecoverableError, type Job } from 'bullmq';
import type { UpstreamInbound, UpstreamReceipt, UpstreamTemplateUpdate } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';
import type { ProviderCallbackJob, PublishEvents } from '@switchboard/queues';
import { JOB_PAYLOAD_CHECKS } from '@switchboard/schemas';
import type { StoredEvent } from '@switchboard/store';
import type { DispatcherMetrics } from '../metrics';
import type { ReceiptBatcher } from './receipt-batcher';

/**
 * Where inbound replies and template reviews go. A callback job is retried as a whole while one of
 * its receipts is unmatched, so a handler must be idempotent (inbound items carry the upstream id).
 */
export interface CallbackHandlers {
  inbound(items: UpstreamInbound[], job: Job<ProviderCallbackJob>): Promise<void>;
  templateUpdates(items: UpstreamTemplateUpdate[], job: Job<ProviderCallbackJob>): Promise<void>;
}

/**
 * A receipt that overtook its send's own write runs at most 5 times, the first retry after 500 ms and each wait
 * doubling: the write is milliseconds behind, so this covers a slow store without keeping an unmatched receipt long.
 */
export const RECEIPT_MATCH_ATTEMPTS = 5;
export const RECEIPT_RETRY_BACKOFF_MS = 500;

export interface ProviderCallbackDeps {
  /** Applies the job's receipts, usually together with those of other jobs running at once (receipt-batcher.ts). */
  receipts: ReceiptBatcher;
  logger: Logger;
  config: {
    /** Runs of a job whose receipt matches no attempt yet, before it is logged and dropped. */
    receiptMatchAttempts: number;
  };
  handlers: CallbackHandlers;
  publishEvents: PublishEvents<StoredEvent>;
  metrics?: DispatcherMetrics;
}

/**
 * Applies verified upstream callbacks. Receipts go to the store, which keeps status monotonic and
 * ignores duplicates. A receipt can overtake the send's own write of its attempt (chat and RBM answer
 * fast), so an unmatched receipt makes the job retry with backoff a few times before it is dropped; one whose
 * reference names no message of ours is dropped at once.
 */
export function createProviderCallbackProcessor(deps: ProviderCallbackDeps) {
  const { receipts: receiptBatcher, logger, config, metrics, handlers, publishEvents } = deps;

  return async function processProviderCallback(job: Job<ProviderCallbackJob>): Promise<void> {
    const invalid = JOB_PAYLOAD_CHECKS.providerCallback(job.data);
    if (invalid) throw new UnrecoverableError(invalid);
    const { receipts, inbound, template_updates: templateUpdates } = job.data;
    const runsAllowed = Math.min(config.receiptMatchAttempts, job.opts.attempts ?? 1);
    const lastRun = job.attemptsMade + 1 >= runsAllowed;
    const unmatched: UpstreamReceipt[] = [];
    const notOurs: UpstreamReceipt[] = [];

    const results = await receiptBatcher.apply(receipts);
    // Published once for the whole job: a job may carry many receipts (SMPP receipts arriving together), and
    // one publish per receipt, one after the other, would each be a statement of its own.
    const events: StoredEvent[] = [];
    for (const [index, receipt] of receipts.entries()) {
      const result = results[index];
      const fields = { job_id: job.id, channel: receipt.channel, status: receipt.status, upstream_message_id: receipt.upstreamMessageId };
      if (!result.matched) {
        // A receipt naming no message of ours cannot match on a later run: dropped at once, not retried
        // (docs/performance/dispatch-cost.md#receipts-that-are-not-ours).
        (result.notOurs ? notOurs : unmatched).push(receipt);
        metrics?.receipts.inc({ channel: receipt.channel, status: receipt.status, result: lastRun || result.notOurs ? 'dropped' : 'unmatched' });
        continue;
      }
      metrics?.receipts.inc({ channel: receipt.channel, status: receipt.status, result: 'matched' });
      logger.debug('receipt applied', { ...fields, message_id: result.messageId, changed: result.events.length > 0 });
      events.push(...result.events);
    }
    if (events.length > 0) await publishEvents(events, { job_id: job.id, source: job.data.source });

    if (inbound.length > 0) await handlers.inbound(inbound, job);
    if (templateUpdates.length > 0) await handlers.templateUpdates(templateUpdates, job);

    const idsOf = (list: UpstreamReceipt[]) => list.map((r) => `${r.channel}:${r.upstreamMessageId}:${r.status}`);
    if (notOurs.length > 0) logger.warn('receipts name no message of ours; dropped', { job_id: job.id, receipts: idsOf(notOurs) });
    if (unmatched.length === 0) return;
    const ids = idsOf(unmatched);
    if (!lastRun) throw new Error(`receipts match no attempt yet: ${ids.join(', ')}`);
    logger.warn('receipts match no attempt; dropped', { job_id: job.id, receipts: ids, runs: job.attemptsMade + 1 });
  };
}
