import { availableParallelism } from 'node:os';
import type { EnvReader } from '@switchboard/runtime';

/** More workers than this is a typo, not a deployment: each one is a whole gateway (about 100 MB, its own pools). */
const MAX_WORKERS = 64;

/** Parses GATEWAY_WORKERS: a count, or `auto` for one per core; throws saying what is wrong. */
export function parseGatewayWorkers(text: string, cores: number = availableParallelism()): number {
  const value = text.trim().toLowerCase();
  if (value === 'auto') return Math.max(1, Math.min(cores, MAX_WORKERS));
  if (!/^\d+$/.test(value)) throw new Error(`"${text}" is neither a number nor auto`);
  const workers = Number(value);
  if (workers < 1 || workers > MAX_WORKERS) throw new Error(`must be between 1 and ${MAX_WORKERS}, got ${workers}`);
  return workers;
}

/**
 * GATEWAY_WORKERS: how many gateway processes serve the one port (docs/running.md#gateway-workers).
 * `1` is the plain single process, as in one process per pod on Kubernetes; `auto` is one per core the
 * machine (or the container's CPU set) offers. @defaultValue 1
 */
export function readGatewayWorkers(r: EnvReader): number {
  if (r.optionalString('GATEWAY_WORKERS') === undefined) return 1;
  return r.parsed('GATEWAY_WORKERS', (text) => parseGatewayWorkers(text), '1 to 64, or auto (one per core)');
}
