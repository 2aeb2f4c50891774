import { exponentialRetry, JOB_RETENTION } from '../job-options';
import { payloadType, type JobAdder, type QueueContract } from '../queue-contract';
import type { SendMessageJob } from './message-send.queue';

/**
 * Delayed jobs that act on a message when its time comes, produced and consumed by the dispatcher
 * (docs/routing.md#time-based-fallback, docs/routing.md#ttl). Job ids derive from the message and the
 * attempt, so arming a timer again (a retried or crashed run) adds nothing.
 */
export const MESSAGE_TIMERS_QUEUE = {
  name: 'message-timers',
  jobs: { fallbackCheck: 'fallback-check', expire: 'expire' },
  jobOptions: { ...exponentialRetry(8, 1_000), ...JOB_RETENTION },
  payload: payloadType<MessageTimerJob>(),
} as const satisfies QueueContract;

export type MessageTimerJob =
  /** The attempt was accepted; if the message is not delivered when this runs, it moves to the next channel. */
  | { kind: 'fallback-check'; message_id: string; attempt_id: string; timeout_seconds: number; send: SendMessageJob }
  /**
   * ttl_seconds ran out: a message not yet delivered ends `undelivered` / `expired`. Armed by the gateway
   * at acceptance for a scheduled message, with its send job, so that a message the dispatcher never
   * stored (still waiting out send_at or quiet hours) can be stored and ended (docs/routing.md#ttl).
   */
  | { kind: 'expire'; message_id: string; ttl_seconds: number; send?: SendMessageJob };

/** Arms the fallback check of one accepted attempt, `delayMs` from now. */
export function scheduleFallbackCheck(
  queue: JobAdder<MessageTimerJob>,
  input: { attemptId: string; timeoutSeconds: number; send: SendMessageJob; delayMs: number },
): Promise<unknown> {
  const data: MessageTimerJob = {
    kind: 'fallback-check',
    message_id: input.send.message_id,
    attempt_id: input.attemptId,
    timeout_seconds: input.timeoutSeconds,
    send: input.send,
  };
  return queue.add(MESSAGE_TIMERS_QUEUE.jobs.fallbackCheck, data, {
    ...MESSAGE_TIMERS_QUEUE.jobOptions,
    jobId: `fallback-check-${input.attemptId}`,
    delay: Math.max(0, input.delayMs),
  });
}

/** The expiry job of a scheduled message, armed at acceptance (for `addBulk` with its send job). */
export function scheduledExpiryJob(send: SendMessageJob & { ttl_seconds: number }, delayMs: number) {
  const data: MessageTimerJob = { kind: 'expire', message_id: send.message_id, ttl_seconds: send.ttl_seconds, send };
  return {
    name: MESSAGE_TIMERS_QUEUE.jobs.expire,
    data,
    opts: { ...MESSAGE_TIMERS_QUEUE.jobOptions, jobId: `expire-${send.message_id}`, delay: Math.max(0, delayMs) },
  };
}

/** Arms the expiry of a message, `delayMs` from now. */
export function scheduleExpiry(queue: JobAdder<MessageTimerJob>, input: { messageId: string; ttlSeconds: number; delayMs: number }): Promise<unknown> {
  const data: MessageTimerJob = { kind: 'expire', message_id: input.messageId, ttl_seconds: input.ttlSeconds };
  return queue.add(MESSAGE_TIMERS_QUEUE.jobs.expire, data, {
    ...MESSAGE_TIMERS_QUEUE.jobOptions,
    jobId: `expire-${input.messageId}`,
    delay: Math.max(0, input.delayMs),
  });
}
