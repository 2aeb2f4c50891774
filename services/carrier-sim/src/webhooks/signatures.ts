import { createHmac } from 'node:crypto';

/**
 * Meta's webhook signature: `sha256=` + hex HMAC-SHA256 of the raw request body keyed with the
 * app secret (https://developers.facebook.com/docs/graph-api/webhooks/getting-started#validate-payloads).
 */
export function hubSignature256(appSecret: string, rawBody: string | Buffer): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

/**
 * RBM's `X-Goog-Signature`: base64 HMAC-SHA512 keyed with the webhook clientToken, computed over
 * the bytes that `message.data` carries (Google's sample verifier base64-decodes `message.data`
 * and hashes the result), i.e. over the exact JSON text the simulator base64-encoded.
 */
export function googSignature(clientToken: string, messageData: Buffer): string {
  return createHmac('sha512', clientToken).update(messageData).digest('base64');
}
