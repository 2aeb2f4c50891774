import type { ConcreteChannel } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';
import { isProviderError, ProviderError } from '@switchboard/providers';
import { BREAKER_STATES, type BreakerRecord, type UpstreamBreakerStore } from '@switchboard/shared-state';
import type { DispatcherMetrics } from '../metrics';
import { admit, afterCall, isGoodCall, type BreakerPolicy } from './circuit-breaker';
import { orderCandidates } from './upstream-selection';

/** One upstream of a channel's list, with the adapter that reaches it. */
export interface FailoverUpstream<A> {
  name: string;
  priority: number;
  weight: number;
  adapter: A;
}

const CLOSED: BreakerRecord = { state: 'closed', openedAt: 0, probeUntil: 0, recent: [] };

/**
 * Runs one call over a channel's upstreams (docs/routing.md#several-upstreams-per-channel), whatever the
 * channel: the upstreams are tried in priority and weight order, skipping those whose breaker is open.
 * A transient failure that `mayMoveOn` accepts (one that proves the upstream took nothing) moves on to
 * the next one within the same call; any other failure is thrown as it came, so the caller's failure
 * policy (retry, reconcile, throttle, fail) sees what it would see with one upstream. Refusals other
 * than transient ones are the upstream working as it should and do not count against its breaker.
 * If Redis cannot be read the breakers are taken as closed: better a failing upstream than none at all.
 */
/** What every channel's failover adapter needs besides its upstreams. */
export interface FailoverParts {
  breakers: UpstreamBreakerStore;
  policy: BreakerPolicy;
  clock: () => number;
  logger: Logger;
  metrics: Pick<DispatcherMetrics, 'upstreamCalls' | 'upstreamFailures' | 'upstreamLatency' | 'upstreamBreakerState'>;
  random?: () => number;
}

export function createUpstreamFailover<A>(
  deps: FailoverParts & {
    channel: ConcreteChannel;
    upstreams: FailoverUpstream<A>[];
    /** Whether, after this transient failure, sending the same message to another upstream cannot deliver it twice. */
    mayMoveOn: (error: unknown) => boolean;
  },
): <R>(call: (adapter: A) => Promise<R>) => Promise<R> {
  const { channel, upstreams, breakers, policy, clock, logger, metrics } = deps;
  const labels = (name: string) => ({ channel, upstream: name });

  const readBreaker = async (name: string): Promise<BreakerRecord> => {
    try {
      return await breakers.read(name);
    } catch (error) {
      logger.warn('circuit breaker unreadable; treating it as closed', { upstream: name, error: String(error) });
      return CLOSED;
    }
  };

  const report = async (name: string, good: boolean, wasProbe: boolean): Promise<void> => {
    metrics.upstreamCalls.inc(labels(name));
    if (!good) metrics.upstreamFailures.inc(labels(name));
    try {
      const record = await breakers.record(name, good);
      const change = afterCall(record, good, wasProbe, clock(), policy);
      if (change && (await breakers.transition(name, change.from, change.next, change.clearWindow))) {
        metrics.upstreamBreakerState.set(labels(name), BREAKER_STATES.indexOf(change.next.state));
        logger.warn('circuit breaker changed state', { channel, upstream: name, from: change.from, to: change.next.state });
      }
    } catch (error) {
      logger.warn('circuit breaker not updated', { upstream: name, error: String(error) });
    }
  };

  return async <R>(call: (adapter: A) => Promise<R>): Promise<R> => {
    let lastError: unknown;
    for (const upstream of orderCandidates(upstreams, deps.random)) {
      const admission = admit(await readBreaker(upstream.name), clock(), policy);
      if (admission.verdict === 'reject') continue;
      const wasProbe = admission.verdict === 'probe';
      if (admission.verdict === 'probe') {
        // Of several dispatchers seeing the cool-down end, only the one that moves the state probes.
        const won = await breakers.transition(upstream.name, admission.from, admission.next, false).catch(() => false);
        if (!won) continue;
        metrics.upstreamBreakerState.set(labels(upstream.name), BREAKER_STATES.indexOf('half_open'));
        logger.info('circuit breaker half-open; probing', { channel, upstream: upstream.name });
      }
      const started = clock();
      try {
        const result = await call(upstream.adapter);
        metrics.upstreamLatency.observe({ ...labels(upstream.name), outcome: 'ok' }, (clock() - started) / 1000);
        await report(upstream.name, isGoodCall({ failed: false, durationMs: clock() - started }, policy), wasProbe);
        return result;
      } catch (error) {
        const upstreamFault = !isProviderError(error) || error.kind === 'transient';
        metrics.upstreamLatency.observe({ ...labels(upstream.name), outcome: upstreamFault ? 'error' : 'rejected' }, (clock() - started) / 1000);
        await report(upstream.name, isGoodCall({ failed: upstreamFault, durationMs: clock() - started }, policy), wasProbe);
        if (!upstreamFault || !deps.mayMoveOn(error)) throw error;
        lastError = error;
        logger.warn(`${channel} upstream failed transiently; trying the next one`, { upstream: upstream.name, error: String(error) });
      }
    }
    // The last upstream's own error, whatever it threw, or ours when every breaker was open.
    const failure: unknown = lastError ?? new ProviderError('transient', 'no_upstream_available', `every ${channel} upstream has an open circuit breaker`);
    throw failure;
  };
}
