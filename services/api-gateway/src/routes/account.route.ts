import { Router, type RequestHandler } from 'express';
import { NotFoundError } from '@switchboard/domain';
import { createAccountSettingsRequestValidator } from '@switchboard/schemas';
import { createAccountSettingsRepository, createAccountsRepository, type Queryable, type SecretCipher } from '@switchboard/store';
import type { DependencyGuard } from '../http/dependency-guard';
import { callerOf } from '../http/request-context';

export interface AccountRouteDeps {
  db: Queryable;
  guard: DependencyGuard;
  auth: RequestHandler[];
  /** Opens the callback secret, sealed at rest (docs/webhooks.md). */
  secrets: SecretCipher;
  /** Body reading and parsing for `PATCH /v1/account`. */
  jsonBody: RequestHandler[];
  /** Authentication, rate limit and `messages:write`: account settings that shape sending. */
  authenticateWrite: RequestHandler[];
}

/**
 * `GET /v1/account/webhook-secret`: the secret that signs per-message `callback_url` deliveries
 * (docs/webhooks.md#managing-endpoints). Any key of the account may read it: a key that sends messages with a callback_url
 * must be able to verify what arrives there.
 */
export function createAccountRouter(deps: AccountRouteDeps): Router {
  const router = Router();
  const accounts = createAccountsRepository(deps.db, deps.secrets);
  router.get('/v1/account/webhook-secret', ...deps.auth, async (_req, res) => {
    const account = await deps.guard('store', () => accounts.findById(callerOf(res).accountId));
    if (!account) throw new NotFoundError();
    res.json({ secret: account.callback_secret });
  });

  // Account-wide defaults for sending: the fallback timeout (docs/routing.md#time-based-fallback) and quiet hours
  // (docs/routing.md#quiet-hours); changing them needs messages:write.
  const settings = createAccountSettingsRepository(deps.db);
  const validateSettings = createAccountSettingsRequestValidator();
  router.get('/v1/account', ...deps.auth, async (_req, res) => {
    const found = await deps.guard('store', () => settings.find(callerOf(res).accountId));
    if (!found) throw new NotFoundError();
    res.json(found);
  });
  router.patch('/v1/account', ...deps.authenticateWrite, ...deps.jsonBody, async (req, res) => {
    const changes = validateSettings(req.body);
    const updated = await deps.guard('store', () => settings.update(callerOf(res).accountId, changes));
    if (!updated) throw new NotFoundError();
    res.json(updated);
  });
  return router;
}
