import { createHmac, timingSafeEqual } from 'node:crypto';

const SIGNATURE_PATTERN = /^sha256=([0-9a-fA-F]{64})$/;

/**
 * Checks `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(app secret, raw body)>`.
 * The HMAC must be computed over the raw bytes as received: re-serialised JSON differs
 * (escaping of `/` and non-ASCII) and would never match.
 */
export function verifyChatSignature(appSecret: string, rawBody: Buffer, header: string | undefined): boolean {
  if (!appSecret || typeof header !== 'string') return false;
  const match = SIGNATURE_PATTERN.exec(header.trim());
  if (!match) return false;
  const received = Buffer.from(match[1].toLowerCase(), 'hex');
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return received.length === expected.length && timingSafeEqual(received, expected);
}
