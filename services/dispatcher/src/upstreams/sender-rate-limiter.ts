import { createHash } from 'node:crypto';
import type { ConcreteChannel } from '@switchboard/domain';

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
 * (docs/routing.md#per-sender-limits). Answers 0 to send now, else the milliseconds to wait.
 */
const TAKE_SLOT = `
local interval = 1000 / tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local member = 'r:' .. ARGV[3]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local reserved = tonumber(redis.call('HGET', KEYS[1], member))
if reserved then
  if reserved > now + 1 then
    return math.ceil(reserved - now)
  end
  redis.call('HDEL', KEYS[1], member)
  return 0
end
local slot = math.max(tonumber(redis.call('HGET', KEYS[1], 'tat')) or now, now)
redis.call('HSET', KEYS[1], 'tat', tostring(slot + interval))
redis.call('PEXPIRE', KEYS[1], math.ceil(slot + interval - now) + 60000)
if slot - now <= burst then
  return 0
end
redis.call('HSET', KEYS[1], member, tostring(slot))
return math.ceil(slot - now)
`;

/** The Redis commands the limiter needs; an ioredis client fits. */
export interface RateLimitRedis {
  eval(script: string, keys: number, ...args: Array<string | number>): Promise<unknown>;
  evalsha(sha: string, keys: number, ...args: Array<string | number>): Promise<unknown>;
}

const TAKE_SLOT_SHA = createHash('sha1').update(TAKE_SLOT).digest('hex');

/** EVALSHA keeps the script text off the wire; a Redis that restarted since has to be sent it again. */
async function takeSlot(redis: RateLimitRedis, ...args: Array<string | number>): Promise<unknown> {
  try {
    return await redis.evalsha(TAKE_SLOT_SHA, 1, ...args);
  } catch (error) {
    if (!String((error as Error).message).includes('NOSCRIPT')) throw error;
    return redis.eval(TAKE_SLOT, 1, ...args);
  }
}

/** Messages per second allowed per (upstream, sender) on each channel; 0 means no limit (docs/configuration.md#per-sender-limits). */
export type SenderRates = Readonly<Record<ConcreteChannel, number>>;

export interface SenderRateLimiter {
  /**
   * Takes a send slot for `sender` on `upstream` on behalf of `messageId`: 0 to send now, or how many
   * milliseconds to wait for the slot reserved for that message.
   */
  take(channel: ConcreteChannel, upstream: string, sender: string, messageId: string): Promise<number>;
}

/**
 * Per-sender throughput limits shared by every dispatcher process (docs/routing.md#per-sender-limits).
 * A quiet sender may send `burstMs` worth of messages at once; it is kept short so that the rate over any
 * second stays close to the configured one.
 */
export function createSenderRateLimiter(deps: { redis: RateLimitRedis; prefix: string; rates: SenderRates; burstMs: number }): SenderRateLimiter {
  return {
    async take(channel, upstream, sender, messageId) {
      const rate = deps.rates[channel];
      if (!rate || rate <= 0 || sender === '') return 0;
      const wait = await takeSlot(deps.redis, senderRateKey(deps.prefix, upstream, sender), rate, deps.burstMs, messageId);
      return Number(wait);
    },
  };
}
