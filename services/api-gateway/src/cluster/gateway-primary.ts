import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '@switchboard/logger';
import type { MetricSnapshot } from '@switchboard/runtime';
import { isClusterMessage, SNAPSHOT_TIMEOUT_MS, type ClusterMessage } from './cluster-messages';
import type { PrimaryConfig } from './primary.config';

/** A worker that dies is forked again after this pause, so a crash loop cannot spin a core. */
const REFORK_DELAY_MS = 1_000;
/** Workers drain within their own shutdown limit (20 s); one still alive after this is killed. */
const STOP_DEADLINE_MS = 25_000;

/**
 * The thin cluster primary (docs/running.md#gateway-workers): forks the workers, which share the one
 * listening port, forks again any that dies, relays `/metrics` scrapes between them and, on SIGTERM or
 * SIGINT, has every worker drain and waits for all of them. It loads no store, queue or HTTP code.
 *
 * The first worker starts alone: it applies the migrations and reseals secrets, so the others find the
 * store ready. "ready" is logged once, when every worker listens.
 */
export function runGatewayPrimary(config: Readonly<PrimaryConfig>, logger: Logger): void {
  let stopping = false;
  let everyWorkerListened = false;
  let othersForked = false;
  const listening = new Set<Worker>();

  const fork = (): Worker => {
    const worker = cluster.fork();
    worker.on('message', (message: unknown) => {
      if (isClusterMessage(message) && message.sb === 'metrics-wanted') relayScrape(worker, message.scrape);
    });
    return worker;
  };

  cluster.on('listening', (worker, address) => {
    listening.add(worker);
    logger.info('gateway worker listening', { worker_pid: worker.process.pid, workers_listening: listening.size });
    if (!othersForked) {
      othersForked = true;
      for (let i = 1; i < config.workers; i += 1) fork();
    }
    const up: ClusterMessage = { sb: 'cluster-up' };
    if (everyWorkerListened) worker.send(up);
    else if (listening.size === config.workers) {
      everyWorkerListened = true;
      for (const each of listening) each.send(up);
      const host = address.address ?? '127.0.0.1';
      logger.info('ready', { event: 'ready', workers: config.workers, port: address.port, host });
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    const wasListening = listening.delete(worker);
    if (stopping) return;
    // A worker that never listened before the cluster came up failed to start (configuration, store,
    // Redis): forking it again would only repeat that, so the gateway fails to start, as one process would.
    if (!everyWorkerListened && !wasListening) {
      logger.error('gateway worker failed to start; stopping', { worker_pid: worker.process.pid, code, signal });
      stopping = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM');
      // The worker's own code, so that a configuration error still exits 78 as a single process does.
      process.exitCode = code || 1;
      return;
    }
    logger.warn('gateway worker died; forking another', { worker_pid: worker.process.pid, code, signal, delay_ms: REFORK_DELAY_MS });
    setTimeout(() => {
      if (!stopping) fork();
    }, REFORK_DELAY_MS).unref();
  });

  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    logger.info('shutdown started', { reason, workers: workers.length });
    // Each worker drains its connections and closes its queues and pools (its own shutdown steps).
    for (const worker of workers) worker.process.kill('SIGTERM');
    const deadline = setTimeout(() => {
      logger.error('workers still running after the deadline; killing them', { deadline_ms: STOP_DEADLINE_MS });
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
    }, STOP_DEADLINE_MS);
    deadline.unref();
    let failed = false;
    let left = workers.length;
    if (left === 0) process.exit(0);
    for (const worker of workers) {
      worker.once('exit', (code) => {
        failed ||= code !== 0;
        left -= 1;
        if (left === 0) {
          logger.info('shutdown complete', { workers: workers.length });
          process.exit(failed ? 1 : 0);
        }
      });
    }
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  // SIGHUP means "reread the certificate" (docs/running.md#https); unhandled, it would end the primary and
  // with it every worker. Without TLS there is nothing to reread.
  process.on('SIGHUP', () => {
    if (!config.servesTls) return logger.info('SIGHUP ignored: the gateway serves plain HTTP');
    logger.info('SIGHUP: workers reread the certificate');
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGHUP');
  });

  fork();
}

/**
 * Asks every other live worker for its metric series and hands those that answer within
 * {@link SNAPSHOT_TIMEOUT_MS} to the worker serving the scrape, which merges them with its own.
 */
let relays = 0;

function relayScrape(scraper: Worker, scrape: number): void {
  // The primary's own number for the question: two workers scraping at once each count their scrapes from 1.
  const relay = (relays += 1);
  const others = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && w !== scraper && w.isConnected());
  const snapshots: MetricSnapshot[][] = [];
  let waiting = others.length;
  let answered = false;
  const answer = () => {
    if (answered) return;
    answered = true;
    clearTimeout(timer);
    for (const worker of others) worker.off('message', onSnapshot);
    const reply: ClusterMessage = { sb: 'metrics-snapshots', scrape, snapshots };
    if (scraper.isConnected()) scraper.send(reply);
  };
  const onSnapshot = (message: unknown) => {
    if (!isClusterMessage(message) || message.sb !== 'metrics-snapshot' || message.scrape !== relay) return;
    snapshots.push(message.snapshot);
    waiting -= 1;
    if (waiting === 0) answer();
  };
  const timer = setTimeout(answer, SNAPSHOT_TIMEOUT_MS);
  const request: ClusterMessage = { sb: 'metrics-snapshot-wanted', scrape: relay };
  for (const worker of others) {
    worker.on('message', onSnapshot);
    worker.send(request);
  }
  if (waiting === 0) answer();
}
