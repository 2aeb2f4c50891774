import type { ConcreteChannel } from '@switchboard/domain';
import { scheduleExpiry, scheduleFallbackCheck, type JobAdder, type MessageTimerJob, type SendMessageJob } from '@switchboard/queues';
import type { AttemptRow } from '@switchboard/store';
import { fallbackChannel } from './channel-progress';

/** Arms the delayed jobs of docs/routing.md#time-based-fallback and docs/routing.md#ttl. Arming twice adds nothing. */
export interface MessageTimers {
  /** After an acceptance: the check that moves an `auto` message on if it is not delivered in time. */
  armFallbackCheck(send: SendMessageJob, attempts: readonly AttemptRow[]): Promise<void>;
  /** Once the message is persisted: its end at created_at + ttl_seconds. */
  armExpiry(send: SendMessageJob): Promise<void>;
}

export function createMessageTimers(deps: {
  queue: JobAdder<MessageTimerJob>;
  clock: () => number;
  /** When neither the request nor the account set one. */
  defaultFallbackTimeoutSeconds: number;
  /** The account's own default (`PATCH /v1/account`), if any. */
  accountFallbackTimeout: (accountId: string) => Promise<number | null>;
}): MessageTimers {
  return {
    async armFallbackCheck(send, attempts) {
      if (send.channel !== 'auto') return;
      const latest = attempts[attempts.length - 1];
      if (!latest || latest.status !== 'sent' || latest.abandoned_at) return;
      if (!fallbackChannel(send.channel, send.plan, attempts, latest.channel as ConcreteChannel)) return;
      const timeoutSeconds = send.fallback_timeout_seconds ?? (await deps.accountFallbackTimeout(send.account_id)) ?? deps.defaultFallbackTimeoutSeconds;
      await scheduleFallbackCheck(deps.queue, { attemptId: latest.id, timeoutSeconds, send, delayMs: timeoutSeconds * 1000 });
    },
    async armExpiry(send) {
      if (send.ttl_seconds === undefined) return;
      const delayMs = new Date(send.created_at).getTime() + send.ttl_seconds * 1000 - deps.clock();
      await scheduleExpiry(deps.queue, { messageId: send.message_id, ttlSeconds: send.ttl_seconds, delayMs });
    },
  };
}
