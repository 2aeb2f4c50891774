import { createHash } from 'node:crypto';
import type { TrafficLane } from '@switchboard/queues';
import { createBatcher } from '@switchboard/runtime';

/**
 * The Redis key of one (upstream, sender) bucket. The `{...}` hash tag keeps the one key of a script call
 * in one Redis Cluster slot whatever the prefix becomes.
 */
export function senderRateKey(prefix: string, upstream: string, sender: string): string {
  return `${prefix}:sender-rate:{${upstream}:${sender}}`;
}

/**
 * Per-sender pacing on Redis's own clock, so that every dispatcher process agrees (a GCRA, the token bucket
 * written as one timestamp). `tat` is when the sender's schedule is next free; a send may run up to `burstMs`
 * ahead of it. A message that may not send yet is given the next free slot, which is reserved for it under
 * its id: when it comes back it sends without asking again, so a backlog is served in turn rather than all
 * asking at every free slot, and a message back late (a busy dispatcher) still has its slot. Whatever the
 * lateness, the sends since a schedule began never exceed rate × elapsed time + burst
 * (docs/routing.md#per-sender-limits).
 *
 * Transactional first (docs/messages.md#traffic-lanes): while bulk messages (member `b:<id>`) hold the schedule
 * ahead (the last slot taken at its end was a bulk one, `last`), a transactional message (`t:<id>`) does not
 * queue behind them. It takes a slot of a pace of its own (`ttat`) and the schedule owes one slot (`debt`): the
 * next bulk message whose reserved slot comes due gives it up and is moved to the end of the schedule. The rate
 * holds, up to the sends of one interval. Transactional messages queue behind each other as before.
 *
 * One call takes the slots of several messages, one after the other in the given order, exactly as that many
 * calls in a row would; it answers, per message, 0 to send now, else the milliseconds to wait.
 */
const TAKE_SLOTS = `
local interval = 1000 / tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local tat = tonumber(redis.call('HGET', KEYS[1], 'tat'))
local ttat = tonumber(redis.call('HGET', KEYS[1], 'ttat'))
local debt = tonumber(redis.call('HGET', KEYS[1], 'debt') or '0')
local last = redis.call('HGET', KEYS[1], 'last')
if not tat or tat <= now then debt = 0 end
local moved = false
local waits = {}
local function slotAtEnd(lane)
  local slot = math.max(tat or now, now)
  tat = slot + interval
  last = lane
  moved = true
  return slot
end
for i = 3, #ARGV do
  local lane = string.sub(ARGV[i], 1, 1)
  local member = 'r:' .. string.sub(ARGV[i], 3)
  local reserved = tonumber(redis.call('HGET', KEYS[1], member))
  if reserved then
    if reserved > now + 1 then
      waits[#waits + 1] = math.ceil(reserved - now)
    elseif lane == 'b' and debt > 0 then
      debt = debt - 1
      local slot = slotAtEnd('b')
      redis.call('HSET', KEYS[1], member, tostring(slot))
      waits[#waits + 1] = math.max(1, math.ceil(slot - now))
    else
      redis.call('HDEL', KEYS[1], member)
      waits[#waits + 1] = 0
    end
  else
    local slot
    if lane == 't' and last == 'b' and tat and tat > now + burst then
      slot = math.max(ttat or now, now)
      ttat = slot + interval
      debt = debt + 1
      moved = true
    else
      slot = slotAtEnd(lane)
    end
    if slot - now <= burst then
      waits[#waits + 1] = 0
    else
      redis.call('HSET', KEYS[1], member, tostring(slot))
      waits[#waits + 1] = math.ceil(slot - now)
    end
  end
end
if moved then
  redis.call('HSET', KEYS[1], 'tat', tostring(tat), 'debt', tostring(debt), 'last', last)
  if ttat then redis.call('HSET', KEYS[1], 'ttat', tostring(ttat)) end
  redis.call('PEXPIRE', KEYS[1], math.ceil(math.max(tat, ttat or tat) - now) + 60000)
end
return waits
`;

/** The Redis commands the limiter needs; an ioredis client fits. */
export interface RateLimitRedis {
  eval(script: string, keys: number, ...args: Array<string | number>): Promise<unknown>;
  evalsha(sha: string, keys: number, ...args: Array<string | number>): Promise<unknown>;
}

const TAKE_SLOTS_SHA = createHash('sha1').update(TAKE_SLOTS).digest('hex');

/** EVALSHA keeps the script text off the wire; a Redis that restarted since has to be sent it again. */
async function takeSlots(redis: RateLimitRedis, ...args: Array<string | number>): Promise<number[]> {
  try {
    return (await redis.evalsha(TAKE_SLOTS_SHA, 1, ...args)) as number[];
  } catch (error) {
    if (!String((error as Error).message).includes('NOSCRIPT')) throw error;
    return (await redis.eval(TAKE_SLOTS, 1, ...args)) as number[];
  }
}

/**
 * The schedule a sender's messages take slots from: the upstream (or the `+`-joined names of a channel's
 * upstreams) and the messages per second it allows, 0 for no limit (docs/routing.md#per-sender-limits).
 */
export interface SenderSchedule {
  upstream: string;
  rate: number;
}

export interface SenderRateLimiter {
  /**
   * Takes a send slot for `sender` on `schedule` on behalf of `messageId`: 0 to send now, or how many
   * milliseconds to wait for the slot reserved for that message.
   */
  take(schedule: SenderSchedule, sender: string, messageId: string, lane?: TrafficLane): Promise<number>;
}

/** 100 ms of messages at once: short, so the rate over any second stays close to the configured one (docs/routing.md#per-sender-limits). */
export const SENDER_RATE_BURST_MS = 100;

/**
 * Per-sender throughput limits shared by every dispatcher process (docs/routing.md#per-sender-limits).
 * A quiet sender may send `burstMs` worth of messages at once; it is kept short so that the rate over any
 * second stays close to the configured one.
 */
export function createSenderRateLimiter(deps: { redis: RateLimitRedis; prefix: string; burstMs?: number }): SenderRateLimiter {
  const burstMs = deps.burstMs ?? SENDER_RATE_BURST_MS;
  // The messages asking while a call for their schedule is under way take their slots together in the
  // schedule's next call, in the order they asked (docs/performance/dispatch.md#dispatch).
  const takeTogether = createBatcher<{ member: string; rate: number }, number, string>({
    runMany: (asks, key) => takeSlots(deps.redis, key, asks[0].rate, burstMs, ...asks.map((ask) => ask.member)),
    flush: 'after-previous',
    maxSize: 256,
    onGroupFailure: 'fail-group',
  });
  return {
    async take({ upstream, rate }, sender, messageId, lane = 'transactional') {
      if (!rate || rate <= 0 || sender === '') return 0;
      // A schedule is one (upstream, sender) pair, and an upstream serves one channel: one rate per key.
      const member = `${lane === 'bulk' ? 'b' : 't'}:${messageId}`;
      const wait = await takeTogether({ member, rate }, senderRateKey(deps.prefix, upstream, sender));
      return Number(wait);
    },
  };
}
