import type { Redis } from 'ioredis';
import { SLIDING_WINDOW_LUA_FUNCTION, type SlidingWindowCall, type SlidingWindowReply } from '../rate-limit/rate-limiter';

/**
 * 24 hours a key is remembered, as Stripe keeps idempotency keys: clients build their retries on that window, so it
 * is part of the API (docs/api.md#idempotency-key), not a setting.
 */
export const IDEMPOTENCY_TTL_SECONDS = 86_400;

/** The first answer to a key, replayed byte for byte (docs/api.md#idempotency-key). */
export interface StoredResponse {
  status: number;
  body: string;
  location: string;
}

/**
 * What a key remembers: the message it accepted, the body's fingerprint, when the reservation was made
 * and the 202 answer. The answer is written with the reservation, before the job is enqueued, so that
 * accepting a message costs one idempotency round trip; whether that job really reached the queue is
 * checked only when a key is seen again (see `createSendMessageHandler`).
 */
export interface IdempotencyRecord {
  message_id: string;
  fingerprint: string;
  started_at: number;
  response: StoredResponse;
}

export type Reservation =
  | { outcome: 'reserved' }
  | { outcome: 'reused' }
  /** The key holds something unreadable: treated as a request still in flight, never as leave to send again. */
  | { outcome: 'in_use' }
  | {
      outcome: 'existing';
      record: IdempotencyRecord;
      /** True when the reservation is older than the lease: its request may have died before enqueueing. */
      leaseExpired: boolean;
      /** Takes an expired reservation over (compare-and-set); false when another request got there first. */
      takeOver(): Promise<boolean>;
    };

export interface IdempotencyScope {
  accountId: string;
  route: string;
  key: string;
}

// Returns the current record, or reserves the key and returns nil: one round trip, no race between the two.
const RESERVE_LUA = `
local current = redis.call('GET', KEYS[1])
if current then return current end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return false
`;
// The send path's one script call (docs/performance/accept.md#cost-per-request-of-one-gateway-process).
// KEYS[1] the idempotency key, KEYS[2] the rate-limit set (or '' when the request was counted already),
// KEYS[3..] the recipient's suppression keys on the plan's channels. ARGV: record, TTL, window µs, quota,
// member. Replies { allowed, count, oldest age, outcome, current }: outcome 0 reserved, 1 suppressed
// (nothing reserved: the caller takes the long way), 2 the key holds `current`, 3 refused by the limit.
const SEND_SCRIPT_LUA =
  SLIDING_WINDOW_LUA_FUNCTION +
  `
local limit = { 1, 0, 0 }
if KEYS[2] ~= '' then
  limit = sliding_window(KEYS[2], tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5])
  if limit[1] == 0 then return { limit[1], limit[2], limit[3], 3, '' } end
end
for i = 3, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then return { limit[1], limit[2], limit[3], 1, '' } end
end
local current = redis.call('GET', KEYS[1])
if current then return { limit[1], limit[2], limit[3], 2, current } end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return { limit[1], limit[2], limit[3], 0, '' }
`;
// Compare-and-set: only the holder of the exact current value may replace it.
const SWAP_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
  return 1
