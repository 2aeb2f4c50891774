import { Router, type RequestHandler } from 'express';
import { isId, newId, NotFoundError, toIso, ValidationError, type FieldError } from '@switchboard/domain';
import { enqueueEventRedelivery, type BulkJobAdder, type FanOutEventJob } from '@switchboard/queues';
import { compileQuerySchema, eventListQuerySchema, type EventListQuery } from '@switchboard/schemas';
import { createEventsRepository, createWebhookDeliveriesRepository, type Queryable, type SecretCipher } from '@switchboard/store';
import type { DependencyGuard } from '../http/dependency-guard';
import { callerOf } from '../http/request-context';
import { pageOf, readPageParams } from '../pagination/page-query';

export interface EventRouteDeps {
  db: Queryable;
  guard: DependencyGuard;
  /** Authentication and rate limit, as on the other /v1 routes. */
  auth: RequestHandler[];
  /** The event-fanout queue; a redelivery is a new fan-out of the event. */
  eventFanoutQueue: BulkJobAdder<FanOutEventJob>;
  /** The deliveries repository opens signing secrets; these routes never show them. */
  secrets: SecretCipher;
  clock?: () => Date;
}

/**
 * `/v1/events`: the account's events with where their deliveries stand (`delivery_status: failed` is a
 * dead letter), and redelivery, which sends the event again to every target under a new generation.
 */
export function createEventsRouter(deps: EventRouteDeps): Router {
  const router = Router();
  const events = createEventsRepository(deps.db);
  const deliveries = createWebhookDeliveriesRepository(deps.db, deps.secrets);
  const clock = deps.clock ?? (() => new Date());
  const filterErrors = compileQuerySchema(eventListQuerySchema);
  const idParam = (value: unknown): string => {
    if (!isId('evt', value)) throw new NotFoundError();
    return value;
  };

  router.get('/v1/events', ...deps.auth, async (req, res) => {
    const query = req.query as Record<string, unknown>;
    // Every problem of the query string in one 400: the filters' schema, then limit and cursor.
    const errors: FieldError[] = filterErrors(query);
    const page = readPageParams(query, 'evt', errors);
    if (errors.length > 0) throw new ValidationError(errors, 'The query string is invalid.');
    const { type, resource_id: resourceId } = query as EventListQuery;
    const rows = await deps.guard('store', () => events.list(callerOf(res).accountId, { ...page, type, resourceId, limit: page.limit + 1 }));
    res.json(pageOf(rows, page.limit));
  });

  router.get('/v1/events/:id', ...deps.auth, async (req, res) => {
    const event = await deps.guard('store', () => events.findForAccount(callerOf(res).accountId, idParam(req.params.id)));
    if (!event) throw new NotFoundError();
    const rows = await deps.guard('store', () => deliveries.forEvent(event.id));
    res.json({
      ...event,
      deliveries: rows.map((d) => ({
        id: d.id,
        target: d.endpoint_id ? 'endpoint' : 'callback_url',
        endpoint_id: d.endpoint_id,
        url: d.url,
        status: d.status,
        attempts: d.attempt_count,
        last_status_code: d.last_status_code,
        last_error: d.last_error,
        next_attempt_at: toIso(d.next_attempt_at),
        delivered_at: toIso(d.delivered_at),
        failed_at: toIso(d.failed_at),
      })),
    });
  });

  router.post('/v1/events/:id/redeliver', ...deps.auth, async (req, res) => {
    const event = await deps.guard('store', () => events.findForAccount(callerOf(res).accountId, idParam(req.params.id)));
    if (!event) throw new NotFoundError();
    await deps.guard('store', () => deliveries.resetForRedelivery(event.id, clock()));
    await deps.guard('redis', () => enqueueEventRedelivery(deps.eventFanoutQueue, event.id, newId('dlv').slice(4)));
    res.status(202).json({ event_id: event.id, status: 'redelivering' });
  });

  return router;
}
