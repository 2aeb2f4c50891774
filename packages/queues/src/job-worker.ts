import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Logger } from '@switchboard/logger';
import { createWorkerConnection } from './connections';
import type { JobNameOf, PayloadOf, QueueContract } from './queue-contract';
import { jobLatencyRecorder, type QueueMetricsRegistry } from './queue-metrics';
import { queueTelemetry } from './trace-context';

/** Processes one job; what it returns is stored as the job's result. */
export type JobProcessor<Data> = (job: Job<Data>, token?: string) => Promise<unknown>;

/**
 * What a processor module decides about failures beyond its contract's job options. Failures are sorted
 * three ways: permanent (throw `UnrecoverableError`), transient (throw an `Error`: the backoff retries
 * it), throttled (`moveToDelayed` + `DelayedError`: no attempt used up).
 */
export interface RetryPolicy<Data> {
  /** Wait before the next attempt when the job's backoff type is custom. @defaultValue 1000 ms */
  backoffMs?: (attemptsMade: number, error: Error | undefined) => number;
  /** Failures that are the policy at work (a scheduled retry): not logged as failures. */
  isScheduledRetry?: (error: Error) => boolean;
  /** Runs once a job will not be tried again (attempts used up, or `UnrecoverableError`). */
  onFailedForGood?: (job: Job<Data>, error: Error) => Promise<void>;
}

/** A processor with its retry policy; a bare processor keeps the contract's job options as its policy. */
export type JobHandler<Data> = JobProcessor<Data> | { process: JobProcessor<Data>; retry: RetryPolicy<Data> };

export interface JobWorkerOptions {
  redisUrl: string;
  /** A Redis Cluster's seed nodes; when given, the worker connects to the cluster (docs/configuration.md#redis-cluster). */
  redisClusterNodes?: readonly string[];
  /** BullMQ key prefix; on a cluster it carries a hash tag (docs/architecture.md#redis-keys-and-cluster). */
  prefix: string;
  /** Jobs this process runs at once on this queue. */
  concurrency: number;
  stalledIntervalMs: number;
  lockDurationMs: number;
  /** Stalls (a crash mid-job) before a job fails. @defaultValue BullMQ's 1 */
  maxStalledCount?: number;
  logger: Pick<Logger, 'debug' | 'warn' | 'error'>;
  /** Where the enqueue-to-processed latency of every job goes (docs/observability.md#queues). */
  metrics?: QueueMetricsRegistry;
  /**
   * ioredis auto-pipelining on the worker's connections: the job transitions (`moveToFinished`) of jobs
   * ending in the same turn of the event loop leave in one write. @defaultValue false
   */
  autoPipelining?: boolean;
  /** Told of every job as it starts, before its handler runs (a lane's fair-share clock, docs/messages.md#fairness-between-accounts). */
  onJobStart?: (job: Job) => void;
}

export interface JobWorker {
  readonly queue: string;
  /** Lets the active jobs finish, then closes the worker's own Redis connection. */
  close(): Promise<void>;
  /** Changes how many jobs run at once from now on; active jobs are not touched. At least 1. */
  setConcurrency(concurrency: number): void;
  /** Takes no new job from now on; the active ones go on (a shutdown's drain). */
  pause(): Promise<void>;
}

const DEFAULT_BACKOFF_MS = 1_000;

function isFinal(job: Job, error: Error): boolean {
  return error instanceof UnrecoverableError || error.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
}

/**
 * One BullMQ worker for one queue contract, built the same way in every service: its own blocking
 * connection, dispatch by job name (an unknown name can never succeed, so it is permanent), the
 * handlers' retry policies, and one log line per failure.
 */
export function createJobWorker<C extends QueueContract>(
  contract: C,
  handlers: Record<JobNameOf<C>, JobHandler<PayloadOf<C>>>,
  options: JobWorkerOptions,
): JobWorker {
  type Data = PayloadOf<C>;
  const { logger } = options;
  const byName = new Map<string, { process: JobProcessor<Data>; retry: RetryPolicy<Data> }>();
  for (const [name, handler] of Object.entries<JobHandler<Data>>(handlers)) {
    byName.set(name, typeof handler === 'function' ? { process: handler, retry: {} } : handler);
  }
  const connection = createWorkerConnection(options, options.autoPipelining ? { enableAutoPipelining: true } : {});
  const worker = new Worker<Data>(
    contract.name,
    async (job, token) => {
      const handler = byName.get(job.name);
      if (!handler) throw new UnrecoverableError(`unknown job ${job.name} on ${contract.name}`);
      options.onJobStart?.(job);
      return handler.process(job, token);
    },
    {
      connection,
      prefix: options.prefix,
      concurrency: options.concurrency,
      stalledInterval: options.stalledIntervalMs,
      lockDuration: options.lockDurationMs,
      // BullMQ refuses an explicit `undefined` here.
      ...(options.maxStalledCount === undefined ? {} : { maxStalledCount: options.maxStalledCount }),
      // With tracing on, each job runs under the trace context its producer stored (docs/observability.md#traces).
      ...(queueTelemetry() ? { telemetry: queueTelemetry() } : {}),
      settings: {
        backoffStrategy: (attemptsMade, _type, error, job) => byName.get(job?.name ?? '')?.retry.backoffMs?.(attemptsMade, error) ?? DEFAULT_BACKOFF_MS,
      },
    },
  );
  const recordLatency = options.metrics ? jobLatencyRecorder(options.metrics) : undefined;
  if (recordLatency) worker.on('completed', (job) => recordLatency(contract.name, job, 'completed'));
  worker.on('failed', (job, error) => {
    const retry = job ? byName.get(job.name)?.retry : undefined;
    const final = job !== undefined && isFinal(job, error);
    const fields = { queue: contract.name, job_name: job?.name, job_id: job?.id, attempt: job?.attemptsMade, error: error.message };
    if (final && job) recordLatency?.(contract.name, job, 'failed');
    if (final) logger.error('job failed for good', fields);
    else if (retry?.isScheduledRetry?.(error)) logger.debug('job retry scheduled', fields);
    else logger.warn(job ? 'job failed; retrying' : 'job failed', fields);
    if (final && job && retry?.onFailedForGood) {
      retry
        .onFailedForGood(job, error)
        .catch((e: Error) => logger.error('handling a job that failed for good failed', { ...fields, handler_error: e.message }));
    }
  });
  worker.on('error', (error) => logger.error('worker error', { queue: contract.name, error: error.message }));
  return {
    queue: contract.name,
    setConcurrency(concurrency) {
      worker.concurrency = Math.max(1, concurrency);
    },
    pause: () => worker.pause(true),
    async close() {
      await worker.close();
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}
