import type { MetricSnapshot } from '@switchboard/runtime';

/**
 * What the gateway's cluster primary and its workers say to each other over the IPC channel (docs/running.md#gateway-workers).
 * Every message carries `sb`, so that anything else on the channel is ignored.
 */
export type ClusterMessage =
  /** worker → primary: a `/metrics` scrape arrived; ask every other worker for its series. */
  | { sb: 'metrics-wanted'; scrape: number }
  /** primary → each other worker: send your series for this scrape. */
  | { sb: 'metrics-snapshot-wanted'; scrape: number }
  /** worker → primary: my series for this scrape. */
  | { sb: 'metrics-snapshot'; scrape: number; snapshot: MetricSnapshot[] }
  /** primary → the scraping worker: the other workers' series (those that answered in time). */
  | { sb: 'metrics-snapshots'; scrape: number; snapshots: MetricSnapshot[][] }
  /** primary → worker: every worker listens; `/readyz` may say ready (a worker forked again gets it once it listens). */
  | { sb: 'cluster-up' };

export function isClusterMessage(value: unknown): value is ClusterMessage {
  return typeof value === 'object' && value !== null && typeof (value as { sb?: unknown }).sb === 'string';
}

/** How long a scrape waits for the other workers; one that is busy or stuck must not make `/metrics` hang. */
export const SNAPSHOT_TIMEOUT_MS = 2_000;
