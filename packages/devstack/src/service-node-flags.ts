import type { ServiceName } from './service-name';

/**
 * V8 heap flags a service is started with, here as in the images (`Dockerfile`, docker-compose) and the Helm
 * chart, so a bench or a test measures the memory a deployment has (docs/operations.md#memory):
 * - a young generation of 4 MB semi-spaces instead of up to 16 MB, all of it resident under load;
 * - an old generation capped at 256 MB: under a cap below 2 GB, V8 lets the old generation grow by at most
 *   1.3× (256 MB) to 1.6× (1 GB) of what survived the last full collection before it runs the next one,
 *   instead of 4× under the default cap (a quarter of the machine's memory, up to 4 GB); that growth was the
 *   garbage kept resident under load.
 * Each service gets what it was measured to gain from at no CPU cost (docs/performance/memory.md#memory): the
 * dispatcher both; the gateway the old-generation cap and 8 MB semi-spaces: with 4 MB its CPU per accepted request
 * rose by about a quarter (more of each request's objects outlive a young collection), while 8 MB kept its peak
 * under a 1,000-item batch load at 134–139 MB instead of 146–153 for about a tenth more CPU per batch; webhook-delivery
 * (under 150 MB without them, and slower with either) and the voice orchestrator (not measured) neither. The
 * carrier simulator gets both, its old generation capped at 128 MB: what it owes its receivers is bounded
 * (receipt_backlog_max, docs/sandbox.md#behaviour-at-run-time), and its largest live state, a full send log of 100,000 records, is about 70 MB.
 */
export const SERVICE_NODE_FLAGS: Readonly<Record<ServiceName, readonly string[]>> = {
  dispatcher: ['--max-semi-space-size=4', '--max-old-space-size=256'],
  'carrier-sim': ['--max-semi-space-size=4', '--max-old-space-size=128'],
  'api-gateway': ['--max-semi-space-size=8', '--max-old-space-size=256'],
  'webhook-delivery': [],
  'voice-orchestrator': [],
};
