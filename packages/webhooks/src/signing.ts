import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

/**
 * Standard Webhooks v1 signing (https://www.standardwebhooks.com/, docs/webhooks.md#envelope-and-headers). The HMAC key is the
 * base64-decoded part after `whsec_`; the signed content is `{id}.{timestamp}.{body}`.
 */
const SECRET_PREFIX = 'whsec_';

/** `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

function decodeWebhookSecret(secret: string): Buffer {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  if (key.length === 0) throw new Error('webhook secret is empty');
  return key;
}

/**
 * Decoded keys by secret, so that every attempt to one endpoint does not decode its secret again. Keyed
 * by the secret itself, so a rotated secret is a new entry; bounded, since secrets come and go.
 */
const decodedKeys = new Map<string, KeyObject>();
const DECODED_KEYS_KEPT = 1_000;

function hmacKey(secret: string): KeyObject {
  let key = decodedKeys.get(secret);
  if (!key) {
    key = createSecretKey(decodeWebhookSecret(secret));
    if (decodedKeys.size >= DECODED_KEYS_KEPT) decodedKeys.delete(decodedKeys.keys().next().value as string);
    decodedKeys.set(secret, key);
  }
  return key;
}

function signatureFor(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', hmacKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * The three headers for one attempt. Several secrets give several space-separated `v1,` signatures:
 * during the overlap after a rotation a receiver holding either secret verifies the delivery.
 */
export function signedHeaders(input: { id: string; timestampSeconds: number; body: string; secrets: readonly string[] }): SignedHeaders {
  if (input.secrets.length === 0) throw new Error('at least one secret is needed to sign');
  return {
    'webhook-id': input.id,
    'webhook-timestamp': String(input.timestampSeconds),
    'webhook-signature': input.secrets.map((s) => signatureFor(s, input.id, input.timestampSeconds, input.body)).join(' '),
  };
}
