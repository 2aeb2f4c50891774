import type { Queue } from 'bullmq';
import { costUnits, estimatedDelivery, renderAsText, type UnitPrices } from '@switchboard/domain';
import { enqueueSendMessage, type SendMessageJob } from '@switchboard/queues';
import type { MessageRequest } from '@switchboard/schemas';
import type { NumberRecord } from '@switchboard/store';
import type { DependencyGuard } from '../http/dependency-guard';
import type { Caller } from '../http/request-context';
import type { StoredResponse } from '../idempotency/idempotency.store';
import { resolveSenders, type SenderPlan } from './sender-resolution';

export interface MessageAcceptanceDeps {
  queue: Queue;
  /** The account's numbers, oldest first; cached by the caller. */
  accountNumbers: (accountId: string) => Promise<NumberRecord[]>;
  guard: DependencyGuard;
  prices: UnitPrices;
  sandboxSender: string;
  /** Template and 24 h window rules (docs/chat.md); may take chat out of an `auto` plan. */
  chatGate?: (accountId: string, request: MessageRequest, senders: SenderPlan) => Promise<SenderPlan>;
  /** The suppression list (docs/routing.md#opt-out); may take channels out of an `auto` plan. */
  suppressionGate?: (accountId: string, recipient: string, senders: SenderPlan) => Promise<SenderPlan>;
  /** Milliseconds the message waits for quiet hours to end (docs/routing.md#quiet-hours); 0 to send now. */
  quietHoursDelay?: (accountId: string, request: MessageRequest) => Promise<number>;
  /** Whether the dispatcher already persisted the message (its job may be gone from the queue by then). */
  messageStored: (messageId: string) => Promise<boolean>;
  clock?: () => number;
}

export interface MessageAcceptance {
  /** Resolves senders and cost into the job; throws 422 (or 503 for the store) with nothing enqueued. */
  prepare(caller: Caller, request: MessageRequest, messageId: string): Promise<SendMessageJob>;
  /** Enqueues the job under its message id; BullMQ ignores a second add of the same id. */
  enqueue(job: SendMessageJob): Promise<void>;
  /** Whether the message of this id reached the queue (it is there, or the dispatcher already stored it). */
  wasEnqueued(messageId: string): Promise<boolean>;
}

/** Exactly the documented 202 fields, in their documented order (docs/messages.md#sending-a-message). */
export function acceptedResponse(job: Pick<SendMessageJob, 'message_id' | 'channel' | 'recipient' | 'created_at' | 'cost_units' | 'scheduled_until'>): StoredResponse {
  const body = {
    id: job.message_id,
    status: job.scheduled_until ? 'scheduled' : 'queued',
    channel: job.channel,
    recipient: job.recipient,
    created_at: job.created_at,
    estimated_delivery: estimatedDelivery(job.channel),
    cost_units: job.cost_units,
  };
  return { status: 202, body: JSON.stringify(body), location: `/v1/messages/${job.message_id}` };
}

export function createMessageAcceptance({ queue, accountNumbers, guard, prices, sandboxSender, chatGate, suppressionGate, quietHoursDelay, messageStored, clock = Date.now }: MessageAcceptanceDeps): MessageAcceptance {
  return {
    async prepare(caller, request, messageId) {
      const numbers = await accountNumbers(caller.accountId);
      const resolved = resolveSenders({
        channel: request.channel,
        fallback: request.fallback,
        from: request.from,
        mode: caller.mode,
        numbers,
        sandboxSender,
      });
      const gated = chatGate ? await chatGate(caller.accountId, request, resolved) : resolved;
      const { plan, senders, skipped } = suppressionGate ? await suppressionGate(caller.accountId, request.recipient, gated) : gated;
      // Priced on the first channel that will really be tried.
      const firstChannel = plan.find((c) => !skipped?.[c]) ?? plan[0];
      const job: SendMessageJob = {
        message_id: messageId,
        account_id: caller.accountId,
        mode: caller.mode,
        channel: request.channel,
        plan,
        senders,
        recipient: request.recipient,
        cost_units: costUnits(firstChannel, renderAsText(request.content, request.template), prices),
        created_at: new Date(clock()).toISOString(),
      };
      if (request.content !== undefined) job.content = request.content;
      if (request.template !== undefined) job.template = request.template;
      if (request.callback_url !== undefined) job.callback_url = request.callback_url;
      if (request.ttl_seconds !== undefined) job.ttl_seconds = request.ttl_seconds;
      if (request.fallback_timeout_seconds !== undefined) job.fallback_timeout_seconds = request.fallback_timeout_seconds;
      if (request.metadata !== undefined) job.metadata = request.metadata;
      if (skipped && Object.keys(skipped).length > 0) job.skipped_channels = skipped;
      const delayMs = quietHoursDelay ? await quietHoursDelay(caller.accountId, request) : 0;
      if (delayMs > 0) job.scheduled_until = new Date(clock() + delayMs).toISOString();
      return job;
    },

    async enqueue(job) {
      // The delay is counted from now, so a takeover after the gateway died still waits only until scheduled_until.
      const delayMs = job.scheduled_until ? Date.parse(job.scheduled_until) - clock() : 0;
      await guard('redis', () => enqueueSendMessage(queue, job, delayMs));
    },

    async wasEnqueued(messageId) {
      if (await guard('redis', () => queue.getJob(messageId))) return true;
      return guard('store', () => messageStored(messageId));
    },
  };
}
