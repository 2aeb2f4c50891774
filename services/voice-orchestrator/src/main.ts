import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import {
  createEventPublisher,
  createJobWorker,
  createWorkerConnection,
  EVENT_FANOUT_QUEUE,
  enqueueRedial,
  ensurePartitionLayout,
  openQueue,
  publishEventsByAccount,
  publishEventsOrLeaveInOutbox,
  openReplicaAck,
  queuePartitions,
  servedPartitions,
  VOICE_CALLS_QUEUE,
} from '@switchboard/queues';
import { runWorkerService } from '@switchboard/runtime';
import { createAgentsRepository, createCallProgressRepository, createEventsRepository, openMigratedDb } from '@switchboard/store';
import { createSipTrunk, onMediaThreadLost } from '@switchboard/telephony';
import { createGuardedHttpClient } from './agent/guarded-http.client';
import { LLM_TIMEOUT_MS } from './agent/llm-chat.client';
import { startCallHeartbeat } from './calls/call-heartbeat';
import { createLineBudget } from './calls/line-budget';
import { createLiveCalls } from './calls/live-calls';
import { drainLiveCalls } from './calls/shutdown-drain';
import { describeConfig, loadConfig, type TrunkSettings } from './config';
import { createPlaceCallProcessor } from './processors/place-call.processor';
import { matchPhrase } from './speech/pocketsphinx-stt';
import { createSpeechRecognizer, createTextToSpeech } from './speech/speech-providers';

