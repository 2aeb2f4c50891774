import type { Redis } from 'ioredis';

/** The first answer to a key, replayed byte for byte (contract §3). */
export interface StoredResponse {
  status: number;
  body: string;
  location: string;
}

interface InFlightRecord {
  state: 'in_flight';
  message_id: string;
  fingerprint: string;
  started_at: number;
}

interface CompletedRecord {
  state: 'completed';
  message_id: string;
  fingerprint: string;
  response: StoredResponse;
}

type IdempotencyRecord = InFlightRecord | CompletedRecord;

export interface ReservedKey {
  outcome: 'reserved';
  messageId: string;
  /** True when this request took over a reservation orphaned by a crash: the job may already exist. */
  takeover: boolean;
  /** Stores the answer for replay; a no-op if another request took the reservation over meanwhile. */
  complete(response: StoredResponse): Promise<void>;
  /** Forgets the key so the client may fix its request and retry with it; only if still ours. */
  release(): Promise<void>;
}

export type Reservation = ReservedKey | { outcome: 'replay'; response: StoredResponse } | { outcome: 'in_use' } | { outcome: 'reused' };

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
// Compare-and-set: only the holder of the exact current value may replace it.
const SWAP_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
  return 1
end
return 0
`;
const RELEASE_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

type IdempotencyRedis = Redis & {
  switchboardIdemReserve(key: string, value: string, ttlSeconds: number): Promise<string | null>;
  switchboardIdemSwap(key: string, expected: string, next: string, ttlSeconds: number): Promise<number>;
  switchboardIdemRelease(key: string, expected: string): Promise<number>;
};

export interface IdempotencyStoreOptions {
  redis: Redis;
  keyPrefix: string;
  ttlSeconds: number;
  /** An in-flight reservation older than this is presumed orphaned (the gateway crashed) and may be taken over. */
  leaseMs: number;
  clock?: () => number;
}

export type IdempotencyStore = (scope: IdempotencyScope, fingerprint: string, newMessageId: string) => Promise<Reservation>;

function parseRecord(raw: string): IdempotencyRecord | null {
  try {
    const record = JSON.parse(raw) as IdempotencyRecord;
    return record && (record.state === 'in_flight' || record.state === 'completed') ? record : null;
  } catch {
    return null;
  }
}

/**
 * Idempotency-Key bookkeeping in Redis (contract §3). The key is reserved with the message id BEFORE
 * the job is enqueued, and that id is the BullMQ job id; so a request that finds a reservation
 * orphaned by a crash finishes it with the same id, and BullMQ ignores a second add of that id:
 * one key, one job, even across a gateway crash.
 */
export function createIdempotencyStore({ redis, keyPrefix, ttlSeconds, leaseMs, clock = Date.now }: IdempotencyStoreOptions): IdempotencyStore {
  if (!('switchboardIdemReserve' in redis)) {
    redis.defineCommand('switchboardIdemReserve', { numberOfKeys: 1, lua: RESERVE_LUA });
    redis.defineCommand('switchboardIdemSwap', { numberOfKeys: 1, lua: SWAP_LUA });
    redis.defineCommand('switchboardIdemRelease', { numberOfKeys: 1, lua: RELEASE_LUA });
  }
  const client = redis as IdempotencyRedis;

  function reserved(redisKey: string, heldValue: string, messageId: string, takeover: boolean): ReservedKey {
    const record = JSON.parse(heldValue) as InFlightRecord;
    return {
      outcome: 'reserved',
      messageId,
      takeover,
      async complete(response) {
        const completed: CompletedRecord = { state: 'completed', message_id: messageId, fingerprint: record.fingerprint, response };
        await client.switchboardIdemSwap(redisKey, heldValue, JSON.stringify(completed), ttlSeconds);
      },
      async release() {
        await client.switchboardIdemRelease(redisKey, heldValue);
      },
    };
  }

  return async ({ accountId, route, key }, fingerprint, newMessageId) => {
    const redisKey = `${keyPrefix}:gateway:idempotency:${accountId}:${route}:${key}`;
    const value = JSON.stringify({ state: 'in_flight', message_id: newMessageId, fingerprint, started_at: clock() } satisfies InFlightRecord);
    const currentRaw = await client.switchboardIdemReserve(redisKey, value, ttlSeconds);
    if (currentRaw === null) return reserved(redisKey, value, newMessageId, false);

    const current = parseRecord(currentRaw);
    if (!current) return { outcome: 'in_use' };
    if (current.fingerprint !== fingerprint) return { outcome: 'reused' };
    if (current.state === 'completed') return { outcome: 'replay', response: current.response };
    if (clock() - current.started_at < leaseMs) return { outcome: 'in_use' };

    const takeover = JSON.stringify({ ...current, started_at: clock() } satisfies InFlightRecord);
    const swapped = await client.switchboardIdemSwap(redisKey, currentRaw, takeover, ttlSeconds);
    return swapped === 1 ? reserved(redisKey, takeover, current.message_id, true) : { outcome: 'in_use' };
  };
}
