import type { Logger } from '@switchboard/logger';
import { BREAKER_STATES, type UpstreamBreakerStore, type UpstreamDescription } from '@switchboard/shared-state';
import type { DispatcherMetrics } from '../metrics';

/**
 * Keeps /metrics' breaker gauges current from Redis, where another dispatcher may have opened or closed
 * a breaker while this one sent nothing, and keeps this dispatcher's upstream list published for the
 * gateway (docs/api.md#get-v1upstreams); publishing again each round covers a Redis that was down at
 * start-up or lost its data. Returns the stop function for shutdown.
 */
export function syncUpstreamState(deps: {
  descriptions: UpstreamDescription[];
  names: Array<{ channel: string; name: string }>;
  breakers: UpstreamBreakerStore;
  metrics: Pick<DispatcherMetrics, 'upstreamBreakerState'>;
  intervalMs: number;
  logger: Logger;
}): () => void {
  const refresh = async () => {
    await deps.breakers.publish(deps.descriptions);
    for (const { channel, name } of deps.names) {
      const record = await deps.breakers.read(name);
      deps.metrics.upstreamBreakerState.set({ channel, upstream: name }, BREAKER_STATES.indexOf(record.state));
    }
  };
  const run = () => void refresh().catch((error: unknown) => deps.logger.debug('upstream state not synced with redis', { error: String(error) }));
  run();
  const timer = setInterval(run, deps.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
