import { Router, type RequestHandler } from 'express';
import { e164Problem, isId, isScope, NotFoundError, toIso, ValidationError, type FieldError } from '@switchboard/domain';
import { createEventPublisher, type BulkJobAdder, type FanOutEventJob, type ReplicaAck } from '@switchboard/queues';
import {
  createApiKeysRepository,
  createEventsRepository,
  createNumbersRepository,
  createWebhookEndpointsRepository,
  type ConsoleReadsRepository,
  type Queryable,
  type SecretCipher,
} from '@switchboard/store';
import type { DependencyGuard } from '../http/dependency-guard';
import { callerOf } from '../http/request-context';

const CHANNELS = ['chat', 'sms', 'rcs', 'voice'];
const DAY_MS = 86_400_000;

export interface ConsoleResourceDeps {
  db: Queryable;
  reads: ConsoleReadsRepository;
  guard: DependencyGuard;
  jsonBody: RequestHandler[];
  /** Hands the test event to webhook fan-out. */
  eventFanoutQueue: BulkJobAdder<FanOutEventJob>;
  /** Confirms the test event's job before it is marked published (docs/operations.md#redis-failover). */
  replicaAck: ReplicaAck;
  /** The endpoints repository opens signing secrets; these routes never show them. */
  secrets: SecretCipher;
  clock?: () => Date;
}

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ValidationError([{ field: '', message: 'must be an object' }]);
  return body as Record<string, unknown>;
}

function stringList(value: unknown, field: string, allowed: (v: string) => boolean, errors: FieldError[]): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > 20 || !value.every((v) => typeof v === 'string')) {
    errors.push({ field, message: 'must be a non-empty list of strings' });
    return [];
  }
  value.forEach((v: string, i) => {
    if (!allowed(v)) errors.push({ field: `${field}/${i}`, message: `"${v.slice(0, 40)}" is not allowed` });
  });
  return value;
}

/**
 * The console routes that /v1 has no equivalent of (API keys, numbers, usage, open customer windows, turning an
 * endpoint off and on, its delivery log with response excerpts, a test event); the role
 * guard in front of them already refused writes by viewers (docs/console.md#roles).
 */
