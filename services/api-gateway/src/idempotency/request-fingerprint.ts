import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every level, so that the same request sent with different key order
 * or whitespace has the same fingerprint. The body's depth is bounded before this runs.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`;
}

/** sha256 of the canonical body: what "the same body" means for an Idempotency-Key (docs/api.md#idempotency-key). */
export function requestFingerprint(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}
