import { Router } from 'express';
import { ValidationError, type FieldError } from '@switchboard/domain';
import type { MessageReadsRepository } from '@switchboard/store';
import type { DependencyGuard } from '../http/dependency-guard';
import { callerOf } from '../http/request-context';
import { encodeCursor, parseListQuery } from '../messages/list-query';

/** An ISO 8601 time with a zone (what `<input type="datetime-local">` gives plus the page's offset), or a 400. */
function timeParam(query: Record<string, unknown>, name: string, errors: FieldError[]): Date | undefined {
  const value = query[name];
  if (value === undefined || value === '') return undefined;
  const at = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/.test(value) ? new Date(value) : null;
  if (!at || Number.isNaN(at.getTime())) {
    errors.push({ field: `query:${name}`, message: 'must be an ISO 8601 time with a zone, such as 2026-11-23T09:00:00Z' });
    return undefined;
  }
  return at;
}

/**
 * `GET /console/api/messages`: the /v1 list (status, channel, recipient, cursor, limit) plus a time range
 * (`from` inclusive, `to` exclusive), which the log page filters on (docs/console.md#pages).
 */
export function createConsoleMessagesRouter({ reads, guard }: { reads: MessageReadsRepository; guard: DependencyGuard }): Router {
  const router = Router();
  router.get('/messages', async (req, res) => {
    const query = req.query as Record<string, unknown>;
    const errors: FieldError[] = [];
    const createdFrom = timeParam(query, 'from', errors);
    const createdTo = timeParam(query, 'to', errors);
    let filter: ReturnType<typeof parseListQuery> | undefined;
    try {
      filter = parseListQuery(query);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      errors.push(...(error.errors ?? []));
    }
    if (errors.length > 0 || !filter) throw new ValidationError(errors, 'The query string is invalid.');
    const limit = filter.limit;
    const rows = await guard('store', () => reads.list(callerOf(res).accountId, { ...filter, createdFrom, createdTo, limit: limit + 1 }));
    const page = rows.slice(0, limit);
    res.json({ data: page, next_cursor: rows.length > limit ? encodeCursor(page[page.length - 1].id) : null });
  });
  return router;
}
