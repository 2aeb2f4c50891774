import { mergeMetricSnapshots, MetricsRegistry } from '../src/metrics';

function workerRegistry(requests: number, latencies: number[], depth: number): MetricsRegistry {
  const registry = new MetricsRegistry();
  registry.counter('http_requests_total', 'Requests.').inc({ route: '/v1/messages', status: '202' }, requests);
  const latency = registry.histogram('http_request_duration_seconds', 'Latency.', [0.01, 0.1]);
  for (const seconds of latencies) latency.observe({ route: '/v1/messages' }, seconds);
  registry.gauge('switchboard_queue_jobs', 'Depth.').set({ queue: 'message-send' }, depth);
  return registry;
}

describe('mergeMetricSnapshots', () => {
  it('sums counters and histograms over processes and keeps the first snapshot’s gauge', () => {
    const text = mergeMetricSnapshots([workerRegistry(3, [0.005], 7).snapshot(), workerRegistry(2, [0.05, 0.5], 6).snapshot()]);
    expect(text).toContain('http_requests_total{route="/v1/messages",status="202"} 5');
    expect(text).toContain('http_request_duration_seconds_bucket{route="/v1/messages",le="0.01"} 1');
    expect(text).toContain('http_request_duration_seconds_bucket{route="/v1/messages",le="0.1"} 2');
    expect(text).toContain('http_request_duration_seconds_bucket{route="/v1/messages",le="+Inf"} 3');
    expect(text).toContain('http_request_duration_seconds_sum{route="/v1/messages"} 0.555');
    expect(text).toContain('switchboard_queue_jobs{queue="message-send"} 7');
    expect(text.match(/# TYPE http_requests_total counter/g)).toHaveLength(1);
  });

  it('renders one process alone exactly as its own registry does', () => {
    const registry = workerRegistry(4, [0.02], 1);
    expect(mergeMetricSnapshots([registry.snapshot()])).toBe(registry.render());
  });
});
