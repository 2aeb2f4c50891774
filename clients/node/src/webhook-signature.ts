import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookVerificationError } from './errors';
import type { WebhookEvent } from './types';

/**
 * Standard Webhooks v1, as the gateway signs deliveries (docs/webhooks.md#verifying-deliveries):
 * `webhook-signature` holds space-separated `v1,<base64 HMAC-SHA256>` of `{webhook-id}.{webhook-timestamp}.{raw body}`,
 * keyed with the base64 part of a `whsec_` secret.
 */

/** What `verify` accepts as headers: a fetch `Headers`, Node's `req.headers`, or any plain record. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far the timestamp may be from now, in seconds. @defaultValue 300 */
  toleranceSeconds?: number;
  /** The current time in milliseconds since the epoch. @defaultValue Date.now() */
  now?: number;
}

const DEFAULT_TOLERANCE_SECONDS = 300;

/** The `v1,<base64>` signature of one delivery: what the sender puts in `webhook-signature`. */
export function sign(secret: string, id: string, timestampSeconds: number, payload: string | Uint8Array): string {
  const mac = createHmac('sha256', secretKey(secret));
  mac.update(`${id}.${timestampSeconds}.`);
  mac.update(typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload);
  return `v1,${mac.digest('base64')}`;
}

/**
 * The delivered event when one `v1` signature matches and the timestamp is within the tolerance; throws
 * WebhookVerificationError otherwise. `payload` must be the raw body as received, before any JSON parsing.
 */
export function verify(payload: string | Uint8Array, headers: WebhookHeaders, secret: string, options: VerifyOptions = {}): WebhookEvent {
  if (typeof payload !== 'string' && !(payload instanceof Uint8Array)) {
    // A re-serialised object rarely has the sender's exact bytes, so its signature could never match.
    throw new WebhookVerificationError('payload must be the raw request body (a string or Buffer), not parsed JSON');
  }
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not an integer');
  const seconds = Number(timestamp);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = (options.now ?? Date.now()) / 1000;
  if (Math.abs(nowSeconds - seconds) > tolerance) {
    throw new WebhookVerificationError(`webhook-timestamp is more than ${tolerance} seconds away from now`);
  }
  const expected = Buffer.from(sign(secret, id, seconds, payload), 'utf8');
  // After a secret rotation the header carries one signature per secret (`v1,a v1,b`): any one is enough.
  const matched = signatures.split(' ').some((candidate) => {
    const given = Buffer.from(candidate, 'utf8');
    return candidate.startsWith('v1,') && given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matched) throw new WebhookVerificationError('no v1 signature matches');
  const text = typeof payload === 'string' ? payload : Buffer.from(payload).toString('utf8');
  try {
    return JSON.parse(text) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('the signed body is not JSON');
  }
}

function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  if (!encoded || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) {
    throw new WebhookVerificationError('the secret is not whsec_ followed by base64');
  }
  return Buffer.from(encoded, 'base64');
}

function header(headers: WebhookHeaders, name: string): string {
  let value: string | string[] | null | undefined;
  if (typeof (headers as Headers).get === 'function' && typeof (headers as Headers).forEach === 'function') {
    value = (headers as Headers).get(name);
  } else {
    const record = headers as Record<string, string | string[] | undefined>;
    const key = Object.keys(record).find((k) => k.toLowerCase() === name);
    value = key === undefined ? undefined : record[key];
  }
  if (Array.isArray(value)) value = value.join(' ');
  if (value === undefined || value === null || value === '') throw new WebhookVerificationError(`missing header ${name}`);
  return value;
}
