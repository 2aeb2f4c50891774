import type { MessageWritesRepository } from '@switchboard/store';
import type { SendMessageStore } from '../processors/send-message.processor';
import { createWriteBatcher } from './write-batcher';

export interface SendBatchOptions {
  /** @defaultValue 64 */
  maxBatch?: number;
  /** @defaultValue 2 */
  waitMs?: number;
}

/**
 * The send processor's store, with the writes every send makes (persist, send guard, then acceptance or failure) gathered
 * across the jobs running together (docs/performance.md#send-batches). Each job still awaits its own committed
 * guard before its upstream call, so exactly-once holds as with one transaction per job
 * (docs/architecture.md#exactly-once-dispatch). The rarer writes (retryable answers, abandoned attempts, reads) stay one per job.
 */
export function createBatchedSendStore(
  store: SendMessageStore & Pick<MessageWritesRepository, 'persistAcceptedMany' | 'startAttempts' | 'attemptsAccepted' | 'attemptsFailed'>,
  options: SendBatchOptions = {},
): SendMessageStore {
  return {
    ...store,
    persistAccepted: createWriteBatcher({ writeMany: store.persistAcceptedMany, writeOne: store.persistAccepted, ...options }),
    startAttempt: createWriteBatcher({ writeMany: store.startAttempts, writeOne: store.startAttempt, ...options }),
    attemptAccepted: createWriteBatcher({ writeMany: store.attemptsAccepted, writeOne: store.attemptAccepted, ...options }),
    attemptFailed: createWriteBatcher({ writeMany: store.attemptsFailed, writeOne: store.attemptFailed, ...options }),
  };
}
