import { isValidE164, MESSAGE_STATUSES, REQUESTED_CHANNELS, TRAFFIC_CLASSES, ValidationError, type FieldError } from '@switchboard/domain';
import type { MessageListFilter } from '@switchboard/store';
import { decodeCursor as decodeCursorOf, readPageParams } from '../pagination/page-query';

export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, encodeCursor } from '../pagination/page-query';

/** A `GET /v1/messages` cursor's message id, or null. */
export function decodeCursor(cursor: string): string | null {
  return decodeCursorOf(cursor, 'msg');
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
  const filter: Omit<MessageListFilter, 'limit' | 'beforeId'> = {};

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
  const trafficClass = single('traffic_class');
  if (trafficClass !== undefined) {
    if ((TRAFFIC_CLASSES as readonly string[]).includes(trafficClass)) filter.trafficClass = trafficClass;
    else errors.push({ field: 'query:traffic_class', message: `must be one of: ${TRAFFIC_CLASSES.join(', ')}` });
  }
  // An unencoded `+` in a query string decodes as a space; read it as the `+` the client meant.
  const recipient = single('recipient')?.replace(/^ /, '+');
  if (recipient !== undefined) {
    if (isValidE164(recipient)) filter.recipient = recipient;
    else errors.push({ field: 'query:recipient', message: 'must be an E.164 phone number' });
  }
  // `single` first, so that a repeated limit or cursor reads "must be given once".
  const page = readPageParams({ limit: single('limit'), cursor: single('cursor') }, 'msg', errors);
  if (errors.length > 0) throw new ValidationError(errors, 'The query string is invalid.');
  return { ...filter, ...page };
}
