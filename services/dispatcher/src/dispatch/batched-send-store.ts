import type { MessageWritesRepository } from '@switchboard/store';
import type { SendMessageStore } from '../processors/send-message.processor';
import type { PendingAcceptances } from './pending-acceptances';
import { createWriteBatcher } from './write-batcher';

export interface SendBatchOptions {
  /** @defaultValue 64 */
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
  const { pendingAcceptances, ...batching } = options;
  const attemptAccepted = createWriteBatcher({ writeMany: store.attemptsAccepted, writeOne: store.attemptAccepted, ...batching });
  return {
    ...store,
    persistAccepted: createWriteBatcher({ writeMany: store.persistAcceptedMany, writeOne: store.persistAccepted, ...batching }),
    startAttempt: createWriteBatcher({ writeMany: store.startAttempts, writeOne: store.startAttempt, ...batching }),
    attemptAccepted: pendingAcceptances
      ? (input) => pendingAcceptances.track([input.upstreamMessageId, ...(input.partIds ?? [])], attemptAccepted(input))
      : attemptAccepted,
    attemptFailed: createWriteBatcher({ writeMany: store.attemptsFailed, writeOne: store.attemptFailed, ...batching }),
  };
}
