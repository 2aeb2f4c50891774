import { Router, type RequestHandler } from 'express';
import { isId, NotFoundError, toIso, ValidationError, type FieldError } from '@switchboard/domain';
import { compileQuerySchema, createSuppressionRequestValidator, suppressionListQuerySchema, type SuppressionListQuery } from '@switchboard/schemas';
import type { SuppressionCache } from '@switchboard/shared-state';
import { createSuppressionsRepository, type Queryable, type SuppressionRow } from '@switchboard/store';
import type { DependencyGuard } from '../http/dependency-guard';
import { callerOf } from '../http/request-context';
import { pageOf, readPageParams } from '../pagination/page-query';

export interface SuppressionsRouteDeps {
  db: Queryable;
  guard: DependencyGuard;
  /** Authentication, rate limit and `messages:read`. */
  authenticateRead: RequestHandler[];
  /** Authentication, rate limit and `messages:write`. */
  authenticateWrite: RequestHandler[];
  jsonBody: RequestHandler[];
  /** The Redis copy the send path checks; written after each change of the table. */
  cache: Pick<SuppressionCache, 'add' | 'remove'>;
  clock?: () => Date;
}

function suppressionView(row: SuppressionRow) {
  return { id: row.id, recipient: row.recipient, channel: row.channel, source: row.source, created_at: toIso(row.created_at) };
}

/**
 * `/v1/suppressions` (docs/routing.md#opt-out): the account's own list, whoever added an entry (the
 * customer's STOP or this API). Each write changes PostgreSQL first and then the Redis copy, so a failed
 * Redis write is repaired by repeating the request.
 */
export function createSuppressionsRouter(deps: SuppressionsRouteDeps): Router {
  const router = Router();
  const suppressions = createSuppressionsRepository(deps.db);
  const validate = createSuppressionRequestValidator();
  const filterErrors = compileQuerySchema(suppressionListQuerySchema);
  const clock = deps.clock ?? (() => new Date());

  router.get('/v1/suppressions', ...deps.authenticateRead, async (req, res) => {
    const query = { ...(req.query as Record<string, unknown>) };
    // An unencoded `+` in a query string decodes as a space; read it as the `+` the client meant.
    if (typeof query.recipient === 'string') query.recipient = query.recipient.replace(/^ /, '+');
    const errors: FieldError[] = filterErrors(query);
    const page = readPageParams(query, 'sup', errors);
    if (errors.length > 0) throw new ValidationError(errors, 'The query string is invalid.');
    const { channel, recipient } = query as SuppressionListQuery;
    const rows = await deps.guard('store', () => suppressions.list(callerOf(res).accountId, { ...page, channel, recipient, limit: page.limit + 1 }));
    res.json(pageOf(rows.map(suppressionView), page.limit));
  });

  router.post('/v1/suppressions', ...deps.authenticateWrite, ...deps.jsonBody, async (req, res) => {
    const { accountId } = callerOf(res);
    const input = validate(req.body);
    const { row, created } = await deps.guard('store', () => suppressions.add({ accountId, ...input, source: 'api', at: clock() }));
    await deps.guard('redis', () => deps.cache.add({ accountId, channel: row.channel, recipient: row.recipient }));
    res
      .status(created ? 201 : 200)
      .location(`/v1/suppressions/${row.id}`)
      .json(suppressionView(row));
  });

  router.delete('/v1/suppressions/:id', ...deps.authenticateWrite, async (req, res) => {
    const { accountId } = callerOf(res);
    const id = req.params.id;
    if (!isId('sup', id)) throw new NotFoundError();
    const removed = await deps.guard('store', () => suppressions.removeById(accountId, id));
    if (!removed) throw new NotFoundError();
    await deps.guard('redis', () => deps.cache.remove({ accountId, channel: removed.channel, recipient: removed.recipient }));
    res.status(204).end();
  });
  return router;
}
