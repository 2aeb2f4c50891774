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
 * A token bucket refilled at `rate` tokens per second up to `capacity`, on Redis's own clock so that
 * every dispatcher process agrees. Takes one token and answers 0, or answers how long to wait without
 * taking any. The wait is this caller's turn in line: `queued` counts the callers already told to wait
 * (draining at `rate`), so that a backlog of hundreds comes back spread over the seconds it needs instead
 * of all at the next token. The hash expires once a full bucket and an empty line would be back anyway.
 */
const TAKE_TOKEN = `
local rate = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at', 'queued')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
local queued = tonumber(state[3]) or 0
if tokens == nil then
  tokens = capacity
  at = now
end
local refill = math.max(0, now - at) * rate / 1000
tokens = math.min(capacity, tokens + refill)
queued = math.max(0, queued - refill)
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
else
  wait = math.ceil((1 - tokens + queued) * 1000 / rate)
  queued = queued + 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now, 'queued', tostring(queued))
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity + queued) * 1000 / rate) + 1000)
return wait
`;

/** The Redis commands the limiter needs; an ioredis client fits. */
export interface RateLimitRedis {
  eval(script: string, keys: number, ...args: Array<string | number>): Promise<unknown>;
  evalsha(sha: string, keys: number, ...args: Array<string | number>): Promise<unknown>;
}

const TAKE_TOKEN_SHA = createHash('sha1').update(TAKE_TOKEN).digest('hex');

/** EVALSHA keeps the script text off the wire; a Redis that restarted since has to be sent it again. */
async function takeToken(redis: RateLimitRedis, ...args: Array<string | number>): Promise<unknown> {
  try {
    return await redis.evalsha(TAKE_TOKEN_SHA, 1, ...args);
  } catch (error) {
    if (!String((error as Error).message).includes('NOSCRIPT')) throw error;
    return redis.eval(TAKE_TOKEN, 1, ...args);
  }
}

/** Messages per second allowed per (upstream, sender) on each channel; 0 means no limit (docs/configuration.md#per-sender-limits). */
export type SenderRates = Readonly<Record<ConcreteChannel, number>>;

export interface SenderRateLimiter {
  /** Takes a send slot for `sender` on `upstream`: 0 to send now, or how many milliseconds to wait first. */
  take(channel: ConcreteChannel, upstream: string, sender: string): Promise<number>;
}

/**
 * Per-sender throughput limits shared by every dispatcher process (docs/routing.md#per-sender-limits).
 * `burstMs` of tokens may be spent at once after a quiet spell; it is kept short so that the rate over
 * any second stays close to the configured one.
 */
export function createSenderRateLimiter(deps: { redis: RateLimitRedis; prefix: string; rates: SenderRates; burstMs: number }): SenderRateLimiter {
  return {
    async take(channel, upstream, sender) {
      const rate = deps.rates[channel];
      if (!rate || rate <= 0 || sender === '') return 0;
      const capacity = Math.max(1, (rate * deps.burstMs) / 1000);
      const wait = await takeToken(deps.redis, senderRateKey(deps.prefix, upstream, sender), rate, capacity);
      return Number(wait);
    },
  };
}
