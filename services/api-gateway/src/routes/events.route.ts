import { Router, type RequestHandler } from 'express';
import { isId, newId, NotFoundError, toIso, ValidationError, type FieldError } from '@switchboard/domain';
import { enqueueEventRedelivery, type BulkJobAdder, type FanOutEventJob } from '@switchboard/queues';
import { createEventsRepository, createWebhookDeliveriesRepository, type Queryable } from '@switchboard/store';
import { EVENT_TYPES } from '@switchboard/webhooks';
import type { DependencyGuard } from '../http/dependency-guard';
import { callerOf } from '../http/request-context';
import { pageOf, parsePageQuery } from '../pagination/page-query';

export interface EventRouteDeps {
  db: Queryable;
  guard: DependencyGuard;
  /** Authentication and rate limit, as on the other /v1 routes. */
  auth: RequestHandler[];
  /** The event-fanout queue; a redelivery is a new fan-out of the event. */
  eventFanoutQueue: BulkJobAdder<FanOutEventJob>;
  clock?: () => Date;
}

const RESOURCE_ID = /^(msg|call|inb)_[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * `/v1/events`: the account's events with where their deliveries stand (`delivery_status: failed` is a
 * dead letter), and redelivery, which sends the event again to every target under a new generation.
 */
export function createEventsRouter(deps: EventRouteDeps): Router {
  const router = Router();
  const events = createEventsRepository(deps.db);
  const deliveries = createWebhookDeliveriesRepository(deps.db);
  const clock = deps.clock ?? (() => new Date());
  const idParam = (value: unknown): string => {
    if (!isId('evt', value)) throw new NotFoundError();
    return value;
  };

  router.get('/v1/events', ...deps.auth, async (req, res) => {
    const query = req.query as Record<string, unknown>;
    const page = parsePageQuery(query, 'evt');
    const errors: FieldError[] = [];
    const { type, resource_id: resourceId } = query;
    if (type !== undefined && !(typeof type === 'string' && (EVENT_TYPES as readonly string[]).includes(type))) {
      errors.push({ field: 'query:type', message: `must be one of: ${EVENT_TYPES.join(', ')}` });
    }
    if (resourceId !== undefined && !(typeof resourceId === 'string' && RESOURCE_ID.test(resourceId))) {
      errors.push({ field: 'query:resource_id', message: 'must be a msg_, call_ or inb_ id' });
    }
    if (errors.length > 0) throw new ValidationError(errors, 'The query string is invalid.');
    const rows = await deps.guard('store', () =>
      events.list(callerOf(res).accountId, { ...page, type: type as string | undefined, resourceId: resourceId as string | undefined, limit: page.limit + 1 }),
    );
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
