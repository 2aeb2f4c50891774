import type { Redis } from 'ioredis';

/** Circuit breaker states (docs/routing.md#several-upstreams-per-channel); the gauge value is the index. */
export const BREAKER_STATES = ['closed', 'half_open', 'open'] as const;
export type BreakerStateName = (typeof BREAKER_STATES)[number];

/** One upstream's shared breaker state as stored in Redis. */
export interface BreakerRecord {
  state: BreakerStateName;
  /** When the breaker last opened (ms since epoch); 0 when it never did. */
  openedAt: number;
  /** While half-open: until when the one probe in flight holds the upstream. */
  probeUntil: number;
  /** Outcomes of the most recent calls, newest first: true for a good call. */
  recent: boolean[];
}

/** What a dispatcher publishes about each upstream it was configured with, for GET /v1/upstreams. */
export interface UpstreamDescription {
  name: string;
  channel: string;
  /** `test` for the sandbox list, `live` for live keys'. */
  mode: string;
  priority: number;
  weight: number;
}

/**
 * Sets the state fields only if the state is still `expected`, so that of two dispatchers racing to
 * half-open an upstream exactly one gets the probe. Returns 1 when it wrote.
 */
const COMPARE_AND_SET = `
local current = redis.call('HGET', KEYS[1], 'state') or 'closed'
if current ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[2], 'opened_at', ARGV[3], 'probe_until', ARGV[4])
if ARGV[5] == '1' then redis.call('DEL', KEYS[2]) end
return 1
`;

function parseRecord(fields: Record<string, string>, recent: string[]): BreakerRecord {
  const state = (BREAKER_STATES as readonly string[]).includes(fields.state ?? '') ? (fields.state as BreakerStateName) : 'closed';
  return { state, openedAt: Number(fields.opened_at ?? 0), probeUntil: Number(fields.probe_until ?? 0), recent: recent.map((o) => o === '1') };
}

/**
 * Breaker state shared by every dispatcher through Redis, so that all of them agree whether an upstream
 * is open. The decisions are made by the pure functions in the dispatcher; Redis only stores the rolling
 * window (a capped list) and applies state changes atomically.
 */
export function createUpstreamBreakerStore(deps: { redis: Redis; prefix: string; windowSize: number }) {
  const { redis, prefix, windowSize } = deps;
  const stateKey = (name: string) => `${prefix}:upstream:${name}:breaker`;
  const windowKey = (name: string) => `${prefix}:upstream:${name}:calls`;
  const registryKey = `${prefix}:upstreams`;

  async function recordMany(name: string, oks: readonly boolean[]): Promise<BreakerRecord> {
    const result = await redis
      .multi()
      .lpush(windowKey(name), ...oks.map((ok) => (ok ? '1' : '0')))
      .ltrim(windowKey(name), 0, windowSize - 1)
      .hgetall(stateKey(name))
      .lrange(windowKey(name), 0, windowSize - 1)
      .exec();
    return parseRecord((result?.[2]?.[1] ?? {}) as Record<string, string>, (result?.[3]?.[1] ?? []) as string[]);
  }

  return {
    async read(name: string): Promise<BreakerRecord> {
      const result = await redis
        .multi()
        .hgetall(stateKey(name))
        .lrange(windowKey(name), 0, windowSize - 1)
        .exec();
      return parseRecord((result?.[0]?.[1] ?? {}) as Record<string, string>, (result?.[1]?.[1] ?? []) as string[]);
    },
    /** Adds one call's outcome to the rolling window and returns the state including it. */
    record: (name: string, ok: boolean): Promise<BreakerRecord> => recordMany(name, [ok]),
    /** Adds several calls' outcomes (oldest first) to the rolling window in one transaction and returns the state including them. */
    recordMany,
    /** Moves from `expected` to `next`; false when another process moved it first. */
    async transition(name: string, expected: BreakerStateName, next: Omit<BreakerRecord, 'recent'>, clearWindow: boolean): Promise<boolean> {
      const written = await redis.eval(
        COMPARE_AND_SET,
        2,
        stateKey(name),
        windowKey(name),
        expected,
        next.state,
        String(next.openedAt),
        String(next.probeUntil),
        clearWindow ? '1' : '0',
      );
      return written === 1;
    },
    async publish(upstreams: readonly UpstreamDescription[]): Promise<void> {
      if (upstreams.length === 0) return;
      await redis.hset(registryKey, Object.fromEntries(upstreams.map((u) => [`${u.mode}:${u.channel}:${u.name}`, JSON.stringify(u)])));
    },
    async published(): Promise<UpstreamDescription[]> {
      const entries = await redis.hgetall(registryKey);
      return Object.values(entries)
        .map((v) => JSON.parse(v) as UpstreamDescription)
        .sort((a, b) => a.mode.localeCompare(b.mode) || a.channel.localeCompare(b.channel) || a.priority - b.priority || a.name.localeCompare(b.name));
    },
  };
}
export type UpstreamBreakerStore = ReturnType<typeof createUpstreamBreakerStore>;
