import { UnrecoverableError, type Job } from 'bullmq';
import type { ConcreteChannel } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';
import type { MessageTimerJob, PublishEvents, SendMessageJob } from '@switchboard/queues';
import { JOB_PAYLOAD_CHECKS } from '@switchboard/schemas';
import type { MessageTimersRepository, MessageWritesRepository, StoredEvent } from '@switchboard/store';
import { fallbackChannel } from '../dispatch/channel-progress';
import { expireStoredOrScheduled, type ScheduledExpiry } from '../dispatch/scheduled-expiry';
import type { DispatcherMetrics } from '../metrics';

export interface MessageTimerDeps {
  timers: MessageTimersRepository;
  store: Pick<MessageWritesRepository, 'attempts'>;
  /** The send processor's own run, used to send on the next channel after a fallback timeout. */
  continueSend: (job: Job<SendMessageJob>, token: string | undefined, data: SendMessageJob) => Promise<void>;
  clock: () => number;
  logger: Logger;
  publishEvents: PublishEvents<StoredEvent>;
  metrics?: DispatcherMetrics;
  /** Ends a message that expired while still scheduled, never stored (docs/routing.md#ttl). @defaultValue none */
  scheduledExpiry?: ScheduledExpiry;
}

/**
 * Runs the message timers. A fallback check leaves an attempt that was not delivered in time and sends
 * on the next channel (docs/routing.md#time-based-fallback); an expiry ends a message whose ttl_seconds
 * ran out (docs/routing.md#ttl). Both are safe to run again: the store decides under the message lock,
 * and the send path's own guard keeps one attempt per channel.
 */
export function createMessageTimerProcessor(deps: MessageTimerDeps) {
  const { timers, store, clock, logger, publishEvents, metrics } = deps;

  return async function processMessageTimer(job: Job<MessageTimerJob>, token?: string): Promise<void> {
    const invalidTimer = JOB_PAYLOAD_CHECKS.messageTimer(job.data);
    if (invalidTimer) throw new UnrecoverableError(invalidTimer);
    const data = job.data;
    const fields = { message_id: data.message_id, job_id: job.id, queue: job.queueName, timer: data.kind };
    if (data.kind === 'expire') {
      const result = await expireStoredOrScheduled(data, timers, deps.scheduledExpiry, new Date(clock()));
      if (result.events.length > 0) await publishEvents(result.events, fields);
      if (result.expired) {
        metrics?.sends.inc({ channel: 'any', outcome: 'expired' });
        logger.info('message expired', fields);
      }
      return;
    }
    const attempts = await store.attempts(data.message_id);
    const attempt = attempts.find((a) => a.id === data.attempt_id);
    if (!attempt) return;
    const next = fallbackChannel(data.send.channel, data.send.plan, attempts, attempt.channel as ConcreteChannel);
    if (!next) return;
    const result = await timers.abandonForFallback({
      messageId: data.message_id,
      attemptId: attempt.id,
      nextChannel: next,
      timeoutSeconds: data.timeout_seconds,
      at: new Date(clock()),
    });
    if (result.events.length > 0) await publishEvents(result.events, fields);
    if (!result.abandoned) return;
    if (result.events.length > 0) {
      metrics?.sends.inc({ channel: attempt.channel, outcome: 'fallback_timeout' });
      logger.info('not delivered in time; falling back to the next channel', { ...fields, channel: attempt.channel, next_channel: next });
    }
    await deps.continueSend(job as unknown as Job<SendMessageJob>, token, data.send);
  };
}
