import type { Job } from 'bullmq';
import type { Logger } from '@switchboard/logger';
import { FAIR_SHARE_RESET_FROM, type FairShare, type SendLanes, type TrafficLane } from '@switchboard/queues';
import { createGroupCommit } from '@switchboard/runtime';

/** How often a dispatcher looks whether a lane's numbering may start again: rare work, and the reset is never urgent. */
const LANE_RESET_CHECK_MS = 10_000;

/** A lane's jobs that an unlucky reset may leave numbered from before it; a few requests' worth at most. */
const STRAGGLERS_LIFTED_MAX = 1_000;

/**
 * The dispatcher's side of the accounts' turns (docs/messages.md#fairness-between-accounts): every job
 * that starts moves its lane's virtual time up to its priority, so that an account with no backlog
 * starts at the front of the line; and once the numbering has grown past half of BullMQ's range, a lane
 * seen empty starts it again.
 */
export function createLaneTurns({ fairShare, lanes, logger }: { fairShare: FairShare; lanes: SendLanes; logger: Logger }) {
  // Starts that arrive while the lane's last update is in flight go together, as their highest priority.
  const advance = createGroupCommit<TrafficLane, number, void>({
    writeMany: async (lane, priorities) => {
      await fairShare.started(lane, Math.max(...priorities));
      return priorities.map(() => undefined);
    },
    maxGroup: Number.MAX_SAFE_INTEGER,
  });

  const startedIn = (lane: TrafficLane) => (job: Job) => {
    const priority = job.opts.priority ?? 0;
    if (priority <= 0) return;
    // A lost update only leaves the clock a little behind; the job itself must not wait for it.
    advance(lane, priority).catch((error: Error) => logger.debug('lane clock not advanced', { lane, error: error.message }));
  };

  /**
   * A gateway may have numbered a job just before the reset and added it just after: lifted to the front,
   * it runs next rather than behind a million turns of the new numbering.
   */
  async function liftStragglers(lane: TrafficLane): Promise<void> {
    // Highest numbers first: the stragglers, if any, are at that end.
    const waiting = await lanes.of(lane).getJobs(['prioritized'], 0, STRAGGLERS_LIFTED_MAX - 1, false);
    await Promise.all(waiting.filter((job) => (job.opts.priority ?? 0) >= FAIR_SHARE_RESET_FROM).map((job) => job.changePriority({ priority: 1 })));
  }

  async function resetIdleLane(lane: TrafficLane): Promise<void> {
    if ((await fairShare.virtualTime(lane)) < FAIR_SHARE_RESET_FROM) return;
    const counts = await lanes.of(lane).getJobCounts('wait', 'prioritized');
    if (Object.values(counts).some((n) => n > 0)) return;
    await fairShare.reset(lane);
    logger.info('lane turns numbered again', { lane });
    setTimeout(() => void liftStragglers(lane).catch(() => undefined), LANE_RESET_CHECK_MS).unref();
  }

  const timer = setInterval(() => {
    for (const lane of ['transactional', 'bulk'] as const) {
      resetIdleLane(lane).catch((error: Error) => logger.debug('lane reset check failed', { lane, error: error.message }));
    }
  }, LANE_RESET_CHECK_MS);
  timer.unref();

  return { startedIn, stop: () => clearInterval(timer) };
}
