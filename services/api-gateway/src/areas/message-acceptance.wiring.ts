import { createPooledIdGenerator, SANDBOX_WINDOW_ACCOUNT } from '@switchboard/domain';
import { createFairShare, MESSAGE_TIMERS_QUEUE, openQueue } from '@switchboard/queues';
import { createCustomerWindowCache, createSuppressionCache } from '@switchboard/shared-state';
import { createAccountSettingsRepository, createMessageReadsRepository, createTemplatesRepository } from '@switchboard/store';
import { createChatSendGate } from '../chat/chat-send.gate';
import { createIdempotencyStore, type IdempotencyStore } from '../idempotency/idempotency.store';
import type { MessageAcceptanceDeps } from '../messages/message-acceptance';
import { createQuietHoursSchedule } from '../messages/quiet-hours.schedule';
import { createSuppressionGate } from '../messages/suppression.gate';
import { createLoadingCache } from '../support/loading-cache';
import type { GatewayContext } from './gateway-context';

/** What the single, chat and batch sends share: the acceptance's parts, idempotency, the suppression copy, ids. */
export interface MessageAcceptanceWiring {
  acceptanceDeps: MessageAcceptanceDeps;
  idempotency: IdempotencyStore;
  suppressionCache: ReturnType<typeof createSuppressionCache>;
  newMessageId: () => string;
}

/** The acceptance of a message (docs/architecture.md: route → acceptance → queue), built once for every send route. */
export function wireMessageAcceptance(ctx: GatewayContext): MessageAcceptanceWiring {
  const { config, db, redis, guard, clock } = ctx;
  const templates = createTemplatesRepository(db);
  // Template sends read the definition; a short cache keeps a burst of sends off the store (docs/chat.md#sending-a-template).
  const templateFacts = createLoadingCache({
    load: (key) => {
      const [accountId, name, language] = key.split('\n');
      return guard('store', () => templates.findByName(accountId, name, language));
    },
    ttlMs: config.templateCacheTtlMs,
    clock,
  });
  const customerWindows = createCustomerWindowCache({ redis, prefix: ctx.prefix });
  // The sandbox sender's windows belong to no account: under the shared tag (docs/storage-layout.md#queue-partitions).
  const sandboxWindows = createCustomerWindowCache({ redis, prefix: ctx.sharedPrefix });
  const chatGate = createChatSendGate({
    findTemplate: (accountId, name, language) => templateFacts(`${accountId}\n${name}\n${language}`),
    // A test key without a chat number sends from the shared sandbox sender, whose replies no account owns.
    windowIsOpen: async (window) =>
      (await customerWindows.isOpen(window)) ||
      (window.sender === config.sandboxSender && (await sandboxWindows.isOpen({ ...window, accountId: SANDBOX_WINDOW_ACCOUNT }))),
    guard,
  });
  const accountSettings = createAccountSettingsRepository(db);
  // Read on marketing sends; cached like the numbers so the send path adds no store round trip.
  const accountQuietHours = createLoadingCache({
    load: async (accountId) => (await accountSettings.find(accountId))?.quiet_hours ?? null,
    ttlMs: config.numbersCacheTtlMs,
    clock,
  });
  const suppressionCache = createSuppressionCache({ redis, prefix: ctx.prefix });
  const timersQueue = openQueue(MESSAGE_TIMERS_QUEUE, { connection: redis, prefix: ctx.prefix });
  // A Redis outage reaches each request through the guard; unheard, the queue's own 'error' event would crash the process.
  timersQueue.on('error', () => undefined);
  const messageReads = createMessageReadsRepository(db);
  const acceptanceDeps: MessageAcceptanceDeps = {
    lanes: ctx.sendLanes,
    fairShare: createFairShare({ redis, prefix: ctx.prefix }),
    accountNumbers: ctx.accountNumbers,
    guard,
    prices: config.prices,
    sandboxSender: config.sandboxSender,
    chatGate,
    suppressionGate: createSuppressionGate({ suppressedChannels: (...args) => suppressionCache.suppressedChannels(...args), guard }),
    quietHoursDelay: createQuietHoursSchedule({
      accountQuietHours,
      templateCategory: async (accountId, t) => (await templateFacts(`${accountId}\n${t.name}\n${t.language}`))?.category ?? null,
      guard,
      clock,
    }),
    messageStored: (id) => messageReads.exists(id),
    replicaAck: ctx.replicaAck,
    timersQueue,
    clock,
  };
  const idempotency = createIdempotencyStore({
    redis,
    keyPrefix: ctx.prefix,
    leaseMs: config.idempotencyLeaseMs,
    clock,
  });
  const ids = createPooledIdGenerator();
  return { acceptanceDeps, idempotency, suppressionCache, newMessageId: () => ids('msg') };
}
