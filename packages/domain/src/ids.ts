import { ulid } from 'ulid';

/** Every public identifier is a prefix plus a ULID, so ids sort by creation time (docs/conventions.md#identifiers). */
export const ID_PREFIXES = ['msg', 'call', 'evt', 'inb', 'whk', 'tpl', 'agt', 'key', 'acc', 'num', 'att', 'dlv', 'sup', 'bat', 'usr'] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

const ULID_BODY = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${ulid()}`;
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
