import { createFairShare, enqueueSendMessages, MESSAGE_TIMERS_QUEUE, openQueue, openSendLanes } from '@switchboard/queues';
import { createSuppressionCache } from '@switchboard/shared-state';
import { createAccountSettingsRepository, createMessageTimersRepository, createTemplatesRepository } from '@switchboard/store';
import { createBatchedSendStore } from '../dispatch/batched-send-store';
import { createLaneTurns } from '../dispatch/lane-turns';
import { createMessageTimers } from '../dispatch/message-timers';
import type { PendingAcceptances } from '../dispatch/pending-acceptances';
import { createScheduledExpiry } from '../dispatch/scheduled-expiry';
import { THROTTLE_DELAY_MS } from '../dispatch/send-failure.policy';
import { createMediaCheck } from '../media/media-check';
import { createMessageTimerProcessor } from '../processors/message-timer.processor';
import { createSendChunkProcessor } from '../processors/send-chunk.processor';
import { createSendMessageProcessor } from '../processors/send-message.processor';
import type { DispatcherContext } from './dispatcher-context';
import type { EventPublishing } from './events.wiring';
import type { Upstreams } from './upstreams.wiring';

/**
 * The send path (docs/messages.md#traffic-lanes, docs/messages.md#chunk-lifecycle): both lanes' queues and their
 * turns, the send and chunk processors, and the timers that move a message on (fallback, TTL expiry). Built once
 * per queue partition, under `ctx.queueOptions.prefix`: a job's onward jobs stay in its partition.
 */
export function wireSending(ctx: DispatcherContext, upstreams: Upstreams, events: EventPublishing, pendingAcceptances: PendingAcceptances) {
  const { config, db, store, redis, queueOptions, clock, logger, metrics } = ctx;
  const { adapters, senderLimits } = upstreams;
  const { publishEvents } = events;
  const templates = createTemplatesRepository(db);
  const accountSettings = createAccountSettingsRepository(db);
  const timerQueue = openQueue(MESSAGE_TIMERS_QUEUE, queueOptions);
  const messageTimers = createMessageTimers({
    queue: timerQueue,
    clock,
    defaultFallbackTimeoutSeconds: config.fallbackTimeoutSeconds,
    accountFallbackTimeout: async (accountId) => (await accountSettings.find(accountId))?.fallback_timeout_seconds ?? null,
  });
  const suppressionCache = createSuppressionCache({ redis, prefix: queueOptions.prefix });
  const sendLanes = openSendLanes(queueOptions);
  const fairShare = createFairShare({ redis, prefix: queueOptions.prefix });
  const laneTurns = createLaneTurns({ fairShare, lanes: sendLanes, logger });
  const sendMessage = createSendMessageProcessor({
    rcsResendDeduped: (mode) => adapters.rcsResendDeduped[mode],
    senderSlot: (mode, channel, sender, messageId, lane) => senderLimits.take(adapters.senderSchedules[mode][channel], sender, messageId, lane),
    timers: messageTimers,
    store: createBatchedSendStore(store, { pendingAcceptances }),
    suppressedChannels: (...args) => suppressionCache.suppressedChannels(...args),
    providers: adapters.byMode,
    clock,
    logger,
    config: { reconcileTimeoutMs: config.reconcileTimeoutMs, throttleDelayMs: THROTTLE_DELAY_MS },
    metrics,
    publishEvents,
    checkContent: createMediaCheck(config.targets),
    templateBodies: async (accountId, t) => {
      const row = await templates.findByName(accountId, t.name, t.language);
      return row?.status === 'approved' ? row.body_text : undefined;
    },
  });
  const sendChunk = createSendChunkProcessor({
    sendMember: sendMessage.sendChunkMember,
    store,
    forgetChunkMembers: (ids) => sendLanes.forgetChunkMembers(ids),
    handOff: (placements) => enqueueSendMessages(sendLanes.of('bulk'), placements),
    fairShare,
    clock,
    logger,
  });
  const messageTimer = createMessageTimerProcessor({
    timers: createMessageTimersRepository(db),
    store,
    continueSend: sendMessage.continueSend,
    clock,
    logger,
    publishEvents,
    metrics,
    scheduledExpiry: createScheduledExpiry(db, sendLanes),
  });
  return { sendLanes, laneTurns, timerQueue, suppressionCache, templates, sendMessage, sendChunk, messageTimer };
}
export type Sending = ReturnType<typeof wireSending>;
