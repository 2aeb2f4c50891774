import type { FieldError } from '@switchboard/domain';
import type { JsonSchema } from './json-schema';

/** How far ahead `send_at` may be (docs/messages.md#scheduled-sends). */
export const SEND_AT_MAX_AHEAD_DAYS = 30;
const MAX_AHEAD_MS = SEND_AT_MAX_AHEAD_DAYS * 24 * 3600 * 1000;

export const sendAtSchema: JsonSchema = {
  type: 'string',
  format: 'date-time',
  maxLength: 64,
  description: `ISO 8601 time with offset; the message waits as \`scheduled\` until then. At most ${SEND_AT_MAX_AHEAD_DAYS} days ahead; a past time sends now.`,
};

/**
 * The rule a schema cannot say: at most 30 days from now. The format itself (with its offset) is the
 * schema's job; a string that passed it but names no real date (February 30th) is reported here too.
 */
export function sendAtErrors(value: unknown, pointer: string, now: number): FieldError[] {
  if (typeof value !== 'string') return [];
  const at = Date.parse(value);
  if (Number.isNaN(at)) return [{ field: pointer, message: 'must be an ISO 8601 date-time' }];
  if (at - now > MAX_AHEAD_MS) return [{ field: pointer, message: `must be at most ${SEND_AT_MAX_AHEAD_DAYS} days ahead` }];
  return [];
}

/** Milliseconds from `now` until `send_at`; 0 without one or for a past time. */
export function sendAtDelayMs(sendAt: string | undefined, now: number): number {
  if (sendAt === undefined) return 0;
  return Math.max(0, Date.parse(sendAt) - now);
}
