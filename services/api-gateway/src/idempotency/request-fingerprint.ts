import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every level, so that the same request sent with different key order
 * or whitespace has the same fingerprint. The body's depth is bounded before this runs.
 *
 * Written as plain loops appending to one string: a 1,000-item batch body is fingerprinted on every
 * request with an Idempotency-Key, and the map/filter/join version spent most of its time building
 * throw-away arrays (docs/performance/batch.md#batch-accept-benchbatchmjs). The output is the same byte for byte.
 */
/** Quoted field names: the same few dozen recur in every item; bounded, as metadata keys are the client's. */
const quotedKeys = new Map<string, string>();
function quoted(key: string): string {
  let q = quotedKeys.get(key);
  if (q === undefined) {
    q = JSON.stringify(key);
    if (quotedKeys.size < 1024) quotedKeys.set(key, q);
  }
  return q;
}

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return out + ']';
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  let first = true;
  for (const k of keys) {
    const v = record[k];
    if (v === undefined) continue;
    out += (first ? '' : ',') + quoted(k) + ':' + canonicalJson(v);
    first = false;
  }
  return out + '}';
}

/** sha256 of the canonical body: what "the same body" means for an Idempotency-Key (docs/api.md#idempotency-key). */
export function requestFingerprint(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}
