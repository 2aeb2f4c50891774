import type { Job } from 'bullmq';
import type { Logger } from '@switchboard/logger';
import { FAIR_SHARE_RESET_FROM, type FairShare, type SendLanes, type TrafficLane } from '@switchboard/queues';

/**
 * How often a dispatcher reports the highest priority it started. A newcomer account is numbered from the
 * reported clock, so a report this late lets it run at most this long's worth of turns ahead of the others;
 * reporting every start instead cost one Redis script call per message.
 */
const LANE_CLOCK_REPORT_MS = 100;

/** How often a dispatcher looks whether a lane's numbering may start again: rare work, and the reset is never urgent. */
const LANE_RESET_CHECK_MS = 10_000;

/** A lane's jobs that an unlucky reset may leave numbered from before it; a few requests' worth at most. */
const STRAGGLERS_LIFTED_MAX = 1_000;

/**
 * The dispatcher's side of the accounts' turns (docs/messages.md#fairness-between-accounts): the jobs that
 * start move their lane's virtual time up to their highest priority, so that an account with no backlog
 * starts at the front of the line; and once the numbering has grown past half of BullMQ's range, a lane
 * seen empty starts it again.
 */
export function createLaneTurns({ fairShare, lanes, logger }: { fairShare: FairShare; lanes: Pick<SendLanes, 'of' | 'chunks'>; logger: Logger }) {
  // The highest priority started since the last report, per lane; reported every LANE_CLOCK_REPORT_MS.
  const startedUpTo: Record<TrafficLane, number> = { transactional: 0, bulk: 0 };
  const reported: Record<TrafficLane, number> = { transactional: 0, bulk: 0 };
  // The numbering this process's figures belong to; a reset by any dispatcher starts the next one.
  const epoch: Record<TrafficLane, number> = { transactional: 0, bulk: 0 };
  const startNumbering = (lane: TrafficLane, next: number) => {
    epoch[lane] = next;
    startedUpTo[lane] = 0;
    reported[lane] = 0;
  };

  // The bulk lane's turns cover its single jobs and its chunks alike (docs/messages.md#chunk-lifecycle).
  const queuesOf = (lane: TrafficLane) => (lane === 'bulk' ? [lanes.of('bulk'), lanes.chunks] : [lanes.of(lane)]);

  const startedIn = (lane: TrafficLane) => (job: Job) => {
    startedUpTo[lane] = Math.max(startedUpTo[lane], job.priority ?? job.opts.priority ?? 0);
  };

  async function report(lane: TrafficLane): Promise<void> {
    const upTo = startedUpTo[lane];
    if (upTo <= reported[lane]) return;
    const current = await fairShare.started(lane, upTo, epoch[lane]);
    if (current === epoch[lane]) reported[lane] = upTo;
    else startNumbering(lane, current);
  }

  /**
   * A gateway may have numbered a job just before the reset and added it just after: lifted to the front,
   * it runs next rather than behind a million turns of the new numbering.
   */
  async function liftStragglers(lane: TrafficLane): Promise<void> {
    // Highest numbers first: the stragglers, if any, are at that end.
    const waiting = (await Promise.all(queuesOf(lane).map((queue) => queue.getJobs(['prioritized'], 0, STRAGGLERS_LIFTED_MAX - 1, false)))).flat();
    await Promise.all(
      waiting.filter((job) => (job.priority ?? job.opts.priority ?? 0) >= FAIR_SHARE_RESET_FROM).map((job) => job.changePriority({ priority: 1 })),
    );
  }

  async function resetIdleLane(lane: TrafficLane): Promise<void> {
    if ((await fairShare.virtualTime(lane)) < FAIR_SHARE_RESET_FROM) return;
    const counts = await Promise.all(queuesOf(lane).map((queue) => queue.getJobCounts('wait', 'prioritized')));
    if (counts.some((byState) => Object.values(byState).some((n) => n > 0))) return;
    startNumbering(lane, await fairShare.reset(lane));
    logger.info('lane turns numbered again', { lane });
    setTimeout(() => void liftStragglers(lane).catch(() => undefined), LANE_RESET_CHECK_MS).unref();
  }

  const lanesOf = ['transactional', 'bulk'] as const;
  // A lost report only leaves the clock a little behind; the next one carries the highest priority again.
  const clock = setInterval(() => {
    for (const lane of lanesOf) report(lane).catch((error: Error) => logger.debug('lane clock not advanced', { lane, error: error.message }));
  }, LANE_CLOCK_REPORT_MS);
  const resets = setInterval(() => {
    for (const lane of lanesOf) resetIdleLane(lane).catch((error: Error) => logger.debug('lane reset check failed', { lane, error: error.message }));
  }, LANE_RESET_CHECK_MS);
  clock.unref();
  resets.unref();

  return {
    startedIn,
    stop: () => {
      clearInterval(clock);
      clearInterval(resets);
    },
  };
}
