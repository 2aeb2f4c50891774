import type { Redis } from 'ioredis';
import { SANDBOX_WINDOW_ACCOUNT } from '@switchboard/domain';
import {
  exponentialRetry,
  jobAdderByJobId,
  openQueue,
  partitionOf,
  PROVIDER_CALLBACKS_QUEUE,
  publishEventsByAccount,
  queuePartitions,
  type Partitioned,
} from '@switchboard/queues';
import { createCustomerWindowCache, type CustomerWindowCache } from '@switchboard/shared-state';
import { createInboundMessagesRepository, createNumbersRepository, createSuppressionsRepository, type InboundRow } from '@switchboard/store';
import type { PendingAcceptances } from '../dispatch/pending-acceptances';
import { createInboundHandler } from '../processors/inbound.handler';
import { createOptOutHandler } from '../processors/opt-out.handler';
import { createProviderCallbackProcessor, RECEIPT_MATCH_ATTEMPTS, RECEIPT_RETRY_BACKOFF_MS } from '../processors/provider-callback.processor';
import { createReceiptBatcher } from '../processors/receipt-batcher';
import { createTemplateSubmitProcessor } from '../processors/template-submit.processor';
import { createTemplateUpdateHandler } from '../processors/template-update.handler';
import { forwardSmsCallbacks, SMPP_RECEIPT_BATCH_MAX } from '../upstreams/sms-callbacks.forwarder';
import type { DispatcherContext } from './dispatcher-context';
import type { EventPublishing } from './events.wiring';
import type { Sending } from './sending.wiring';

/** One queue partition's parts of the dispatcher: its prefix, its event publishing and its send path. */
export interface DispatcherPartition {
  prefix: string;
  events: EventPublishing;
  sending: Sending;
}
import type { Upstreams } from './upstreams.wiring';

/**
 * Where upstream callbacks land: every partition's provider-callbacks queue, which the SMPP sessions' receipts go to,
 * each job to the partition of its job id (docs/storage-layout.md#redis-keys-and-cluster).
 */
export function wireCallbackQueues(ctx: DispatcherContext, upstreams: Upstreams, pendingAcceptances: PendingAcceptances, connections: readonly Redis[]) {
  const callbackQueues = queuePartitions(ctx.config.queuePrefix, connections.length).map(({ prefix, index }) =>
    openQueue(PROVIDER_CALLBACKS_QUEUE, { connection: connections[index], prefix }),
  );
  const callbackJobs = jobAdderByJobId(callbackQueues);
  const retry = exponentialRetry(RECEIPT_MATCH_ATTEMPTS, RECEIPT_RETRY_BACKOFF_MS);
  // SMS receipts that overtake their acceptance wait for it (docs/performance/dispatch.md#dispatch), at most one retry's backoff.
  for (const sms of upstreams.adapters.smsSessions) {
    forwardSmsCallbacks({
      sms,
      queue: callbackJobs,
      clock: ctx.clock,
      retry,
      maxReceiptsPerJob: SMPP_RECEIPT_BATCH_MAX,
      pendingAcceptances,
      maxAcceptanceWaitMs: RECEIPT_RETRY_BACKOFF_MS,
      replicaAck: ctx.replicaAck,
    });
  }
  return callbackQueues;
}

/**
 * The processors of upstream callbacks (receipts, inbound messages with STOP/START, template reviews) and of
 * template submissions (docs/chat.md, docs/routing.md#opt-out).
 */
export function wireCallbackProcessors(ctx: DispatcherContext, upstreams: Upstreams, partitions: Partitioned<DispatcherPartition>) {
  const { config, db, store, redis, clock, logger, metrics } = ctx;
  // Callbacks arrive on the shared tag; what they change belongs to an account, and goes to its partition.
  const publishEvents = publishEventsByAccount({ parts: partitions.parts.map((p) => p.events.publishEvents) });
  // STOP/START confirmations are ordinary messages of the account (docs/routing.md#opt-out).
  const optOuts = partitions.parts.map(({ sending }) =>
    createOptOutHandler({
      suppressions: createSuppressionsRepository(db),
      cache: sending.suppressionCache,
      numbers: createNumbersRepository(db),
      sendQueue: sending.sendLanes.of('transactional'),
      replies: config.optOutReplies,
      prices: config.prices,
      logger,
      clock,
    }),
  );
  const optOut = (row: InboundRow) => optOuts[partitionOf(row.account_id, optOuts.length)](row);
  // A window no account owns (the shared sandbox sender's) lives under the shared tag, where every gateway app reads it.
  const windowsOf = [...partitions.parts.map((p) => p.prefix), ctx.queueOptions.prefix].map((prefix) => createCustomerWindowCache({ redis, prefix }));
  const windows: Pick<CustomerWindowCache, 'remember'> = {
    remember: (w, ...rest) =>
      windowsOf[w.accountId === SANDBOX_WINDOW_ACCOUNT ? partitions.parts.length : partitionOf(w.accountId, partitions.parts.length)].remember(w, ...rest),
  };
  const providerCallback = createProviderCallbackProcessor({
    receipts: createReceiptBatcher({ store }),
    logger,
    config: { receiptMatchAttempts: RECEIPT_MATCH_ATTEMPTS },
    metrics,
    publishEvents,
    handlers: {
      inbound: createInboundHandler({
        inbound: createInboundMessagesRepository(db),
        // The gateway checks the 24 h window on this key; the row in PostgreSQL is the record.
        windows,
        logger,
        clock,
        sandboxSender: config.sandboxSender,
        publishEvents,
        optOut,
      }),
      templateUpdates: createTemplateUpdateHandler({ templates: partitions.at(0).sending.templates, logger, clock }),
    },
  });
  const submitTemplate = createTemplateSubmitProcessor({ templates: partitions.at(0).sending.templates, providers: upstreams.adapters.byMode, logger, clock });
  return { providerCallback, submitTemplate };
}