runWorkerService({
  service: 'voice-orchestrator',
  loadConfig,
  describeConfig,
  start: async ({ config, logger }) => {
    const orchestratorId = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
    const db = await openMigratedDb({ url: config.databaseUrl, poolSize: config.dbPoolSize }, logger);
    const redis = createWorkerConnection(config);
    const subscriber = createWorkerConnection(config);
    // Refuses to start while jobs of another QUEUE_PARTITIONS wait (docs/operations.md#changing-queue-partitions).
    await ensurePartitionLayout({ redis, prefix: config.queuePrefix, partitions: config.queuePartitions, logger });
    // Each partition's call queue and event fan-out (docs/storage-layout.md#redis-keys-and-cluster); a call's events
    // go to its account's partition, a redial to the queue the call came from.
    const all = queuePartitions(config.queuePrefix, config.queuePartitions);
    const queues = await Promise.all(
      all.map(async ({ prefix }) => ({
        replicaAck: await openReplicaAck(config, { keyPrefix: prefix, minReplicas: config.redisMinReplicasAck, logger }),
        fanout: openQueue(EVENT_FANOUT_QUEUE, { connection: redis, prefix }),
        calls: openQueue(VOICE_CALLS_QUEUE, { connection: redis, prefix }),
      })),
    );
    const outbox = createEventsRepository(db);
    const publishEvents = publishEventsByAccount({
      parts: queues.map(({ fanout, replicaAck }) =>
        publishEventsOrLeaveInOutbox(createEventPublisher({ queue: fanout, outbox, replicaAck: replicaAck.ack }), logger),
      ),
    });
    // Its legs end themselves (failed / orchestrator_lost) and the next call starts a new thread (docs/voice-telephony.md#media-thread).
    onMediaThreadLost(({ reason, legs }) => logger.error('media thread died; ending the calls whose media it held', { reason, calls: legs }));
    const openTrunk = (t: TrunkSettings) =>
      createSipTrunk({
        ...t,
        callerId: 'switchboard',
        bindAddress: config.sipListen.address,
        localPort: config.sipListen.port,
        publicAddress: config.sipPublicAddress,
        rtpPorts: config.rtpPorts.max > 0 ? config.rtpPorts : undefined,
      });
    const trunks = { test: await openTrunk(config.sandboxTrunk), live: config.liveTrunk ? await openTrunk(config.liveTrunk) : undefined };
    const liveCalls = createLiveCalls({ subscriber, prefix: config.queuePrefix, logger });
    await liveCalls.listen();
    const progress = createCallProgressRepository(db);
    // A bridged transfer's second leg takes a line: the worker then takes one call job fewer (docs/voice.md#capacity).
    const lines = createLineBudget({
      capacity: config.capacity,
      callsHeld: () => liveCalls.ids().length,
      onSecondLegsChanged: (secondLegs) => worker.setConcurrency(config.capacity - secondLegs),
    });
    const tts = createTextToSpeech(config.speech.tts);
    const speechRecognizer = createSpeechRecognizer(config.speech.stt);
    const placeCallIn = (callQueue: (typeof queues)[number]['calls']) =>
      createPlaceCallProcessor({
        progress,
        agents: createAgentsRepository(db),
        trunks,
        orchestratorId,
        redial: (callId, attempt, delayMs) => enqueueRedial(callQueue, { call_id: callId }, attempt, delayMs),
        liveCalls,
        publishEvents,
        speak: (text, voice) => tts.synthesize(text, voice ?? undefined),
        fetchJson: createGuardedHttpClient(config.httpNodePolicy),
        recognize: (...args) => speechRecognizer.recognize(...args),
        matchPhrase,
        llmFor: (mode, model) => {
          const target = mode === 'test' ? { baseUrl: config.sandboxLlmBaseUrl } : config.llm;
          return target ? { ...target, model: model ?? config.llmModel, timeoutMs: LLM_TIMEOUT_MS } : undefined;
        },
        lines,
        logger,
      });
    const placeCalls = queues.map(({ calls }) => placeCallIn(calls));
    // A stalled call job is not run again: its call is ended as orchestrator_lost by the heartbeat sweep instead.
    const worker = createJobWorker(VOICE_CALLS_QUEUE, ({ index }) => ({ [VOICE_CALLS_QUEUE.jobs.placeCall]: placeCalls[index] }), {
      redisUrl: config.redisUrl,
      redisClusterNodes: config.redisClusterNodes,
      prefix: config.queuePrefix,
      partitions: servedPartitions(all, config.servePartitions),
      concurrency: config.capacity,
      stalledIntervalMs: config.stalledIntervalMs,
      lockDurationMs: config.lockDurationMs,
      maxStalledCount: 0,
      logger,
    });
    const heartbeat = startCallHeartbeat({
      progress,
      liveCalls,
      orchestratorId,
      intervalMs: config.heartbeatMs,
      lostAfterMs: config.lostAfterMs,
      publishEvents,
      logger,
    });
    logger.info('sip trunks ready', { orchestrator_id: orchestratorId, sip_port: trunks.test.localPort });
    return {
      health: { port: config.healthPort, host: config.healthHost, ready: async () => (await Promise.all([db.ping(), redis.ping()]))[1] === 'PONG' },
      shutdown: [
        // New calls wait in the queue for another orchestrator; the ones in progress get the grace to end by themselves.
        { name: 'stop taking calls', run: () => worker.pause() },
        { name: 'let live calls end', run: () => drainLiveCalls(liveCalls, config.shutdownGraceMs, logger) },
        // The calls still up are cut because their orchestrator goes away: they end failed / orchestrator_lost (docs/voice.md#shutdown).
        { name: 'hang up live calls', run: () => liveCalls.hangupAll('orchestrator_lost') },
        { name: 'close workers (active calls finish)', run: () => worker.close() },
        { name: 'stop heartbeat', run: () => heartbeat.stop() },
        { name: 'close sip trunks', run: () => Promise.all([trunks.test.close(), trunks.live?.close()]) },
        { name: 'close queues', run: () => Promise.all(queues.flatMap((q) => [q.fanout.close(), q.calls.close()])) },
        { name: 'close redis', run: () => Promise.all([redis.quit(), subscriber.quit()]) },
        { name: 'close replica acknowledgement', run: () => Promise.all(queues.map((q) => q.replicaAck.close())) },
        { name: 'close database', run: () => db.close() },
      ],
    };
  },
});
