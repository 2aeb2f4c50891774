import { UnrecoverableError, type Job } from 'bullmq';
import { randomInt } from 'node:crypto';
import type { ConcreteChannel, TemplateReference } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';
import { ProviderError, type OutboundContent, type SendAccepted } from '@switchboard/providers';
import { laneOf, type PublishEvents, type SendMessageJob, type TrafficLane } from '@switchboard/queues';
import { JOB_PAYLOAD_CHECKS } from '@switchboard/schemas';
import { isHandedOff, type AttemptRow, type MessageRow, type MessageWritesRepository, type StoredEvent, type StoredProgress } from '@switchboard/store';
import { channelsWithoutSender, currentChannel, fallbackChannel } from '../dispatch/channel-progress';
import { buildOutboundContent, templateOf } from '../dispatch/outbound-content';
import { classifySendFailure } from '../dispatch/send-failure.policy';
import type { DispatcherMetrics } from '../metrics';
import type { AdaptersByMode } from '../upstreams/adapter-sets';
import type { MessageTimers } from '../dispatch/message-timers';
import { jobHost, type MessageRunHost } from './message-run-host';

export type SendMessageStore = Pick<
  MessageWritesRepository,
  'persistAccepted' | 'startAttempt' | 'attemptAccepted' | 'attemptFailed' | 'attemptRetryable' | 'abandonAttempt' | 'failMessage' | 'attempts' | 'findRow'
>;

/** Finds the stored body of an approved template, to render it as text on SMS and RCS (docs/messages.md#auto-fallback). */
export type TemplateBodyLookup = (accountId: string, template: TemplateReference) => Promise<string | undefined>;

export interface SendMessageDeps {
  store: SendMessageStore;
  providers: AdaptersByMode;
  clock: () => number;
  logger: Logger;
  config: {
    /** How long a send of unknown outcome waits for a receipt before it is sent again. */
    reconcileTimeoutMs: number;
    /** Delay of a throttled send when the upstream named none. */
    throttleDelayMs: number;
  };
  publishEvents: PublishEvents<StoredEvent>;
  metrics?: DispatcherMetrics;
  /** @defaultValue none: a template renders as its parameters joined by spaces */
  templateBodies?: TemplateBodyLookup;
  /**
   * Checks the content right before it is sent (the chat media HEAD check); a `ProviderError` it throws
   * is handled like the upstream's own refusal. @defaultValue none
   */
  checkContent?: (content: OutboundContent) => Promise<void>;
  /** SMPP `user_message_reference` of a new SMS attempt. @defaultValue random 1..65535 */
  newAttemptRef?: () => number;
  /** Arms fallback checks and ttl expiry (docs/routing.md). @defaultValue none: no time-based fallback, no expiry after hand-off */
  timers?: MessageTimers;
  /**
   * The suppression list's Redis copy, asked again for a message that waited out quiet hours: the customer
   * may have opted out meanwhile (docs/routing.md#quiet-hours). @defaultValue none
   */
  suppressedChannels?: (accountId: string, recipient: string, channels: readonly ConcreteChannel[]) => Promise<Set<ConcreteChannel>>;
  /**
   * Takes a slot of the per-sender limit (docs/routing.md#per-sender-limits): 0 to send now, else the
   * milliseconds to wait, which the message waits out without using an attempt. @defaultValue none: no limits
   */
  /**
   * Whether an RCS resend in this mode is deduped by RBM: true with one RBM upstream. With several, an RCS
   * send of unknown outcome is reconciled like chat and SMS (docs/routing.md#several-upstreams-per-channel).
   * @defaultValue always true
   */
  rcsResendDeduped?: (mode: SendMessageJob['mode']) => boolean;
  senderSlot?: (mode: SendMessageJob['mode'], channel: ConcreteChannel, sender: string, messageId: string, lane: TrafficLane) => Promise<number>;
}

type Pass = 'done' | 'next';

const IN_FLIGHT_RECHECK_MS = 1_000;

