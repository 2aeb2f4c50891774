import { randomBytes } from 'node:crypto';
import { Queue, type Job } from 'bullmq';
import { createJobWorker, createWorkerConnection, JOB_RETENTION, payloadType, queuePartitions, type QueueContract } from '@switchboard/queues';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `sbtest${randomBytes(4).toString('hex')}`;

interface PingJob {
  n: number;
}

function contract() {
  return {
    name: `ping-${randomBytes(3).toString('hex')}`,
    jobs: { ping: 'ping' },
    jobOptions: { attempts: 3, backoff: { type: 'test-schedule' }, ...JOB_RETENTION },
    payload: payloadType<PingJob>(),
  } as const satisfies QueueContract;
}

function recordingLogger() {
  const lines: Array<{ level: string; message: string; fields?: object }> = [];
  const at = (level: string) => (message: string, fields?: object) => void lines.push({ level, message, fields });
  return { lines, logger: { debug: at('debug'), warn: at('warn'), error: at('error') } };
}

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

it('dispatches by job name, retries on the handler backoff, and hands a job that failed for good to its policy once', async () => {
  const queueContract = contract();
  const { lines, logger } = recordingLogger();
  const runs: number[] = [];
  const backoffAsked: number[] = [];
  const gaveUp: Array<{ n: number; error: string }> = [];
  const worker = createJobWorker(
    queueContract,
    {
      ping: {
        process: async (job: Job<PingJob>) => {
          runs.push(job.data.n);
          throw new Error(`boom ${job.attemptsMade + 1}`);
        },
        retry: {
          backoffMs: (attemptsMade) => (backoffAsked.push(attemptsMade), 10),
          isScheduledRetry: (error) => error.message === 'boom 1',
          onFailedForGood: async (job, error) => void gaveUp.push({ n: job.data.n, error: error.message }),
        },
      },
    },
    { redisUrl, prefix, concurrency: 1, stalledIntervalMs: 30_000, lockDurationMs: 30_000, logger },
  );
  const connection = createWorkerConnection(redisUrl);
  const queue = new Queue<PingJob>(queueContract.name, { connection, prefix });
  try {
    await queue.add('ping', { n: 7 }, queueContract.jobOptions);
    await until(() => gaveUp.length > 0, 'the job to fail for good');
    expect(runs).toEqual([7, 7, 7]);
    expect(backoffAsked).toEqual([1, 2]);
    expect(gaveUp).toEqual([{ n: 7, error: 'boom 3' }]);
    // The first failure is the policy at work; the second is logged as a retry, the third as final.
    expect(lines.map((l) => [l.level, l.message])).toEqual([
      ['debug', 'job retry scheduled'],
      ['warn', 'job failed; retrying'],
      ['error', 'job failed for good'],
    ]);
  } finally {
    await worker.close();
    await queue.obliterate({ force: true });
    await queue.close();
    await connection.quit();
  }
});

it('fails a job of an unknown name for good at its first attempt', async () => {
  const queueContract = contract();
  const { lines, logger } = recordingLogger();
  let ran = false;
  const worker = createJobWorker(
    queueContract,
    { ping: async () => void (ran = true) },
    { redisUrl, prefix, concurrency: 1, stalledIntervalMs: 30_000, lockDurationMs: 30_000, logger },
  );
  const connection = createWorkerConnection(redisUrl);
  const queue = new Queue<PingJob>(queueContract.name, { connection, prefix });
  try {
    const job = await queue.add('pong', { n: 1 }, queueContract.jobOptions);
    await until(async () => (await queue.getJob(job.id!))?.failedReason !== undefined, 'the job to fail');
    const failed = await queue.getJob(job.id!);
    expect(failed?.attemptsMade).toBe(1);
    expect(failed?.failedReason).toBe(`unknown job pong on ${queueContract.name}`);
    expect(ran).toBe(false);
    await until(() => lines.length > 0, 'the failure log line');
    expect(lines[0]).toMatchObject({ level: 'error', message: 'job failed for good', fields: { queue: queueContract.name, job_name: 'pong' } });
  } finally {
    await worker.close();
    await queue.obliterate({ force: true });
    await queue.close();
    await connection.quit();
  }
});

