import type { Job, Queue } from 'bullmq';

/**
 * The part of `@switchboard/runtime`'s MetricsRegistry the queue metrics use, stated here so that this
 * package does not depend on the runtime one.
 */
export interface QueueMetricsRegistry {
  gauge(name: string, help: string): { set(labels: Record<string, string>, value: number): void };
  histogram(name: string, help: string, bounds?: number[]): { observe(labels: Record<string, string>, value: number): void };
  onCollect(collector: () => Promise<void>): void;
}

/** The job states whose depth and oldest job we report; `waiting` includes BullMQ's prioritized jobs. */
const STATES = ['waiting', 'delayed', 'active', 'failed'] as const;
type ReportedState = (typeof STATES)[number];
const BULL_STATES: Record<ReportedState, Array<'wait' | 'prioritized' | 'delayed' | 'active' | 'failed'>> = {
  waiting: ['wait', 'prioritized'],
  delayed: ['delayed'],
  active: ['active'],
  failed: ['failed'],
};

/** Seconds from 5 ms to 1 h: a job waits from milliseconds (idle queue) to minutes (backlog, webhook retries). */
export const JOB_LATENCY_BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];

interface StateReading {
  jobs: number;
  firstCreated: number | undefined;
}

const emptyReading = (): Record<ReportedState, StateReading> => ({
  waiting: { jobs: 0, firstCreated: undefined },
  delayed: { jobs: 0, firstCreated: undefined },
  active: { jobs: 0, firstCreated: undefined },
  failed: { jobs: 0, firstCreated: undefined },
});

/**
 * Queue depth and the age of the oldest job per queue and state, read from Redis at each scrape
 * (docs/observability.md#queues). Labels are the queue's contract name and the state: bounded.
 */
export function reportQueueDepths(
  registry: QueueMetricsRegistry,
  queues: ReadonlyArray<Pick<Queue, 'name' | 'getJobCounts' | 'getJobs'>>,
  now: () => number = Date.now,
): void {
  const depth = registry.gauge('switchboard_queue_jobs', 'Jobs in each queue by state (waiting, delayed, active, failed).');
  const oldest = registry.gauge('switchboard_queue_oldest_job_age_seconds', 'Age of the oldest job in each queue by state; 0 when none.');
  registry.onCollect(async () => {
    // A queue opened once per partition (docs/storage-layout.md#queue-partitions) is one series: depths add up, the oldest job is the oldest of all.
    const byName = new Map<string, Record<ReportedState, StateReading>>();
    const readingOf = (name: string) => {
      const reading = byName.get(name) ?? emptyReading();
      byName.set(name, reading);
      return reading;
    };
    await Promise.all(
      queues.map(async (queue) => {
        const counts = await queue.getJobCounts(...STATES.flatMap((s) => BULL_STATES[s]));
        const reading = readingOf(queue.name);
        for (const state of STATES) {
          const r = reading[state];
          r.jobs += BULL_STATES[state].reduce((sum, s) => sum + (counts[s] ?? 0), 0);
          // `asc`: the job that entered the state first; its creation time is its age.
          const first = (await queue.getJobs(BULL_STATES[state], 0, 0, true)) as Array<Job | undefined>;
          for (const job of first) if (job !== undefined) r.firstCreated = Math.min(r.firstCreated ?? job.timestamp, job.timestamp);
        }
      }),
    );
    for (const [name, reading] of byName) {
      for (const state of STATES) {
        const { jobs, firstCreated } = reading[state];
        depth.set({ queue: name, state }, jobs);
        oldest.set({ queue: name, state }, firstCreated === undefined ? 0 : Math.max(0, (now() - firstCreated) / 1000));
      }
    }
  });
}

/**
 * Seconds from enqueue to processed, per queue and outcome (`completed`, or `failed` once no retry is
 * left). A delayed job's intended delay is not counted: the histogram shows lateness, not the schedule.
 */
export function jobLatencyRecorder(
  registry: QueueMetricsRegistry,
): (queue: string, job: Pick<Job, 'timestamp' | 'finishedOn' | 'opts'>, outcome: 'completed' | 'failed') => void {
  const latency = registry.histogram('switchboard_job_latency_seconds', 'Seconds from enqueue to processed, by queue and outcome.', JOB_LATENCY_BOUNDS);
  return (queue, job, outcome) => {
    const finished = job.finishedOn ?? Date.now();
    const seconds = Math.max(0, (finished - job.timestamp - (job.opts.delay ?? 0)) / 1000);
    latency.observe({ queue, outcome }, seconds);
  };
}
