import cluster from 'node:cluster';
import { isClusterMessage } from './cluster-messages';

/**
 * True while this process is a cluster worker whose gateway is not fully up: `/readyz` then answers 503, so that a
 * readiness check (devstack, a load balancer, a bench) waits for every worker, not just the first one to listen
 * (docs/running.md#gateway-workers). Always false for a single process.
 */
export function createClusterStarting(): () => boolean {
  if (!cluster.isWorker) return () => false;
  let starting = true;
  process.on('message', (message: unknown) => {
    if (isClusterMessage(message) && message.sb === 'cluster-up') starting = false;
  });
  return () => starting;
}