interface RunContext {
  host: MessageRunHost;
  data: SendMessageJob;
  fields: Record<string, unknown>;
  /** The channel whose per-sender slot this run already took. */
  slotTakenFor?: ConcreteChannel;
}

/**
 * Persists, then sends one accepted message, channel by channel. Every decision is read from and
 * written to the store before the upstream is called, so the job itself is stateless: a run after a
 * crash (or a second run after its lock expired) continues from what the store says, and the
 * `startAttempt` guard, with reconciliation, keeps it from sending a message twice
 * (docs/architecture.md#exactly-once-dispatch).
 */
export function createSendMessageProcessor(deps: SendMessageDeps) {
  const { store, providers, clock, logger, config, metrics, publishEvents } = deps;
  const newAttemptRef = deps.newAttemptRef ?? (() => randomInt(1, 65_536));
  // Receipts that came while no dispatcher ran wait in the callback queue (SMS ones at the SMSC until we bind):
  // a reconcile deadline counted only from the send would pass before this process could read any of them
  // (docs/architecture.md#exactly-once-dispatch).
  const listeningSince = clock();
  // Messages whose upstream call this process has not finished. A run of the same job after its lock
  // expired (a starved event loop: BullMQ's stalled check hands it out again) must not take that call for lost.
  const sendsInFlight = new Set<string>();

  async function publish(events: StoredEvent[], ctx: RunContext): Promise<void> {
    if (events.length > 0) await publishEvents(events, ctx.fields);
  }

  function count(channel: string, outcome: string): void {
    metrics?.sends.inc({ channel, outcome });
  }

  /**
   * Takes a slot of the per-sender limit, or leaves the run until the limiter's turn for it, without
   * using an attempt (docs/routing.md#per-sender-limits).
   */
  async function waitForSenderSlot(ctx: RunContext, channel: ConcreteChannel): Promise<void> {
    const waitMs = await deps.senderSlot?.(ctx.data.mode, channel, ctx.data.senders[channel]?.e164 ?? '', ctx.data.message_id, laneOf(ctx.data));
    ctx.slotTakenFor = channel;
    if (!waitMs) return;
    count(channel, 'sender_rate_limited');
    await delayUntil(ctx, clock() + waitMs);
  }

  /** Leaves the run until `at`, without using up one of the job's attempts. */
  function delayUntil(ctx: RunContext, at: number): Promise<never> {
    return ctx.host.leaveUntil(at);
  }

  async function endMessage(ctx: RunContext, status: 'failed' | 'undelivered', errorCode: string, errorMessage: string): Promise<Pass> {
    const result = await store.failMessage({ messageId: ctx.data.message_id, status, errorCode, errorMessage, at: new Date(clock()) });
    await publish(result.events, ctx);
    logger.info('message ended before reaching an upstream', { ...ctx.fields, status, error_code: errorCode });
    return 'done';
  }

  /** What is left of ttl_seconds, for the SMSC's validity period (docs/routing.md#ttl). */
  function remainingTtlSeconds(data: SendMessageJob): number | undefined {
    if (data.ttl_seconds === undefined) return undefined;
    return Math.max(1, Math.ceil((new Date(data.created_at).getTime() + data.ttl_seconds * 1000 - clock()) / 1000));
  }

  function isExpired(row: MessageRow, ttlSeconds: number | undefined): boolean {
    return ttlSeconds !== undefined && clock() >= new Date(row.created_at).getTime() + ttlSeconds * 1000;
  }

  /**
   * A previous run recorded `sending` and never its outcome. Chat and SMS have no idempotency, so
   * their receipt decides: a receipt matched by our reference moves the message to `sent` or beyond
   * (and the next `startAttempt` answers `finished`); without one by the deadline, the attempt is
   * abandoned and the next pass sends again.
   */
  async function reconcile(ctx: RunContext, attempt: AttemptRow): Promise<Pass> {
    if (sendsInFlight.has(ctx.data.message_id)) {
      logger.warn('send still in flight in this process after the job was retaken; waiting for its outcome', { ...ctx.fields, channel: attempt.channel });
      // Looked at again each second: the first run usually stores its outcome moments later.
      return delayUntil(ctx, clock() + IN_FLIGHT_RECHECK_MS);
    }
    const due = Math.max(new Date(attempt.updated_at).getTime(), listeningSince) + config.reconcileTimeoutMs;
    if (clock() < due) {
      logger.info('send outcome unknown; waiting for a receipt', { ...ctx.fields, channel: attempt.channel, until: new Date(due).toISOString() });
      return delayUntil(ctx, due);
    }
    await store.abandonAttempt(attempt, new Date(clock()));
    count(attempt.channel, 'abandoned');
    logger.warn('no receipt for a send of unknown outcome; sending again', { ...ctx.fields, channel: attempt.channel });
    return 'next';
  }

  async function onSendFailure(ctx: RunContext, error: unknown, attempt: AttemptRow, nextChannel: ConcreteChannel | null): Promise<Pass> {
    const channel = attempt.channel as ConcreteChannel;
    const decision = classifySendFailure({
      error,
      channel,
      nextChannel,
      attemptsExhausted: ctx.host.lastAttempt,
      throttleDelayMs: config.throttleDelayMs,
      rcsDeduped: deps.rcsResendDeduped?.(ctx.data.mode) ?? true,
    });
    const base = {
      messageId: ctx.data.message_id,
      attemptId: attempt.id,
      errorCode: decision.errorCode,
      errorMessage: decision.errorMessage,
      at: new Date(clock()),
    };
    const logFields = { ...ctx.fields, channel, action: decision.action, error_code: decision.errorCode, detail: decision.errorMessage };
    switch (decision.action) {
      case 'fallback': {
        const result = await store.attemptFailed({ ...base, nextChannel: decision.nextChannel });
        await publish(result.events, ctx);
        count(channel, 'fallback');
        logger.info('falling back to the next channel', { ...logFields, next_channel: decision.nextChannel });
        return 'next';
      }
      case 'fail': {
        const result = await store.attemptFailed({ ...base, finalStatus: 'failed', carrierStatusCode: decision.upstreamCode });
        await publish(result.events, ctx);
        count(channel, 'failed');
        logger.info('message failed', logFields);
        return 'done';
      }
      case 'throttle':
        await store.attemptRetryable(base);
        count(channel, 'throttled');
        logger.info('upstream throttled; delaying', { ...logFields, delay_ms: decision.delayMs });
        return delayUntil(ctx, clock() + decision.delayMs);
      case 'retry':
        // An attempt whose outcome is unknown stays `sending`, so the next run reconciles instead of resending.
        if (decision.resendSafe) await store.attemptRetryable(base);
        count(channel, 'retry');
        logger.warn('transient send failure; retrying with backoff', { ...logFields, resend_safe: decision.resendSafe });
        throw new Error(decision.errorMessage);
    }
  }

  async function sendOnChannel(ctx: RunContext, attempt: AttemptRow, fresh: boolean, earlier: AttemptRow[]): Promise<Pass> {
    const { data } = ctx;
    const channel = attempt.channel as ConcreteChannel;
    const nextChannel = fallbackChannel(data.channel, data.plan, earlier, channel);
    const adapters = providers[data.mode];
    let accepted: SendAccepted;
    try {
      // The gateway already knew this channel cannot carry the message: record the switch, call no upstream.
      if (data.skipped_channels?.[channel] === 'outside_customer_service_window') {
        throw new ProviderError('window_closed', 'outside_customer_service_window', 'the 24 h customer service window was closed at acceptance');
      }
      if (data.skipped_channels?.[channel] === 'recipient_opted_out') {
        throw new ProviderError('permanent', 'recipient_opted_out', 'the recipient opted out of this channel (docs/routing.md#opt-out)');
      }
      // A fresh `auto` attempt on RCS asks first; a resend of an unknown outcome goes straight to the
      // upstream, which dedupes on our messageId and answers 404 itself for a phone without RCS.
      if (channel === 'rcs' && data.channel === 'auto' && fresh && !(await adapters.rcs.isReachable(data.recipient))) {
        throw new ProviderError('unreachable', 'NOT_FOUND', 'the capability check found no RCS for this phone');
      }
      const template = channel === 'chat' ? undefined : templateOf(data);
      const templateBody = template && deps.templateBodies ? await deps.templateBodies(data.account_id, template) : undefined;
      const content = buildOutboundContent(channel, data, templateBody);
      if (!content) throw new ProviderError('permanent', 'content_not_supported_on_channel', `the payload has no text to send on ${channel}`);
      await deps.checkContent?.(content);
      const sender = data.senders[channel];
      const validitySeconds = channel === 'sms' ? remainingTtlSeconds(data) : undefined;
      sendsInFlight.add(data.message_id);
      accepted = await adapters[channel].send({
        ...(validitySeconds === undefined ? {} : { validitySeconds }),
        clientRef: data.message_id,
        attemptRef: attempt.attempt_ref ?? undefined,
        to: data.recipient,
        from: sender?.e164 ?? '',
        chatPhoneNumberId: sender?.chat_phone_number_id,
        content,
      });
    } catch (error) {
      try {
        return await onSendFailure(ctx, error, attempt, nextChannel);
      } finally {
        sendsInFlight.delete(data.message_id);
      }
    }
    let result;
    try {
      result = await store.attemptAccepted({
        messageId: data.message_id,
        attemptId: attempt.id,
        upstreamMessageId: accepted.upstreamMessageId,
        partIds: accepted.partIds,
        at: new Date(clock()),
      });
    } finally {
      // Held until the acceptance is stored, so that a retaken run then finds the message handed off.
      sendsInFlight.delete(data.message_id);
    }
    await publish(result.events, ctx);
    // Only `auto` has a time-based fallback to arm; other messages spare the read of their attempts.
    if (data.channel === 'auto') await deps.timers?.armFallbackCheck(data, await store.attempts(data.message_id));
    count(channel, 'accepted');
    logger.info('upstream accepted the message', {
      ...ctx.fields,
      channel,
      upstream_message_id: accepted.upstreamMessageId,
      parts: accepted.parts,
      already_accepted: accepted.alreadyAccepted ?? false,
    });
    return 'done';
  }

  /** One decision: finish, move to the next pass (fallback, abandoned attempt), or leave the run. */
  async function runPass(ctx: RunContext, known?: StoredProgress): Promise<Pass> {
    const { data } = ctx;
    // A message this run has just inserted has no attempts yet, and a chunk reads its slice at once: two reads
    // spared per message (docs/performance/dispatch.md#dispatch).
    const row = known?.row ?? (await store.findRow(data.message_id));
    if (!row) return 'done';
    const attempts = known ? known.attempts : await store.attempts(data.message_id);
    if (isHandedOff(row.status, attempts)) {
      // Arming again is a no-op unless a crash came between the acceptance and its timer.
      if (row.status === 'sent') await deps.timers?.armFallbackCheck(data, attempts);
      return 'done';
    }
    if (isExpired(row, data.ttl_seconds)) {
      count(row.channel_used ?? data.channel, 'expired');
      return endMessage(ctx, 'undelivered', 'expired', `not handed to an upstream within ttl_seconds (${data.ttl_seconds})`);
    }
    const channel = currentChannel(data.plan, attempts);
    if (!channel) {
      const last = attempts[attempts.length - 1];
      return endMessage(ctx, 'failed', last?.error_code ?? 'no_channel_left', last?.error_message ?? 'every channel of the plan was tried');
    }
    if (ctx.slotTakenFor !== channel) await waitForSenderSlot(ctx, channel);
    const started = await store.startAttempt({
      messageId: data.message_id,
      channel,
      sender: data.senders[channel]?.e164 ?? '',
      attemptRef: channel === 'sms' ? newAttemptRef() : undefined,
      at: new Date(clock()),
    });
    await publish(started.events, ctx);
    if (started.outcome === 'finished') return 'done';
    const deduped = started.outcome === 'ambiguous' && started.attempt.channel === 'rcs' && (deps.rcsResendDeduped?.(data.mode) ?? true);
    if (started.outcome === 'ambiguous' && !deduped) return reconcile(ctx, started.attempt);
    return sendOnChannel(ctx, started.attempt, started.outcome === 'started', attempts);
  }

  async function withLateOptOuts(data: SendMessageJob): Promise<SendMessageJob> {
    if (!data.scheduled_until || !deps.suppressedChannels) return data;
    const suppressed = await deps.suppressedChannels(data.account_id, data.recipient, data.plan);
    if (suppressed.size === 0) return data;
    const skipped = { ...data.skipped_channels };
    for (const channel of suppressed) skipped[channel] = 'recipient_opted_out';
    return { ...data, skipped_channels: skipped };
  }

  /**
   * Persists (idempotently) and sends `data` from wherever the store says it stands. The fallback check
   * runs this too, on its own job, once it has moved the message off a channel that timed out.
   */
  async function run(job: Job<SendMessageJob>, token: string | undefined, data: SendMessageJob): Promise<void> {
    const host = jobHost(job, token, data);
    const ctx: RunContext = { host, data, fields: host.fields };
    // A message that has to wait for its sender's limit leaves before any store work, which a backlog
    // waiting on one sender would otherwise repeat at every turn. The first channel of the plan is the one a
    // fresh message goes to; on a run after a crash or a fallback the pass takes the slot it needs itself.
    const firstChannel = data.plan.find((channel) => !data.skipped_channels?.[channel]);
    if (firstChannel) await waitForSenderSlot(ctx, firstChannel);
    const { message_id: id, ...accepted } = data;
    const persisted = await store.persistAccepted({ id, ...accepted });
    await sendStored(ctx, persisted?.inserted ? { row: persisted, attempts: [] } : undefined);
  }

  /** Sends a stored message from wherever the store says it stands; `known` spares the first pass its reads. */
  async function sendStored(ctx: RunContext, known?: StoredProgress): Promise<void> {
    const { data } = ctx;
    if (data.ttl_seconds !== undefined) await deps.timers?.armExpiry(data);
    const unsendable = channelsWithoutSender(data.plan, data.senders);
    if (unsendable.length > 0) {
      await endMessage(ctx, 'failed', 'no_sender_for_channel', `no sender was resolved for ${unsendable.join(', ')}`);
      return;
    }
    // Each channel needs at most two passes (an abandoned unknown outcome, then its own decision).
    for (let pass = 0; pass < data.plan.length * 2 + 1; pass += 1) {
      if ((await runPass(ctx, pass === 0 ? known : undefined)) === 'done') return;
    }
    throw new Error(`no decision for ${data.message_id} after ${data.plan.length * 2 + 1} passes`);
  }

  /**
   * A chunk's message (docs/messages.md#chunk-lifecycle), already stored by the chunk: the same passes as a job of
   * its own, under the chunk's host. `known` is its row and attempts, read with the rest of its slice.
   */
  async function sendChunkMember(data: SendMessageJob, host: MessageRunHost, known: StoredProgress | undefined): Promise<void> {
    await sendStored({ host, data: await withLateOptOuts(data), fields: host.fields }, known);
  }

  async function processSendMessage(job: Job<SendMessageJob>, token?: string): Promise<void> {
    const invalid = JOB_PAYLOAD_CHECKS.sendMessage(job.data);
    if (invalid) throw new UnrecoverableError(invalid);
    await run(job, token, await withLateOptOuts(job.data));
  }
  return Object.assign(processSendMessage, { continueSend: run, sendChunkMember });
}
