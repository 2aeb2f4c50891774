import { Redis, type RedisOptions } from 'ioredis';

/**
 * Producer connection (gateway): no offline queue, so a command fails at once while Redis is down and
 * the gateway answers 503 instead of hanging (STYLE: failure is a first-class path).
 */
export function createProducerConnection(url: string, extra: RedisOptions = {}): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    enableAutoPipelining: true,
    retryStrategy: (times) => Math.min(times * 100, 1_000),
    ...extra,
  });
}

/** Worker connection: BullMQ's blocking commands need `maxRetriesPerRequest: null`. */
export function createWorkerConnection(url: string, extra: RedisOptions = {}): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    ...extra,
  });
}
