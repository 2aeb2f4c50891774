import { createBatcher, type Batched } from '@switchboard/runtime';
import type { MessageWritesRepository } from '@switchboard/store';
import type { SendMessageStore } from '../processors/send-message.processor';
import type { PendingAcceptances } from './pending-acceptances';

/** 64: every send job of a dispatcher at the default concurrency (32 per lane, two lanes) fits one batch (docs/performance/dispatch.md#send-batches). */
export const SEND_BATCH_MAX = 64;
/** 2 ms: long enough for the jobs started together to join, short against a send's own latency (docs/performance/dispatch.md#send-batches). */
export const SEND_BATCH_WAIT_MS = 2;

export interface SendBatchOptions {
  /** @defaultValue {@link SEND_BATCH_MAX} */
  maxBatch?: number;
  /** @defaultValue {@link SEND_BATCH_WAIT_MS} */
  waitMs?: number;
  /** Where acceptances being written are registered, so that an early receipt waits for its own. @defaultValue none */
  pendingAcceptances?: PendingAcceptances;
}

/**
 * The send processor's store, with the writes every send makes (persist, send guard, then acceptance or failure) gathered
 * across the jobs running together (docs/performance/dispatch.md#send-batches). Each job still awaits its own committed
 * guard before its upstream call, so exactly-once holds as with one transaction per job
 * (docs/architecture.md#exactly-once-dispatch). The rarer writes (retryable answers, abandoned attempts, reads) stay one per job.
 */
export function createBatchedSendStore(
  store: SendMessageStore & Pick<MessageWritesRepository, 'persistAcceptedMany' | 'startAttempts' | 'attemptsAccepted' | 'attemptsFailed'>,
  options: SendBatchOptions = {},
): SendMessageStore {
  const { pendingAcceptances, maxBatch = SEND_BATCH_MAX, waitMs = SEND_BATCH_WAIT_MS } = options;
  // Each write is all or nothing: when a batch fails nothing of it was written, and each job's write is tried alone.
  const batched = <I, R>(runMany: (inputs: I[]) => Promise<R[]>, runOne: (input: I) => Promise<R>): Batched<I, R> =>
    createBatcher({ runMany, runOne, flush: { waitMs }, maxSize: maxBatch, onGroupFailure: 'retry-each-alone' });
  const attemptAccepted = batched(store.attemptsAccepted, store.attemptAccepted);
  return {
    ...store,
    persistAccepted: batched(store.persistAcceptedMany, store.persistAccepted),
    startAttempt: batched(store.startAttempts, store.startAttempt),
    attemptAccepted: pendingAcceptances
      ? (input) => pendingAcceptances.track([input.upstreamMessageId, ...(input.partIds ?? [])], attemptAccepted(input))
      : attemptAccepted,
    attemptFailed: batched(store.attemptsFailed, store.attemptFailed),
  };
}