it('setConcurrency changes how many jobs run at once (the voice orchestrator lends a slot to a second call leg)', async () => {
  const queueContract = contract();
  const { logger } = recordingLogger();
  let running = 0;
  let mostAtOnce = 0;
  let barrier: { waiting: number; release?: () => void } = { waiting: 0 };
  const waitAtBarrier = (size: number) =>
    new Promise<void>((resolve) => {
      barrier.waiting += 1;
      const previous = barrier.release;
      barrier.release = () => (previous?.(), resolve());
      if (barrier.waiting === size) barrier.release();
    });
  const worker = createJobWorker(
    queueContract,
    {
      ping: async (job: Job<PingJob>) => {
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        if (job.data.n >= 10)
          await waitAtBarrier(3); // only passes once three jobs run at the same time
        else await new Promise((r) => setTimeout(r, 30));
        running -= 1;
      },
    },
    { redisUrl, prefix, concurrency: 2, stalledIntervalMs: 30_000, lockDurationMs: 30_000, logger },
  );
  worker.setConcurrency(1);
  const connection = createWorkerConnection(redisUrl);
  const queue = new Queue<PingJob>(queueContract.name, { connection, prefix });
  try {
    await queue.addBulk([1, 2, 3, 4].map((n) => ({ name: 'ping', data: { n }, opts: queueContract.jobOptions })));
    await until(async () => (await queue.getCompletedCount()) === 4, 'four jobs, one at a time');
    expect(mostAtOnce).toBe(1);
    worker.setConcurrency(3);
    barrier = { waiting: 0 };
    await queue.addBulk([10, 11, 12].map((n) => ({ name: 'ping', data: { n }, opts: queueContract.jobOptions })));
    await until(async () => (await queue.getCompletedCount()) === 7, 'three jobs meeting at the barrier');
    expect(mostAtOnce).toBe(3);
  } finally {
    await worker.close();
    await queue.obliterate({ force: true });
    await queue.close();
    await connection.quit();
  }
});

it('serves several partitions under one concurrency: a job of an idle partition starts before a busy one’s backlog has run', async () => {
  const queueContract = contract();
  const { logger } = recordingLogger();
  const partitions = queuePartitions(`{${prefix}}`, 2);
  const started: string[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const worker = createJobWorker(
    queueContract,
    ({ index }) => ({
      ping: async (job: Job<PingJob>) => {
        started.push(`${index}:${job.data.n}`);
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        await new Promise((r) => setTimeout(r, 20));
        running -= 1;
      },
    }),
    { redisUrl, prefix, partitions, concurrency: 2, stalledIntervalMs: 30_000, lockDurationMs: 30_000, logger },
  );
  const connection = createWorkerConnection(redisUrl);
  const queues = partitions.map((p) => new Queue<PingJob>(queueContract.name, { connection, prefix: p.prefix }));
  try {
    await queues[0].addBulk(Array.from({ length: 40 }, (_, n) => ({ name: 'ping', data: { n }, opts: queueContract.jobOptions })));
    await until(() => started.length >= 4, 'the busy partition to start');
    await queues[1].add('ping', { n: 0 }, queueContract.jobOptions);
    await until(() => started.includes('1:0'), 'the idle partition’s job to start');
    // Behind at most what partition 0's worker had taken (its concurrency) and what had run: not behind all 40.
    expect(started.indexOf('1:0')).toBeLessThan(20);
    await until(() => started.length === 41, 'every job to run');
    expect(mostAtOnce).toBe(2);
  } finally {
    await worker.close();
    await Promise.all(queues.map((q) => q.obliterate({ force: true }).then(() => q.close())));
    await connection.quit();
  }
});
