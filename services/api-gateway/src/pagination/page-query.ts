import { isId, ValidationError, type FieldError, type IdPrefix } from '@switchboard/domain';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface PageQuery {
  limit: number;
  beforeId?: string;
}

/** The cursor is opaque to clients; it is the base64url of the last id of the page (docs/conventions.md#pagination). */
export function encodeCursor(lastId: string): string {
  return Buffer.from(lastId, 'utf8').toString('base64url');
}

/** The id a cursor stands for, or null when it is not a cursor over ids carrying `prefix`. */
export function decodeCursor(cursor: unknown, prefix: IdPrefix): string | null {
  if (typeof cursor !== 'string' || !/^[A-Za-z0-9_-]{1,128}$/.test(cursor)) return null;
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  return isId(prefix, id) ? id : null;
}

/**
 * Reads `limit` (1 to {@link MAX_PAGE_SIZE}, @defaultValue {@link DEFAULT_PAGE_SIZE}) and `cursor` as given,
 * pushing each problem onto `errors` as `query:<name>` so that a caller with more parameters can answer
 * every problem in one 400.
 */
export function readPageParams(params: { limit?: unknown; cursor?: unknown }, prefix: IdPrefix, errors: FieldError[]): PageQuery {
  const page: PageQuery = { limit: DEFAULT_PAGE_SIZE };
  const { limit, cursor } = params;
  if (limit !== undefined) {
    const n = typeof limit === 'string' && /^\d{1,3}$/.test(limit) ? Number(limit) : NaN;
    if (n >= 1 && n <= MAX_PAGE_SIZE) page.limit = n;
    else errors.push({ field: 'query:limit', message: `must be an integer from 1 to ${MAX_PAGE_SIZE}` });
  }
  if (cursor !== undefined) {
    const beforeId = decodeCursor(cursor, prefix);
    if (beforeId) page.beforeId = beforeId;
    else errors.push({ field: 'query:cursor', message: 'is not a cursor returned by this API' });
  }
  return page;
}

/** `limit` and `cursor` of a collection whose ids carry `prefix` (docs/conventions.md#pagination); a problem is a 400. */
export function parsePageQuery(query: Record<string, unknown>, prefix: IdPrefix): PageQuery {
  const errors: FieldError[] = [];
  const page = readPageParams(query, prefix, errors);
  if (errors.length > 0) throw new ValidationError(errors, 'The query string is invalid.');
  return page;
}

/** Turns the rows of a `limit + 1` query into a page: the extra row tells whether another page exists. */
export function pageOf<T extends { id: string }>(rows: T[], limit: number): { data: T[]; next_cursor: string | null } {
  const data = rows.slice(0, limit);
  return { data, next_cursor: rows.length > limit ? encodeCursor(data[data.length - 1].id) : null };
}
