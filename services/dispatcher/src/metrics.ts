import { MetricsRegistry, type Counter, type Gauge, type Histogram } from '@switchboard/runtime';

export interface DispatcherMetrics {
  registry: MetricsRegistry;
  /** outcome: accepted, fallback, failed, retry, throttled, abandoned, expired. */
  sends: Counter;
  /** result: matched, unmatched (will retry), dropped. */
  receipts: Counter;
  /** Per upstream (labels channel, upstream): calls made, calls that failed or were slow, breaker state. */
  upstreamCalls: Counter;
  upstreamFailures: Counter;
  /** Seconds per send call, labels channel, upstream, outcome (ok, error: transient, rejected: permanent). */
  upstreamLatency: Histogram;
  /** 0 closed, 1 half-open, 2 open (docs/routing.md#several-upstreams-per-channel). */
  upstreamBreakerState: Gauge;
}

export function createDispatcherMetrics(registry = new MetricsRegistry()): DispatcherMetrics {
  return {
    registry,
    sends: registry.counter('switchboard_dispatcher_sends_total', 'Send decisions by channel and outcome.'),
    receipts: registry.counter('switchboard_dispatcher_receipts_total', 'Upstream receipts by channel, status and match result.'),
    upstreamCalls: registry.counter('switchboard_upstream_calls_total', 'Send calls made to each upstream by this process.'),
    upstreamFailures: registry.counter('switchboard_upstream_failures_total', 'Send calls to each upstream that failed transiently or were slow.'),
    upstreamLatency: registry.histogram('switchboard_upstream_call_seconds', 'Send call latency per upstream and outcome (ok, error, rejected).'),
    upstreamBreakerState: registry.gauge('switchboard_upstream_breaker_state', 'Circuit breaker per upstream: 0 closed, 1 half-open, 2 open.'),
  };
}
