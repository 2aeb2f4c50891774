import { randomFillSync } from 'node:crypto';
import { encodeTime } from 'ulid';

/** Every public identifier is a prefix plus a ULID, so ids sort by creation time (docs/conventions.md#identifiers). */
export const ID_PREFIXES = ['msg', 'call', 'evt', 'inb', 'whk', 'tpl', 'agt', 'key', 'acc', 'num', 'att', 'dlv', 'sup', 'bat', 'usr'] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

const ULID_BODY = /^[0-9A-HJKMNP-TV-Z]{26}$/;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** Random bytes read 4 KiB at a time: 256 ids per read instead of `ulid`'s one read per character. */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

/** A ULID's 80 random bits as 16 Crockford characters; each byte's low 5 bits are uniform, as 32 divides 256. */
function randomPart(): string {
  if (poolAt + 16 > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  let text = '';
  for (let end = poolAt + 16; poolAt < end; poolAt += 1) text += CROCKFORD[pool[poolAt] & 31];
  return text;
}

/**
 * The random part comes from a pooled buffer: ulid's own generator calls crypto.getRandomValues once per
 * character, which was a tenth of the webhook worker's CPU (docs/performance.md#webhook-delivery-benchwebhooksmjs).
 */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${encodeTime(Date.now(), 10)}${randomPart()}`;
}

/** True when `value` is a well-formed id of that kind; anything else is answered as 404 by the API. */
export function isId(prefix: IdPrefix, value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(`${prefix}_`) && ULID_BODY.test(value.slice(prefix.length + 1));
}

/** Milliseconds encoded in a ULID-based id; used to build time-ordered cursors. */
export function idTimestamp(id: string): number {
  const body = id.slice(id.indexOf('_') + 1, id.indexOf('_') + 11);
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let ms = 0;
  for (const ch of body) ms = ms * 32 + alphabet.indexOf(ch);
  return ms;
}
