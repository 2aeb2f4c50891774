import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { createChatFastSendRoute, createCloudApiRouter } from './chat/cloud-api.router';
import { ConfigError, describeConfig, loadConfig, type SimConfig } from './config';
import { createHttpApp } from './http/app';
import { createFastSendsListener } from './http/fast-sends.listener';
import { createHealthRouter } from './http/health.route';
import { createSendGate } from './support/send-gate';
import { createRbmApiRouter, createRbmFastSendRoute } from './rbm/rbm-api.router';
import { createBehaviourRouter } from './sim/behaviour.route';
import { createFaultsRouter } from './sim/faults.route';
import { createSimApiRouter } from './sim/sim-api.router';
import { createEsmeSessions } from './smpp/esme-sessions';
import { createSmscServer } from './smpp/smsc-server';
import { createSubmitSmHandler } from './smpp/submit-sm.handler';
import { createSmsReceiptPlanStore } from './state/sms-receipt-plan.store';
import { createChatWindowStore } from './state/chat-window.store';
import { createFaultSwitchStore } from './state/fault-switch.store';
import { createSendLogStore } from './state/send-log.store';
import { createSimBehaviourStore } from './state/sim-behaviour.store';
import { createTemplateStore } from './state/template.store';
import { createJsonLogger, errorFields, type Logger } from './support/json-logger';
import { createScheduler } from './support/scheduler';
import { createChatWebhookSender } from './webhooks/chat-webhook.sender';
import { createRbmEventSender } from './webhooks/rbm-event.sender';
import { createWebhookPoster } from './webhooks/webhook-poster';
import { startSimCallee } from './voice/sim-callee';
import { createChatCompletionsRouter } from './llm/chat-completions.router';
import { createAudioApiRouter } from './speech/audio-api.router';

/** Shutdown must not hang on a stuck socket: past this, the process exits anyway. */
const SHUTDOWN_GRACE_MS = 5000;

function listenHttp(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

async function start(config: SimConfig, logger: Logger): Promise<void> {
  const now = () => Date.now();
  const scheduler = createScheduler((err) => logger.error('scheduled action failed', errorFields(err)));
  const sends = createSendLogStore();
  const faults = createFaultSwitchStore();
  const templates = createTemplateStore();
  const windows = createChatWindowStore();
  const smsReceiptPlans = createSmsReceiptPlanStore();
  const poster = createWebhookPoster({ scheduler, logger, ...config.webhook });
  const chatWebhooks = createChatWebhookSender({ poster, ...config.chat });
  const rbmEvents = createRbmEventSender({ poster, webhookUrl: config.rbm.webhookUrl, clientToken: config.rbm.clientToken });
  // Set at run time through PUT /sim/behaviour (docs/sandbox.md#behaviour-at-run-time); handlers read it at each send.
  const behaviour = createSimBehaviourStore();
  const maxBacklog = () => behaviour.current.receiptBacklogMax;

  const esmeSessions = createEsmeSessions({ scheduler, logger, retryDelaysMs: config.webhook.retryDelaysMs });
  const smppGate = createSendGate({ backlog: () => esmeSessions.unacknowledgedCount(), maxBacklog });
  const smsc = createSmscServer({
    ...config.smpp,
    sessions: esmeSessions,
    gate: smppGate,
    handleSubmit: createSubmitSmHandler({
      sends,
      receiptPlans: smsReceiptPlans,
      sessions: esmeSessions,
      scheduler,
      logger,
      now,
      faults,
      behaviour: behaviour.current,
    }),
    logger,
  });

  const rbmDeps = { sends, events: rbmEvents, scheduler, logger, now, accessToken: config.rbm.accessToken, behaviour: behaviour.current };
  const chatDeps = {
    sends,
    templates,
    windows,
    webhooks: chatWebhooks,
    scheduler,
    logger,
    now,
    accessToken: config.chat.accessToken,
    behaviour: behaviour.current,
  };
  let ready = false;
  const app = createHttpApp(
    [
      createHealthRouter(() => ready),
      createFaultsRouter({ faults }),
      createBehaviourRouter({ behaviour, logger }),
      createChatCompletionsRouter(),
      createAudioApiRouter({ logger }),
      createSimApiRouter({ sends, smsReceiptPlans, templates, windows, chatWebhooks, rbmEvents, smsc, defaultAgentId: config.rbm.defaultAgentId, logger, now }),
      createRbmApiRouter({ ...rbmDeps, faults }),
      createCloudApiRouter({ ...chatDeps, wabaId: config.chat.wabaId, templateReviewMs: config.templateReviewMs, faults }),
    ],
    logger,
  );
  // What the receivers still owe us time for: RBM events and notifications queued for a connection, and
  // chat statuses held while every connection is busy.
  const gate = createSendGate({ backlog: () => poster.backlog() + chatWebhooks.heldStatuses(), maxBacklog });
  const server: Server = createServer(
    createFastSendsListener({ routes: [createChatFastSendRoute(chatDeps), createRbmFastSendRoute(rbmDeps)], faults, gate, fallback: app, logger }),
  );

  let stopping = false;
  const shutdown = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    ready = false;
    logger.info('shutting down', { reason });
    setTimeout(() => process.exit(0), SHUTDOWN_GRACE_MS).unref();
    logger.info('closing http listener');
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    logger.info('closing smpp listener');
    await smsc.close();
    logger.info('cancelling pending reports and webhooks');
    scheduler.cancelAll();
    gate.stop();
    smppGate.stop();
    poster.stop();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const [httpPort, smppPort] = await Promise.all([listenHttp(server, config.httpPort, config.host), smsc.listen(config.smppPort, config.host)]);
  // Messaging does not depend on the phones: a taken SIP port leaves the simulator up without them.
  const callee = await startSimCallee({ host: config.host, sipPort: config.sipPort, ringMs: 300, maxCallMs: 120_000, logger }).catch((err) => {
    logger.warn('simulated phones not started', errorFields(err));
    return undefined;
  });
  process.once('exit', () => callee?.close());
  ready = true;
  logger.info('carrier-sim listening', { ...describeConfig(config), behaviour: behaviour.current, http_port: httpPort, smpp_port: smppPort });
  process.stdout.write(
    `${JSON.stringify({ event: 'ready', service: 'carrier-sim', http_port: httpPort, smpp_port: smppPort, sip_port: callee?.port ?? null })}\n`,
  );
}

function main(): void {
  let config: SimConfig;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`carrier-sim: invalid configuration: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createJsonLogger({ service: 'carrier-sim', level: config.logLevel });
  process.on('unhandledRejection', (reason) => logger.error('unhandled rejection', errorFields(reason)));
  process.on('uncaughtException', (err) => {
    logger.error('uncaught exception', { ...errorFields(err), stack: err.stack });
    process.exit(1);
  });
  start(config, logger).catch((err) => {
    logger.error('start-up failed', errorFields(err));
    process.exit(1);
  });
}

main();
