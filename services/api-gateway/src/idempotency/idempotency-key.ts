import { ValidationError } from '@switchboard/domain';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * The request's Idempotency-Key, lower-cased, or null when it sent none. Contract §3: anything but a
 * UUID v4 is 400 `invalid_idempotency_key`.
 */
export function readIdempotencyKey(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  if (typeof header !== 'string' || !UUID_V4.test(header)) {
    throw new ValidationError(
      [{ field: 'header:Idempotency-Key', message: 'must be a UUID v4' }],
      'The Idempotency-Key header must be a UUID v4.',
      'invalid_idempotency_key',
    );
  }
  return header.toLowerCase();
}
