import { Router, type RequestHandler } from 'express';
import { isId, NotFoundError, toIso } from '@switchboard/domain';
import { createWebhookEndpointRequestValidator } from '@switchboard/schemas';
import {
  createWebhookDeliveriesRepository,
  createWebhookEndpointsRepository,
  type Queryable,
  type SecretCipher,
  type WebhookEndpoint,
} from '@switchboard/store';
import type { TargetPolicy } from '@switchboard/webhooks';
import { requireScope } from '../auth/authenticate.middleware';
import type { DependencyGuard } from '../http/dependency-guard';
import { callerOf } from '../http/request-context';
import { pageOf, parsePageQuery } from '../pagination/page-query';

export interface WebhookRouteDeps {
  db: Queryable;
  guard: DependencyGuard;
  /** The chain every /v1 route runs first: authentication, then the per-key rate limit. */
  auth: RequestHandler[];
  /** Body reading and parsing for JSON routes: readJsonRequestBody(limit), parseJsonBody(). */
  jsonBody: RequestHandler[];
  /** The gateway's TARGET_ALLOW_HTTP / _PRIVATE_NETWORKS / _ALLOWED_HOSTS (docs/webhooks.md#target-guard-ssrf). */
  policy: TargetPolicy;
  /** Seals the signing secrets at rest and opens them for the answers that show them (docs/webhooks.md). */
  secrets: SecretCipher;
  /** How long the old secret keeps signing after a rotation. @defaultValue 24 h */
  rotationOverlapMs?: number;
  clock?: () => Date;
}

function endpointView(e: WebhookEndpoint) {
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    description: e.description,
    enabled: e.enabled,
    disabled_reason: e.disabled_reason,
    created_at: toIso(e.created_at),
    updated_at: toIso(e.updated_at),
  };
}

/**
 * `/v1/webhooks` (docs/webhooks.md#managing-endpoints): endpoints of the caller's account. The secret appears only in the
 * answers that create it (creation, rotation). Writes need `webhooks:write`; reads any key of the account.
 */
export function createWebhooksRouter(deps: WebhookRouteDeps): Router {
  const router = Router();
  const endpoints = createWebhookEndpointsRepository(deps.db, deps.secrets);
  const deliveries = createWebhookDeliveriesRepository(deps.db, deps.secrets);
  const clock = deps.clock ?? (() => new Date());
  const overlapMs = deps.rotationOverlapMs ?? 24 * 3_600_000;
  const write = [...deps.auth, requireScope('webhooks:write')];
  const validateEndpointRequest = createWebhookEndpointRequestValidator(deps.policy);
  const idParam = (value: unknown): string => {
    if (!isId('whk', value)) throw new NotFoundError();
    return value;
  };

  router.post('/v1/webhooks', ...write, ...deps.jsonBody, async (req, res) => {
    const { accountId } = callerOf(res);
    const input = validateEndpointRequest(req.body);
    const created = await deps.guard('store', () => endpoints.create({ accountId, ...input, at: clock() }));
    res
      .status(201)
      .location(`/v1/webhooks/${created.id}`)
      .json({ ...endpointView(created), secret: created.secret });
  });

  router.get('/v1/webhooks', ...deps.auth, async (req, res) => {
    const { accountId } = callerOf(res);
    const page = parsePageQuery(req.query as Record<string, unknown>, 'whk');
    const rows = await deps.guard('store', () => endpoints.list(accountId, { ...page, limit: page.limit + 1 }));
    res.json(pageOf(rows.map(endpointView), page.limit));
  });

  router.get('/v1/webhooks/:id', ...deps.auth, async (req, res) => {
    const endpoint = await deps.guard('store', () => endpoints.findForAccount(callerOf(res).accountId, idParam(req.params.id)));
    if (!endpoint) throw new NotFoundError();
    res.json(endpointView(endpoint));
  });

  router.delete('/v1/webhooks/:id', ...write, async (req, res) => {
    const deleted = await deps.guard('store', () => endpoints.delete(callerOf(res).accountId, idParam(req.params.id), clock()));
    if (!deleted) throw new NotFoundError();
    res.status(204).end();
  });

  router.post('/v1/webhooks/:id/rotate-secret', ...write, async (req, res) => {
    const rotated = await deps.guard('store', () => endpoints.rotateSecret(callerOf(res).accountId, idParam(req.params.id), clock(), overlapMs));
    if (!rotated) throw new NotFoundError();
    res.json({ id: rotated.id, secret: rotated.secret, previous_secret_expires_at: toIso(rotated.previous_secret_expires_at) });
  });

  router.get('/v1/webhooks/:id/deliveries', ...deps.auth, async (req, res) => {
    const id = idParam(req.params.id);
    const page = parsePageQuery(req.query as Record<string, unknown>, 'att');
    const endpoint = await deps.guard('store', () => endpoints.findForAccount(callerOf(res).accountId, id));
    if (!endpoint) throw new NotFoundError();
    const rows = await deps.guard('store', () => deliveries.attemptsForEndpoint(id, { ...page, limit: page.limit + 1 }));
    res.json(pageOf(rows, page.limit));
  });

  return router;
}
