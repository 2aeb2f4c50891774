import cluster from 'node:cluster';
import { mergeMetricSnapshots, type MetricSnapshot, type MetricsRegistry } from '@switchboard/runtime';
import { isClusterMessage, SNAPSHOT_TIMEOUT_MS, type ClusterMessage } from './cluster-messages';

/** What `/metrics` serves: the registry's text. */
export type MetricsScrape = () => Promise<string>;

/**
 * `/metrics` for one gateway process, or for all of them when it runs as a cluster worker
 * (docs/running.md#gateway-workers): the worker that receives the scrape collects its own registry (queue
 * depths are read from Redis then), asks the primary for the other workers' series and serves them merged,
 * so a scrape sees the whole gateway whichever worker it reaches. A worker also answers the others' scrapes.
 */
export function createMetricsScrape(metrics: MetricsRegistry): MetricsScrape {
  if (!cluster.isWorker || !process.send) return () => metrics.collect();
  const send = (message: ClusterMessage) => process.send?.(message);
  const waiting = new Map<number, (snapshots: MetricSnapshot[][]) => void>();
  let scrapes = 0;
  process.on('message', (message: unknown) => {
    if (!isClusterMessage(message)) return;
    if (message.sb === 'metrics-snapshot-wanted') send({ sb: 'metrics-snapshot', scrape: message.scrape, snapshot: metrics.snapshot() });
    if (message.sb === 'metrics-snapshots') waiting.get(message.scrape)?.(message.snapshots);
  });
  const othersSnapshots = (): Promise<MetricSnapshot[][]> =>
    new Promise((resolve) => {
      const scrape = (scrapes += 1);
      // The primary answers within its own timeout; this one only covers a primary that is gone.
      const timer = setTimeout(() => settle([]), SNAPSHOT_TIMEOUT_MS + 500);
      const settle = (snapshots: MetricSnapshot[][]) => {
        clearTimeout(timer);
        waiting.delete(scrape);
        resolve(snapshots);
      };
      waiting.set(scrape, settle);
      send({ sb: 'metrics-wanted', scrape });
    });
  return async () => {
    const [others] = await Promise.all([othersSnapshots(), metrics.collect()]);
    return mergeMetricSnapshots([metrics.snapshot(), ...others]);
  };
}
