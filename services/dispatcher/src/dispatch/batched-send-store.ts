import { createBatcher, type Batched } from '@switchboard/runtime';
import type { MessageWritesRepository } from '@switchboard/store';
import type { SendMessageStore } from '../processors/send-message.processor';
import type { PendingAcceptances } from './pending-acceptances';

/** Writes per transaction at most: the config's default (docs/performance/dispatch.md#send-batches). */
const DEFAULT_MAX_BATCH = 64;
/** How long the first write of a batch waits for the other running jobs' writes: the config's default. */
const DEFAULT_WAIT_MS = 2;

export interface SendBatchOptions {
  /** 1 writes every job alone, as before the send batches (an A/B in one checkout). @defaultValue 64 */
  maxBatch?: number;
  /** @defaultValue 2 */
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
  const { pendingAcceptances, maxBatch = DEFAULT_MAX_BATCH, waitMs = DEFAULT_WAIT_MS } = options;
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
