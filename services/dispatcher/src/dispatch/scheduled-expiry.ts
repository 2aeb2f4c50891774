import type { MessageTimerJob } from '@switchboard/queues';
import { createScheduledMessagesRepository, type Db, type MessageTimersRepository, type ScheduledMessagesRepository } from '@switchboard/store';

export interface ScheduledExpiry {
  store: Pick<ScheduledMessagesRepository, 'expireScheduled'>;
  /** Drops the delayed send job of a message that ended while it waited; a job already running just finds the ended row. */
  dropSendJob: (messageId: string) => Promise<void>;
}

/**
 * An expiry armed by the gateway at acceptance carries the send job (docs/routing.md#ttl): a message
 * still waiting out send_at or quiet hours has no row yet, so it is stored and ended in one transaction.
 * A message the dispatcher already stored is expired as usual.
 */
export async function expireStoredOrScheduled(
  data: Extract<MessageTimerJob, { kind: 'expire' }>,
  timers: Pick<MessageTimersRepository, 'expireMessage'>,
  scheduled: ScheduledExpiry | undefined,
  at: Date,
): Promise<{ expired: boolean; events: Array<{ id: string; account_id: string; type: string; resource_id: string; sequence: number }> }> {
  if (data.send && scheduled) {
    const { message_id: id, ...accepted } = data.send;
    const early = await scheduled.store.expireScheduled({ message: { id, ...accepted }, ttlSeconds: data.ttl_seconds, at });
    if (early.stored) {
      await scheduled.dropSendJob(data.message_id).catch(() => undefined);
      return early;
    }
  }
  return timers.expireMessage({ messageId: data.message_id, ttlSeconds: data.ttl_seconds, at });
}

export function createScheduledExpiry(db: Db, sendQueue: { remove(jobId: string): Promise<number> }): ScheduledExpiry {
  return {
    store: createScheduledMessagesRepository(db),
    dropSendJob: async (messageId) => {
      await sendQueue.remove(messageId);
    },
  };
}
