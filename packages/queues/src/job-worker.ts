import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Logger } from '@switchboard/logger';
import { createConcurrencyLimit, type ConcurrencyLimit } from '@switchboard/runtime';
import { createWorkerConnection } from './connections';
import type { QueuePartition } from './partitions';
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
  /** BullMQ key prefix; on a cluster it carries a hash tag (docs/storage-layout.md#redis-keys-and-cluster). */
  prefix: string;
  /** Jobs this process runs at once on this queue, every partition it serves taken together. */
  concurrency: number;
  /**
   * The queue partitions this worker serves (docs/storage-layout.md#redis-keys-and-cluster): one BullMQ worker
   * each, under the partition's prefix. @defaultValue one, under `prefix`
   */
  partitions?: readonly QueuePartition[];
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
  onJobStart?: (job: Job, partition: QueuePartition) => void;
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

/** A queue's handlers, the same for every partition or built for each (their parts are the partition's). */
export type JobHandlers<C extends QueueContract> =
  Record<JobNameOf<C>, JobHandler<PayloadOf<C>>> | ((partition: QueuePartition) => Record<JobNameOf<C>, JobHandler<PayloadOf<C>>>);

/**
 * The workers of one queue contract, built the same way in every service: one BullMQ worker per partition
 * served, each with its own blocking connection, dispatch by job name (an unknown name can never succeed,
 * so it is permanent), the handlers' retry policies, and one log line per failure.
 *
 * Across partitions, `concurrency` is the process's total. Each partition's worker may take that many jobs,
 * and one limit shared by all of them lets that many run, in the order they were taken: a partition with a
 * backlog fills its worker, but a job of an idle partition is taken at once and starts after the jobs
 * already waiting, never after the whole backlog. Splitting the concurrency between partitions instead would
 * leave slots idle while one partition has work and another none.
 */
export function createJobWorker<C extends QueueContract>(contract: C, handlers: JobHandlers<C>, options: JobWorkerOptions): JobWorker {
  const partitions = options.partitions ?? [{ index: 0, prefix: options.prefix }];
  const limit = partitions.length > 1 ? createConcurrencyLimit(options.concurrency) : undefined;
  const workers = partitions.map((partition) =>
    createPartitionWorker(
      contract,
      typeof handlers === 'function' ? handlers(partition) : handlers,
      { ...options, prefix: partition.prefix },
      partition,
      limit,
    ),
  );
  return {
    queue: contract.name,
    setConcurrency(concurrency) {
      limit?.setLimit(concurrency);
      for (const worker of workers) worker.setConcurrency(concurrency);
    },
    pause: async () => {
      await Promise.all(workers.map((w) => w.pause()));
    },
    close: async () => {
      await Promise.all(workers.map((w) => w.close()));
    },
  };
}

function createPartitionWorker<C extends QueueContract>(
  contract: C,
  handlers: Record<JobNameOf<C>, JobHandler<PayloadOf<C>>>,
  options: JobWorkerOptions,
  partition: QueuePartition,
  limit: ConcurrencyLimit | undefined,
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
      const run = () => {
        options.onJobStart?.(job, partition);
        return handler.process(job, token);
      };
      return limit ? limit(run) : run();
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
