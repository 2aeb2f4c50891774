import { createHmac, timingSafeEqual } from 'node:crypto';
import { isRecord } from '../http/upstream-response';

function matches(clientToken: string, signed: Buffer, received: Buffer): boolean {
  const expected = createHmac('sha512', clientToken).update(signed).digest();
  return received.length === expected.length && timingSafeEqual(received, expected);
}

/**
 * Checks `X-Goog-Signature: <base64 HMAC-SHA512(clientToken, payload)>` of an RBM Pub/Sub push.
 *
 * Google's RBM webhook guide signs the base64-decoded `message.data` bytes; our wire notes
 * phrase it as "message.data as sent", which can also be read as the base64 text. Both are
 * accepted: either way only a holder of the client token can produce a match.
 * https://developers.google.com/business-communications/rcs-business-messaging/guides/integrate/webhooks
 */
export function verifyRbmSignature(clientToken: string, body: unknown, header: string | undefined): boolean {
  if (!clientToken || typeof header !== 'string' || header.trim() === '') return false;
  if (!isRecord(body) || !isRecord(body.message) || typeof body.message.data !== 'string') return false;
  const data = body.message.data;
  const received = Buffer.from(header.trim(), 'base64');
  if (received.length !== 64) return false;
  return matches(clientToken, Buffer.from(data, 'base64'), received) || matches(clientToken, Buffer.from(data, 'utf8'), received);
}
