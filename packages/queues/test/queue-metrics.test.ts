import { jobLatencyRecorder, reportQueueDepths } from '@switchboard/queues';
import { MetricsRegistry } from '@switchboard/runtime';

describe('queue metrics', () => {
  it('report depth per state (waiting = wait + prioritized) and the age of the first job of each state', async () => {
    const registry = new MetricsRegistry();
    const now = 1_000_000;
    const queue = {
      name: 'message-send',
      getJobCounts: async () => ({ wait: 2, prioritized: 1, delayed: 4, active: 1, failed: 0 }),
      getJobs: async (states: string[]) => (states.includes('wait') ? [{ timestamp: now - 90_000 }] : []),
    };
    reportQueueDepths(registry, [queue as never], () => now);
    const text = await registry.collect();
    expect(text).toContain('switchboard_queue_jobs{queue="message-send",state="waiting"} 3');
    expect(text).toContain('switchboard_queue_jobs{queue="message-send",state="delayed"} 4');
    expect(text).toContain('switchboard_queue_jobs{queue="message-send",state="failed"} 0');
    expect(text).toContain('switchboard_queue_oldest_job_age_seconds{queue="message-send",state="waiting"} 90');
    expect(text).toContain('switchboard_queue_oldest_job_age_seconds{queue="message-send",state="active"} 0');
  });

  it('report a queue opened once per partition as one series: the depths added, the oldest job of all', async () => {
    const registry = new MetricsRegistry();
    const now = 1_000_000;
    const partition = (waiting: number, firstAt: number) => ({
      name: 'message-send',
      getJobCounts: async () => ({ wait: waiting, prioritized: 0, delayed: 0, active: 0, failed: 0 }),
      getJobs: async (states: string[]) => (states.includes('wait') ? [{ timestamp: firstAt }] : []),
    });
    reportQueueDepths(registry, [partition(2, now - 30_000), partition(5, now - 120_000), partition(1, now - 10_000)] as never[], () => now);
    const text = await registry.collect();
    expect(text).toContain('switchboard_queue_jobs{queue="message-send",state="waiting"} 8');
    expect(text).toContain('switchboard_queue_oldest_job_age_seconds{queue="message-send",state="waiting"} 120');
  });

  it('record enqueue-to-processed without the intended delay', () => {
    const registry = new MetricsRegistry();
    const record = jobLatencyRecorder(registry);
    record('webhook-delivery', { timestamp: 0, finishedOn: 65_000, opts: { delay: 60_000 } }, 'completed');
    expect(registry.render()).toContain('switchboard_job_latency_seconds_sum{outcome="completed",queue="webhook-delivery"} 5');
  });
});
