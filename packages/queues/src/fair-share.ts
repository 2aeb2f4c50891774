import type { Redis } from 'ioredis';
import type { TrafficLane } from './contracts/message-send.queue';

/**
 * Fair turns between accounts inside one traffic lane (docs/messages.md#fairness-between-accounts), on
 * BullMQ's public job priority: lower numbers run first, equal numbers in the order they were added.
 *
 * Start-time fair queuing. The lane keeps a virtual time `vt`: the highest priority a dispatcher has
 * started. Each account keeps the tag of its last job. A new job of an account gets
 * `max(account's last tag, vt) + 1`: an account that sends into an idle lane starts at the front, one that
 * already has a backlog queues behind its own jobs, and accounts with work waiting take turns, one job
 * each per round, whatever the size of their backlogs.
 */

/** BullMQ's largest priority; a tag past it saturates (the account's surplus then runs FIFO, after everyone). */
export const MAX_JOB_PRIORITY = 2_097_151;

/**
 * The virtual time grows with the rounds served. Once it passes this mark a dispatcher that sees the lane
 * empty starts the numbering again; half the range leaves a backlog of a million jobs per account room to
 * grow before it saturates.
 */
export const FAIR_SHARE_RESET_FROM = 1_000_000;

/** KEYS[1] the lane's hash; ARGV: account id, jobs. Answers the tag before the first job's. */
const TAG_JOBS = `
local vt = tonumber(redis.call('HGET', KEYS[1], 'vt') or '0')
local field = 'a:' .. ARGV[1]
local last = tonumber(redis.call('HGET', KEYS[1], field) or '0')
local start = math.max(last, vt)
redis.call('HSET', KEYS[1], field, start + tonumber(ARGV[2]))
return start
`;

/**
 * KEYS[1] the lane's hash; ARGV[1] the priority of a job that started, ARGV[2] the numbering it belongs to.
 * The virtual time never goes back; a priority of an earlier numbering (before a reset) moves nothing.
 * Answers the current numbering.
 */
const ADVANCE = `
local epoch = tonumber(redis.call('HGET', KEYS[1], 'epoch') or '0')
if epoch ~= tonumber(ARGV[2]) then return epoch end
local vt = tonumber(redis.call('HGET', KEYS[1], 'vt') or '0')
local started = tonumber(ARGV[1])
if started > vt then redis.call('HSET', KEYS[1], 'vt', started) end
return epoch
`;

/** KEYS[1] the lane's hash: forgets every tag and starts the next numbering. Answers it. */
const RESET = `
local epoch = tonumber(redis.call('HGET', KEYS[1], 'epoch') or '0') + 1
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'epoch', epoch)
return epoch
`;

interface FairShareRedis extends Redis {
  fairShareTag(key: string, accountId: string, jobs: number): Promise<number>;
  fairShareAdvance(key: string, priority: number, epoch: number): Promise<number>;
  fairShareReset(key: string): Promise<number>;
}

/** Commands defined once, at construction: ioredis then sends them as EVALSHA, and the script again after a NOSCRIPT. */
function withFairShareCommands(redis: Redis): FairShareRedis {
  const extended = redis as FairShareRedis;
  if (typeof extended.fairShareTag !== 'function') redis.defineCommand('fairShareTag', { numberOfKeys: 1, lua: TAG_JOBS });
  if (typeof extended.fairShareAdvance !== 'function') redis.defineCommand('fairShareAdvance', { numberOfKeys: 1, lua: ADVANCE });
  if (typeof extended.fairShareReset !== 'function') redis.defineCommand('fairShareReset', { numberOfKeys: 1, lua: RESET });
  return extended;
}

/** The lane's key; under the queues' prefix, so it shares their Redis Cluster slot (docs/storage-layout.md#redis-keys-and-cluster). */
export function fairShareKey(prefix: string, lane: TrafficLane): string {
  return `${prefix}:fair-share:${lane}`;
}

export interface FairShare {
  /** The priorities of an account's next `jobs` jobs in the lane, in the order they are to run. */
  priorities(lane: TrafficLane, accountId: string, jobs: number): Promise<number[]>;
  /**
   * A dispatcher started jobs up to this priority, numbered in `epoch`: the lane's virtual time moves up to
   * it. Answers the lane's current numbering; when it is not `epoch`, nothing moved.
   */
  started(lane: TrafficLane, priority: number, epoch: number): Promise<number>;
  /** The lane's virtual time. */
  virtualTime(lane: TrafficLane): Promise<number>;
  /** Forgets every tag of the lane and answers the new numbering; only safe while no job of the lane waits. */
  reset(lane: TrafficLane): Promise<number>;
}

export function createFairShare({ redis, prefix }: { redis: Redis; prefix: string }): FairShare {
  const commands = withFairShareCommands(redis);
  return {
    async priorities(lane, accountId, jobs) {
      if (jobs <= 0) return [];
      const before = Number(await commands.fairShareTag(fairShareKey(prefix, lane), accountId, jobs));
      return Array.from({ length: jobs }, (_, i) => Math.min(MAX_JOB_PRIORITY, before + i + 1));
    },
    async started(lane, priority, epoch) {
      return Number(await commands.fairShareAdvance(fairShareKey(prefix, lane), priority, epoch));
    },
    async virtualTime(lane) {
      return Number((await redis.hget(fairShareKey(prefix, lane), 'vt')) ?? 0);
    },
    async reset(lane) {
      return Number(await commands.fairShareReset(fairShareKey(prefix, lane)));
    },
  };
}
