import { isId, isValidE164, MESSAGE_STATUSES, REQUESTED_CHANNELS, ValidationError, type FieldError } from '@switchboard/domain';
import type { MessageListFilter } from '@switchboard/store';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** The cursor is opaque to clients; it is the base64url of the last id of the page (contract §1). */
export function encodeCursor(lastId: string): string {
  return Buffer.from(lastId, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(cursor)) return null;
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  return isId('msg', id) ? id : null;
}

/**
 * `GET /v1/messages` query → store filter; every problem is a 400 naming `query:<name>`.
 * Unknown parameters are ignored, as is usual for GET.
 */
export function parseListQuery(query: Record<string, unknown>): MessageListFilter {
  const errors: FieldError[] = [];
  const single = (name: string): string | undefined => {
    const value = query[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') {
      errors.push({ field: `query:${name}`, message: 'must be given once' });
      return undefined;
    }
    return value;
  };
  const filter: MessageListFilter = { limit: DEFAULT_PAGE_SIZE };

  const status = single('status');
  if (status !== undefined) {
    if ((MESSAGE_STATUSES as readonly string[]).includes(status)) filter.status = status;
    else errors.push({ field: 'query:status', message: `must be one of: ${MESSAGE_STATUSES.join(', ')}` });
  }
  const channel = single('channel');
  if (channel !== undefined) {
    if ((REQUESTED_CHANNELS as readonly string[]).includes(channel)) filter.channel = channel;
    else errors.push({ field: 'query:channel', message: `must be one of: ${REQUESTED_CHANNELS.join(', ')}` });
  }
  // An unencoded `+` in a query string decodes as a space; read it as the `+` the client meant.
  const recipient = single('recipient')?.replace(/^ /, '+');
  if (recipient !== undefined) {
    if (isValidE164(recipient)) filter.recipient = recipient;
    else errors.push({ field: 'query:recipient', message: 'must be an E.164 phone number' });
  }
  const limit = single('limit');
  if (limit !== undefined) {
    const n = /^\d{1,3}$/.test(limit) ? Number(limit) : NaN;
    if (n >= 1 && n <= MAX_PAGE_SIZE) filter.limit = n;
    else errors.push({ field: 'query:limit', message: `must be an integer from 1 to ${MAX_PAGE_SIZE}` });
  }
  const cursor = single('cursor');
  if (cursor !== undefined) {
    const beforeId = decodeCursor(cursor);
    if (beforeId) filter.beforeId = beforeId;
    else errors.push({ field: 'query:cursor', message: 'is not a cursor returned by this API' });
  }
  if (errors.length > 0) throw new ValidationError(errors, 'The query string is invalid.');
  return filter;
}
