import type { ConcreteChannel } from '@switchboard/domain';

export interface SuppressionKey {
  accountId: string;
  channel: ConcreteChannel;
  recipient: string;
}

/**
 * The Redis key the gateway checks before it accepts a message (docs/routing.md#opt-out). Only its
 * existence matters. The `suppressions` row in PostgreSQL is the record; this key is its copy.
 */
export function suppressionCacheKey(prefix: string, s: SuppressionKey): string {
  return `${prefix}:sup:${s.accountId}:${s.channel}:${s.recipient}`;
}

/** The Redis commands the suppression cache needs; an ioredis client fits. */
export interface SuppressionCacheRedis {
  set(key: string, value: string): Promise<unknown>;
  del(...keys: string[]): Promise<number>;
  mget(...keys: string[]): Promise<Array<string | null>>;
}

/**
 * Written wherever the list changes (the dispatcher on STOP/START, the gateway's `/v1/suppressions`),
 * always after the PostgreSQL write; read by the gateway on the hot path in one MGET per message.
 */
export function createSuppressionCache(deps: { redis: SuppressionCacheRedis; prefix: string }) {
  return {
    async add(s: SuppressionKey): Promise<void> {
      await deps.redis.set(suppressionCacheKey(deps.prefix, s), '1');
    },
    async remove(s: SuppressionKey): Promise<void> {
      await deps.redis.del(suppressionCacheKey(deps.prefix, s));
    },
    /** The keys `suppressedChannels` reads, for a caller that reads them inside a script of its own. */
    keysFor(accountId: string, recipient: string, channels: readonly ConcreteChannel[]): string[] {
      return channels.map((channel) => suppressionCacheKey(deps.prefix, { accountId, channel, recipient }));
    },
    /** The channels among `channels` on which the recipient opted out, in one round trip. */
    async suppressedChannels(accountId: string, recipient: string, channels: readonly ConcreteChannel[]): Promise<Set<ConcreteChannel>> {
      if (channels.length === 0) return new Set();
      const values = await deps.redis.mget(...channels.map((channel) => suppressionCacheKey(deps.prefix, { accountId, channel, recipient })));
      return new Set(channels.filter((_, i) => values[i] !== null));
    },
  };
}
export type SuppressionCache = ReturnType<typeof createSuppressionCache>;
