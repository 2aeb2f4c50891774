import { createUpstreamBreakerStore } from '@switchboard/shared-state';
import { createAdapterSets } from '../upstreams/adapter-sets';
import { BREAKER_POLICY } from '../upstreams/circuit-breaker';
import { coalesceBreakerStore } from '../upstreams/coalesced-breakers';
import { createSenderRateLimiter } from '../upstreams/sender-rate-limiter';
import { syncUpstreamState } from '../upstreams/upstream-state.sync';
import type { DispatcherContext } from './dispatcher-context';

/**
 * The upstreams (docs/routing.md#several-upstreams-per-channel): adapters per key mode behind shared circuit breakers, the
 * upstream list published for GET /v1/upstreams, the per-sender limits, and whether every SMPP session is bound.
 */
/** 2 s: the breaker gauges and GET /v1/upstreams lag a state change by at most this, for one Redis read per dispatcher. */
export const BREAKER_GAUGE_REFRESH_MS = 2_000;

export function wireUpstreams({ config, logger, metrics, redis, clock }: DispatcherContext) {
  const breakers = coalesceBreakerStore(createUpstreamBreakerStore({ redis, prefix: config.queuePrefix, windowSize: BREAKER_POLICY.windowSize }));
  const adapters = createAdapterSets({
    sandbox: config.sandbox,
    live: config.live,
    logger,
    breakers,
    policy: BREAKER_POLICY,
    clock,
    metrics,
  });
  const stopSync = syncUpstreamState({
    descriptions: adapters.descriptions,
    names: adapters.breakerNames,
    breakers,
    metrics,
    intervalMs: BREAKER_GAUGE_REFRESH_MS,
    logger,
  });
  const bound = new Set<unknown>();
  for (const sms of adapters.smsSessions) {
    void sms.ready().then(
      () => bound.add(sms),
      () => undefined,
    );
  }
  const senderLimits = createSenderRateLimiter({ redis, prefix: config.queuePrefix });
  return {
    adapters,
    senderLimits,
    /** Ready only once every SMPP session has bound: before that, SMS sends would wait. */
    smsBound: () => adapters.smsSessions.every((sms) => bound.has(sms)),
    stopSync,
    closeSessions: () => Promise.all(adapters.smsSessions.map((sms) => sms.close())),
  };
}
export type Upstreams = ReturnType<typeof wireUpstreams>;