export function createConsoleResourcesRouter({
  db,
  reads,
  guard,
  jsonBody,
  secrets,
  eventFanoutQueue,
  replicaAck,
  clock = () => new Date(),
}: ConsoleResourceDeps): Router {
  const router = Router();
  const keys = createApiKeysRepository(db);
  const numbers = createNumbersRepository(db);
  const endpoints = createWebhookEndpointsRepository(db, secrets);
  const publisher = createEventPublisher({ queue: eventFanoutQueue, outbox: createEventsRepository(db), clock, replicaAck });

  router.get('/keys', async (_req, res) => {
    const rows = await guard('store', () => reads.listApiKeys(callerOf(res).accountId));
    res.json({ data: rows.map((k) => ({ ...k, created_at: toIso(k.created_at), revoked_at: toIso(k.revoked_at) })) });
  });

  router.post('/keys', ...jsonBody, async (req, res) => {
    const body = objectBody(req.body);
    const errors: FieldError[] = [];
    if (body.mode !== 'test' && body.mode !== 'live') errors.push({ field: '/mode', message: 'must be "test" or "live"' });
    const scopes = stringList(body.scopes, '/scopes', (s) => isScope(s) && s !== 'admin', errors);
    const rate = body.rate_limit_per_second;
    if (rate !== undefined && rate !== null && (!Number.isInteger(rate) || (rate as number) < 1 || (rate as number) > 100_000)) {
      errors.push({ field: '/rate_limit_per_second', message: 'must be a whole number from 1 to 100000' });
    }
    if (errors.length > 0) throw new ValidationError(errors);
    const { accountId } = callerOf(res);
    // `*` already grants every scope; listing others beside it would only mislead the key list.
    const storedScopes = scopes.includes('*') ? ['*'] : [...new Set(scopes)];
    const created = await guard('store', () =>
      keys.create({
        accountId,
        mode: body.mode as 'test' | 'live',
        scopes: storedScopes,
        rateLimitPerSecond: (rate as number | null | undefined) ?? undefined,
      }),
    );
    // The only answer that carries the key: it is shown once (docs/authentication.md#api-keys).
    res.status(201).json({ id: created.id, key: created.key, mode: body.mode, scopes: storedScopes, rate_limit_per_second: rate ?? null });
  });

  router.post('/keys/:id/revoke', async (req, res) => {
    const id = req.params.id;
    if (!isId('key', id)) throw new NotFoundError();
    if (!(await guard('store', () => reads.revokeApiKey(callerOf(res).accountId, id)))) throw new NotFoundError();
    res.json({ id, revoked: true });
  });

  router.get('/numbers', async (_req, res) => {
    const rows = await guard('store', () => numbers.listForAccount(callerOf(res).accountId));
    res.json({ data: rows.map((n) => ({ id: n.id, e164: n.e164, channels: n.channels, created_at: toIso(n.created_at) })) });
  });

  router.post('/numbers', ...jsonBody, async (req, res) => {
    const body = objectBody(req.body);
    const errors: FieldError[] = [];
    // As `switchboard numbers add` says it: not E.164, or E.164 that no region dials.
    const e164Refusal = e164Problem(body.e164);
    if (e164Refusal) errors.push({ field: '/e164', message: e164Refusal });
    const channels = stringList(body.channels, '/channels', (c) => CHANNELS.includes(c), errors);
    if (errors.length > 0) throw new ValidationError(errors);
    // A number another account holds is a 409 (docs/numbers.md): the one-owner rule.
    const added = await guard('store', () => numbers.add({ accountId: callerOf(res).accountId, e164: body.e164 as string, channels }));
    res.status(201).json({ id: added.id, e164: added.e164, channels: added.channels, created_at: toIso(added.created_at) });
  });

  router.delete('/numbers/:id', async (req, res) => {
    const id = req.params.id;
    if (!isId('num', id)) throw new NotFoundError();
    if (!(await guard('store', () => reads.removeNumber(callerOf(res).accountId, id)))) throw new NotFoundError();
    res.status(204).end();
  });

  router.get('/usage', async (req, res) => {
    const raw = req.query.days ?? '14';
    const days = typeof raw === 'string' && /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
    if (!(days >= 1 && days <= 90)) throw new ValidationError([{ field: 'query:days', message: 'must be a whole number from 1 to 90' }]);
    const now = clock();
    const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (days - 1) * DAY_MS);
    const { accountId } = callerOf(res);
    const [rows, calls] = await Promise.all([guard('store', () => reads.usage(accountId, since)), guard('store', () => reads.callUsage(accountId, since))]);
    res.json({ since: since.toISOString(), data: rows, calls });
  });

  // The delivery log with each answer's excerpt (webhook-delivery's RESPONSE_EXCERPT_CHARS), which /v1 does not show.
  router.get('/webhooks/:id/attempts', async (req, res) => {
    const id = req.params.id;
    if (!isId('whk', id)) throw new NotFoundError();
    const { accountId } = callerOf(res);
    // Another account's endpoint is a 404, like a missing one, not an empty log.
    if (!(await guard('store', () => endpoints.findForAccount(accountId, id)))) throw new NotFoundError();
    const rows = await guard('store', () => reads.endpointAttempts(accountId, id, 50));
    res.json({
      data: rows.map((a) => ({ ...a, response_excerpt: a.response_excerpt?.slice(0, 200) ?? null, created_at: toIso(a.created_at) })),
    });
  });

  router.post('/webhooks/:id/test', async (req, res) => {
    const id = req.params.id;
    if (!isId('whk', id)) throw new NotFoundError();
    const event = await guard('store', () => reads.insertEndpointTestEvent(callerOf(res).accountId, id, clock()));
    if (!event) throw new NotFoundError();
    // The event row is the outbox: if Redis fails here, the sweeper publishes it later, so the answer stays 202.
    await guard('redis', () => publisher.publish([event])).catch(() => undefined);
    res.status(202).json({ event_id: event.id, type: 'webhook.test' });
  });

  router.post('/webhooks/:id/:action', async (req, res) => {
    const { id, action } = req.params;
    if (!isId('whk', id) || (action !== 'enable' && action !== 'disable')) throw new NotFoundError();
    if (!(await guard('store', () => reads.setEndpointEnabled(callerOf(res).accountId, id, action === 'enable', clock())))) throw new NotFoundError();
    res.json({ id, enabled: action === 'enable' });
  });

  router.get('/customer-windows', async (_req, res) => {
    const rows = await guard('store', () => reads.openCustomerWindows(callerOf(res).accountId, clock()));
    res.json({
      data: rows.map((w) => ({
        sender: w.sender,
        customer: w.customer,
        last_inbound_at: toIso(w.last_inbound_at),
        closes_at: toIso(w.closes_at),
      })),
    });
  });

  return router;
}
