import { UnrecoverableError, type Job } from 'bullmq';
import type { Logger } from '@switchboard/providers';
import type { InboundPayload, ProviderCallbackJob, ReceiptPayload, TemplateUpdatePayload } from '@switchboard/queues';
import { JOB_PAYLOAD_CHECKS } from '@switchboard/schemas';
import type { MessageWritesRepository } from '@switchboard/store';
import { publishNothing, type PublishEvents } from '../events';
import type { DispatcherMetrics } from '../metrics';

/**
 * Where inbound replies and template reviews go. A callback job is retried as a whole while one of
 * its receipts is unmatched, so a handler must be idempotent (inbound items carry the upstream id).
 */
export interface CallbackHandlers {
  inbound(items: InboundPayload[], job: Job<ProviderCallbackJob>): Promise<void>;
  templateUpdates(items: TemplateUpdatePayload[], job: Job<ProviderCallbackJob>): Promise<void>;
}

/** The handlers until inbound replies and template reviews are built: they only log. */
export function loggingCallbackHandlers(logger: Logger): CallbackHandlers {
  return {
    inbound: async (items, job) => {
      for (const item of items) logger.debug('inbound not handled yet', { job_id: job.id, channel: item.channel, upstream_id: item.upstreamId });
    },
    templateUpdates: async (items, job) => {
      for (const item of items) logger.debug('template update not handled yet', { job_id: job.id, name: item.name, status: item.status });
    },
  };
}

export interface ProviderCallbackDeps {
  store: Pick<MessageWritesRepository, 'applyReceipt'>;
  logger: Logger;
  config: {
    /** Runs of a job whose receipt matches no attempt yet, before it is logged and dropped. */
    receiptMatchAttempts: number;
  };
  /** @defaultValue {@link loggingCallbackHandlers} */
  handlers?: CallbackHandlers;
  /** @defaultValue {@link publishNothing} */
  publishEvents?: PublishEvents;
  metrics?: DispatcherMetrics;
}

/**
 * Applies verified upstream callbacks. Receipts go to the store, which keeps status monotonic and
 * ignores duplicates. A receipt can overtake the send's own write of its attempt (chat and RBM answer
 * fast), so an unmatched receipt makes the job retry with backoff a few times before it is dropped.
 */
export function createProviderCallbackProcessor(deps: ProviderCallbackDeps) {
  const { store, logger, config, metrics } = deps;
  const handlers = deps.handlers ?? loggingCallbackHandlers(logger);
  const publishEvents = deps.publishEvents ?? publishNothing;

  return async function processProviderCallback(job: Job<ProviderCallbackJob>): Promise<void> {
    const invalid = JOB_PAYLOAD_CHECKS.providerCallback(job.data);
    if (invalid) throw new UnrecoverableError(invalid);
    const { receipts, inbound, template_updates: templateUpdates } = job.data;
    const runsAllowed = Math.min(config.receiptMatchAttempts, job.opts.attempts ?? 1);
    const lastRun = job.attemptsMade + 1 >= runsAllowed;
    const unmatched: ReceiptPayload[] = [];

    for (const receipt of receipts) {
      const result = await store.applyReceipt(receipt);
      const fields = { job_id: job.id, channel: receipt.channel, status: receipt.status, upstream_message_id: receipt.upstreamMessageId };
      if (!result.matched) {
        unmatched.push(receipt);
        metrics?.receipts.inc({ channel: receipt.channel, status: receipt.status, result: lastRun ? 'dropped' : 'unmatched' });
        continue;
      }
      metrics?.receipts.inc({ channel: receipt.channel, status: receipt.status, result: 'matched' });
      logger.debug('receipt applied', { ...fields, message_id: result.messageId, changed: result.events.length > 0 });
      if (result.events.length > 0) {
        try {
          await publishEvents(result.events);
        } catch (error) {
          logger.error('publishing events failed; they stay in the outbox', { ...fields, error: (error as Error).message });
        }
      }
    }

    if (inbound.length > 0) await handlers.inbound(inbound, job);
    if (templateUpdates.length > 0) await handlers.templateUpdates(templateUpdates, job);

    if (unmatched.length === 0) return;
    const ids = unmatched.map((r) => `${r.channel}:${r.upstreamMessageId}:${r.status}`);
    if (!lastRun) throw new Error(`receipts match no attempt yet: ${ids.join(', ')}`);
    logger.warn('receipts match no attempt; dropped', { job_id: job.id, receipts: ids, runs: job.attemptsMade + 1 });
  };
}
