import { MetricsRegistry, type Counter } from '@switchboard/runtime';

export interface DispatcherMetrics {
  registry: MetricsRegistry;
  /** outcome: accepted, fallback, failed, retry, throttled, abandoned, expired. */
  sends: Counter;
  /** result: matched, unmatched (will retry), dropped. */
  receipts: Counter;
}

export function createDispatcherMetrics(registry = new MetricsRegistry()): DispatcherMetrics {
  return {
    registry,
    sends: registry.counter('switchboard_dispatcher_sends_total', 'Send decisions by channel and outcome.'),
    receipts: registry.counter('switchboard_dispatcher_receipts_total', 'Upstream receipts by channel, status and match result.'),
  };
}
