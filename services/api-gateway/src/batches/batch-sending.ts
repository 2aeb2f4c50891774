import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import type { Queue } from 'bullmq';
import type { Scope } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';
import { createEventPublisher, publishEventsOrLeaveInOutbox, type ReplicaAck, type SendLanes } from '@switchboard/queues';
import { createBatchRequestValidator } from '@switchboard/schemas';
import {
  createBatchCountsRepository,
  createEventsRepository,
  createMessageReadsRepository,
  createScheduledMessagesRepository,
  type Db,
} from '@switchboard/store';
import type { GatewayConfig } from '../config';
import type { DependencyGuard } from '../http/dependency-guard';
import type { IdempotencyStore } from '../idempotency/idempotency.store';
import { createMessageCancelHandler } from '../messages/message-cancel.handler';
import { createMessageAcceptance, type MessageAcceptanceDeps } from '../messages/message-acceptance';
import { createSuppressionGate } from '../messages/suppression.gate';
import { jsonBody } from '../http/json-body.middleware';
import { batchesRouter } from '../routes/batches.route';
import { createBatchReadHandler } from './batch-read.handler';
import { createBatchSummaryStore } from './batch-summary.store';
import { createSendBatchHandler, type BatchAdmission } from './batch-send.handler';
import { createCoalescedSuppressionLookup } from './batch-suppression-lookup';

/** 1,000 items of a few hundred bytes each do not fit the single send's limit (docs/messages.md#batch-sends). */
export const BATCH_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

export interface BatchSendingDeps {
  config: GatewayConfig;
  db: Db;
  redis: Redis;
  logger: Logger;
  guard: DependencyGuard;
  sendLanes: SendLanes;
  eventFanoutQueue: Queue;
  /** The prefix of the app's queue partition (docs/storage-layout.md#redis-keys-and-cluster). */
  prefix: string;
  /** Batch admission shared by every partition's app. @defaultValue this app's own */
  batchAdmission?: BatchAdmission;
  /** The single send's acceptance parts; batches swap in a suppression lookup coalesced into one MGET. */
  acceptanceDeps: MessageAcceptanceDeps;
  idempotency: IdempotencyStore;
  /** Confirms the fan-out jobs before their events are marked published (docs/operations.md#redis-failover). */
  replicaAck: ReplicaAck;
  newMessageId: () => string;
  authenticated: (scope: Scope) => RequestHandler[];
  clock: () => number;
}

/**
 * Batch sends, GET /v1/batches/{id} and the cancel of scheduled messages (docs/messages.md#batch-sends,
 * docs/messages.md#canceling-a-scheduled-message), wired in one place so app.ts only mounts them.
 */
export function createBatchSending(deps: BatchSendingDeps) {
  const { config, db, redis, logger, guard, clock } = deps;
  const summaries = createBatchSummaryStore({ redis, prefix: deps.prefix });
  const acceptance = createMessageAcceptance({
    ...deps.acceptanceDeps,
    suppressionGate: createSuppressionGate({
      suppressedChannels: createCoalescedSuppressionLookup({ mget: (...keys) => redis.mget(...keys), prefix: deps.prefix }),
      guard,
    }),
  });
  const sendBatch = createSendBatchHandler({
    validateBatch: createBatchRequestValidator({ webhookTargets: config.webhookTargets, allowHttpMediaLinks: config.webhookTargets.allowHttp, clock }),
    acceptance,
    idempotency: deps.idempotency,
    summaries,
    guard,
    newMessageId: deps.newMessageId,
    clock,
    admission: deps.batchAdmission,
  });
  const getBatch = createBatchReadHandler({ summaries, counts: createBatchCountsRepository(db), guard, clock });
  const publishEvents = publishEventsOrLeaveInOutbox(
    createEventPublisher({ queue: deps.eventFanoutQueue, outbox: createEventsRepository(db), replicaAck: deps.replicaAck }),
    logger,
  );
  const cancelMessage = createMessageCancelHandler({
    queue: deps.sendLanes,
    reads: createMessageReadsRepository(db),
    scheduled: createScheduledMessagesRepository(db),
    publishEvents,
    guard,
    logger,
    clock,
  });
  return {
    router: batchesRouter({
      authenticateWrite: deps.authenticated('messages:write'),
      authenticateRead: deps.authenticated('messages:read'),
      body: jsonBody(Math.max(config.bodyLimitBytes, BATCH_BODY_LIMIT_BYTES)),
      sendBatch,
      getBatch,
    }),
    cancel: { cancelMessage, authenticateCancel: deps.authenticated('messages:write') },
  };
}
