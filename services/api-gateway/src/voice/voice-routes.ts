import type { Queue } from 'bullmq';
import type { RequestHandler, Router } from 'express';
import type { Redis } from 'ioredis';
import { createPooledIdGenerator } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';
import { createEventPublisher, enqueuePlaceCall, openQueue, publishEventsOrLeaveInOutbox, VOICE_CALLS_QUEUE } from '@switchboard/queues';
import { createAgentRequestValidator, createCallRequestValidator } from '@switchboard/schemas';
import { createAgentsRepository, createCallsRepository, createEventsRepository, type Db, type NumberRecord } from '@switchboard/store';
import type { ReplicaAck } from '@switchboard/queues';
import type { GatewayConfig } from '../config';
import type { DependencyGuard } from '../http/dependency-guard';
import { createVoiceAgentHandlers, voiceAgentsRouter } from '../routes/voice-agents.route';
import { createVoiceCallHandlers, voiceCallsRouter } from '../routes/voice-calls.route';
import { createCallAcceptance } from './call-acceptance';

export interface VoiceRoutesDeps {
  config: Readonly<GatewayConfig>;
  db: Db;
  redis: Redis;
  eventFanoutQueue: Queue;
  logger: Logger;
  guard: DependencyGuard;
  authenticated: (scope: 'calls:write' | 'calls:read' | 'agents:write') => RequestHandler[];
  jsonBody: RequestHandler[];
  accountNumbers: (accountId: string) => Promise<NumberRecord[]>;
  replicaAck: ReplicaAck;
  clock: () => number;
  /** The prefix of the app's queue partition: the call queue's. */
  prefix: string;
  /** The prefix every partition shares: the hang-up channel's, which every orchestrator listens on. */
  sharedPrefix: string;
}

/** The voice API's routers (docs/voice.md), built in one place so app.ts registers them with one line. */
export function createVoiceRouters(deps: VoiceRoutesDeps): Router[] {
  const { config, db, guard, clock } = deps;
  // Shares the gateway's producer connection (offline queue off: an outage is a 503 at once).
  const voiceQueue = openQueue(VOICE_CALLS_QUEUE, { connection: deps.redis, prefix: deps.prefix });
  voiceQueue.on('error', () => undefined);
  const publishEvents = publishEventsOrLeaveInOutbox(
    createEventPublisher({ queue: deps.eventFanoutQueue, outbox: createEventsRepository(db), replicaAck: deps.replicaAck }),
    deps.logger,
  );
  const calls = createCallsRepository(db);
  const agents = createAgentsRepository(db);
  const newId = createPooledIdGenerator();
  const accept = createCallAcceptance({
    calls,
    agents,
    accountNumbers: deps.accountNumbers,
    enqueue: (callId) => enqueuePlaceCall(voiceQueue, { call_id: callId }),
    replicaAck: deps.replicaAck,
    publishEvents,
    concurrentCallsPerAccount: config.voiceConcurrentCallsPerAccount,
    guard,
    newCallId: () => newId('call'),
    clock,
  });
  const callHandlers = createVoiceCallHandlers({
    validate: createCallRequestValidator({ webhookTargets: config.webhookTargets }),
    accept,
    calls,
    publishEvents,
    redis: deps.redis,
    prefix: deps.sharedPrefix,
    guard,
    clock,
  });
  return [
    voiceCallsRouter({
      authenticateWrite: deps.authenticated('calls:write'),
      authenticateRead: deps.authenticated('calls:read'),
      body: deps.jsonBody,
      handlers: callHandlers,
    }),
    voiceAgentsRouter({
      authenticate: deps.authenticated('agents:write'),
      body: deps.jsonBody,
      handlers: createVoiceAgentHandlers({ agents, validate: createAgentRequestValidator(), guard, clock }),
    }),
  ];
}
