import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import { getLogger, type Logger } from '@switchboard/logger';
import { createProducerConnection, EVENT_FANOUT_QUEUE, MESSAGE_SEND_QUEUE, openQueue, PROVIDER_CALLBACKS_QUEUE, TEMPLATE_SUBMIT_QUEUE } from '@switchboard/queues';
import { installShutdown, MetricsRegistry } from '@switchboard/runtime';
import { createDb, migrate } from '@switchboard/store';
import { createApp } from './app';
import { describeConfig, loadConfig } from './config';

function untilReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Redis not ready after ${timeoutMs} ms`)), timeoutMs);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Logs a Redis outage once when it starts and once when it ends, not on every reconnect attempt. */
function watchRedis(redis: Redis, logger: Logger): void {
  let down = false;
  redis.on('error', (error: Error) => {
    if (!down) logger.warn('redis unavailable', { error: error.message });
    down = true;
  });
  redis.on('ready', () => {
    if (down) logger.info('redis available again');
    down = false;
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // Idle keep-alive sockets would hold close() open; requests in progress still finish.
    server.closeIdleConnections();
  });
}

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = getLogger({ service: 'api-gateway', level: config.logLevel });
  logger.info('configuration', { config: describeConfig(config) });

  const db = createDb({ url: config.databaseUrl, poolSize: config.dbPoolSize });
  const applied = await migrate(db);
  logger.info('store ready', { migrations_applied: applied });

  const redis = createProducerConnection(config.redisUrl, { commandTimeout: config.redisCommandTimeoutMs });
  watchRedis(redis, logger);
  await untilReady(redis, config.startupTimeoutMs);
  const queueOptions = { connection: redis, prefix: config.queuePrefix };
  const messageQueue = openQueue(MESSAGE_SEND_QUEUE, queueOptions);
  const callbackQueue = openQueue(PROVIDER_CALLBACKS_QUEUE, queueOptions);
  const templateQueue = openQueue(TEMPLATE_SUBMIT_QUEUE, queueOptions);
  const eventFanoutQueue = openQueue(EVENT_FANOUT_QUEUE, queueOptions);
  for (const queue of [messageQueue, callbackQueue, templateQueue, eventFanoutQueue]) {
    // Outages are already logged by watchRedis; an unhandled 'error' event would crash the process.
    queue.on('error', () => undefined);
    await queue.waitUntilReady();
  }

  const metrics = new MetricsRegistry();
  const app = createApp({ config, logger, db, redis, messageQueue, callbackQueue, templateQueue, eventFanoutQueue, metrics });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const { port } = server.address() as AddressInfo;

  installShutdown(logger, [
    { name: 'http', run: () => closeServer(server) },
    { name: 'queues', run: () => Promise.all([messageQueue.close(), callbackQueue.close(), templateQueue.close(), eventFanoutQueue.close()]) },
    { name: 'redis', run: () => redis.quit().catch(() => redis.disconnect()) },
    { name: 'store', run: () => db.close() },
  ]);
  logger.info('ready', { event: 'ready', url: `http://${config.host}:${port}` });
}

main().catch((error: Error) => {
  process.stderr.write(`api-gateway failed to start: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