end
return 0
`;

type IdempotencyRedis = Redis & {
  switchboardIdemReserve(key: string, value: string, ttlSeconds: number): Promise<string | null>;
  switchboardIdemSwap(key: string, expected: string, next: string, ttlSeconds: number): Promise<number>;
  switchboardIdemSendScript(numberOfKeys: number, ...keysThenArgs: Array<string | number>): Promise<[number, number, number, number, string]>;
};

export interface IdempotencyStoreOptions {
  redis: Redis;
  keyPrefix: string;
  /** A reservation whose job is not in the queue after this long is presumed orphaned by a crash. */
  leaseMs: number;
  clock?: () => number;
}

export interface IdempotencyStore {
  /** Reserves the key for this message and its answer, or reports what the key already holds. */
  reserve(scope: IdempotencyScope, fingerprint: string, messageId: string, response: StoredResponse): Promise<Reservation>;
  /**
   * `reserve`, folded with the rate-limit count (`rateLimit`, when the request was not counted yet) and the
   * opt-out read in one script call: `limited` when the limit refused it (nothing else done), `suppressed`
   * (counted, nothing reserved) when any of `suppressionKeys` exists. All keys share the `QUEUE_PREFIX` hash
   * tag, so one Redis Cluster slot.
   */
  reserveInSendScript(
    scope: IdempotencyScope,
    fingerprint: string,
    messageId: string,
    response: StoredResponse,
    suppressionKeys: readonly string[],
    rateLimit: SlidingWindowCall | null,
  ): Promise<{ limit: SlidingWindowReply | null; reservation: Reservation | { outcome: 'suppressed' } | { outcome: 'limited' } }>;
  /** What the key holds, without reserving it: for requests refused before they could reserve. */
  peek(scope: IdempotencyScope, fingerprint: string): Promise<Exclude<Reservation, { outcome: 'reserved' }> | null>;
}

function parseRecord(raw: string): IdempotencyRecord | null {
  try {
    const record = JSON.parse(raw) as IdempotencyRecord;
    return record && typeof record.message_id === 'string' && typeof record.response?.body === 'string' ? record : null;
  } catch {
    return null;
  }
}

/**
 * Idempotency-Key bookkeeping in Redis (docs/architecture.md#exactly-once-dispatch). The reservation carries the message id, which is
 * also the BullMQ job id: a request that finds a reservation orphaned by a crash enqueues with the same
 * id, and BullMQ ignores a second add of it. One key, one job, even across a gateway crash.
 */
export function createIdempotencyStore({ redis, keyPrefix, leaseMs, clock = Date.now }: IdempotencyStoreOptions): IdempotencyStore {
  if (!('switchboardIdemReserve' in redis)) {
    redis.defineCommand('switchboardIdemReserve', { numberOfKeys: 1, lua: RESERVE_LUA });
    redis.defineCommand('switchboardIdemSwap', { numberOfKeys: 1, lua: SWAP_LUA });
  }
  if (!('switchboardIdemSendScript' in redis)) {
    // The number of keys varies with the plan's channels, so it is given per call.
    redis.defineCommand('switchboardIdemSendScript', { lua: SEND_SCRIPT_LUA });
  }
  const client = redis as IdempotencyRedis;
  const redisKey = ({ accountId, route, key }: IdempotencyScope) => `${keyPrefix}:gateway:idempotency:${accountId}:${route}:${key}`;

  function existing(key: string, raw: string, fingerprint: string): Exclude<Reservation, { outcome: 'reserved' }> {
    const record = parseRecord(raw);
    if (!record) return { outcome: 'in_use' };
    if (record.fingerprint !== fingerprint) return { outcome: 'reused' };
    return {
      outcome: 'existing',
      record,
      leaseExpired: clock() - record.started_at >= leaseMs,
      takeOver: async () => (await client.switchboardIdemSwap(key, raw, JSON.stringify({ ...record, started_at: clock() }), IDEMPOTENCY_TTL_SECONDS)) === 1,
    };
  }

  return {
    async reserve(scope, fingerprint, messageId, response) {
      const key = redisKey(scope);
      const value = JSON.stringify({ message_id: messageId, fingerprint, started_at: clock(), response } satisfies IdempotencyRecord);
      const currentRaw = await client.switchboardIdemReserve(key, value, IDEMPOTENCY_TTL_SECONDS);
      return currentRaw === null ? { outcome: 'reserved' } : existing(key, currentRaw, fingerprint);
    },
    async reserveInSendScript(scope, fingerprint, messageId, response, suppressionKeys, rateLimit) {
      const key = redisKey(scope);
      const value = JSON.stringify({ message_id: messageId, fingerprint, started_at: clock(), response } satisfies IdempotencyRecord);
      const [allowed, count, oldestAgeUs, outcome, current] = await client.switchboardIdemSendScript(
        2 + suppressionKeys.length,
        key,
        rateLimit?.key ?? '',
        ...suppressionKeys,
        value,
        IDEMPOTENCY_TTL_SECONDS,
        rateLimit?.windowUs ?? 0,
        rateLimit?.quota ?? 0,
        rateLimit?.member ?? '',
      );
      const limit: SlidingWindowReply | null = rateLimit ? [allowed, count, oldestAgeUs] : null;
      if (outcome === 3) return { limit, reservation: { outcome: 'limited' } };
      if (outcome === 1) return { limit, reservation: { outcome: 'suppressed' } };
      return { limit, reservation: outcome === 2 ? existing(key, current, fingerprint) : { outcome: 'reserved' } };
    },
    async peek(scope, fingerprint) {
      const key = redisKey(scope);
      const raw = await redis.get(key);
      return raw === null ? null : existing(key, raw, fingerprint);
    },
  };
}
