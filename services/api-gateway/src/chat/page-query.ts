import { isId, ValidationError, type FieldError, type IdPrefix } from '@switchboard/domain';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../messages/list-query';

export interface PageQuery {
  limit: number;
  beforeId?: string;
}

/**
 * `limit` and `cursor` of a collection whose ids carry `prefix` (contract §1). The cursor is the
 * base64url of the last id of the previous page, as on `GET /v1/messages`.
 */
export function parsePageQuery(query: Record<string, unknown>, prefix: IdPrefix): PageQuery {
  const errors: FieldError[] = [];
  const page: PageQuery = { limit: DEFAULT_PAGE_SIZE };
  const { limit, cursor } = query;
  if (limit !== undefined) {
    const n = typeof limit === 'string' && /^\d{1,3}$/.test(limit) ? Number(limit) : NaN;
    if (n >= 1 && n <= MAX_PAGE_SIZE) page.limit = n;
    else errors.push({ field: 'query:limit', message: `must be an integer from 1 to ${MAX_PAGE_SIZE}` });
  }
  if (cursor !== undefined) {
    const id = typeof cursor === 'string' && /^[A-Za-z0-9_-]{1,128}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
    if (isId(prefix, id)) page.beforeId = id;
    else errors.push({ field: 'query:cursor', message: 'is not a cursor returned by this API' });
  }
  if (errors.length > 0) throw new ValidationError(errors, 'The query string is invalid.');
  return page;
}
