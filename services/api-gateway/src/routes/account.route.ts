import { Router, type RequestHandler } from 'express';
import { NotFoundError } from '@switchboard/domain';
import { createAccountQuietHoursUpdateValidator } from '@switchboard/schemas';
import { createAccountQuietHoursRepository, createAccountsRepository, type Queryable, type SecretCipher } from '@switchboard/store';
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
  // Quiet hours for marketing messages (docs/routing.md#quiet-hours).
  const quietHours = createAccountQuietHoursRepository(deps.db);
  const validateQuietHours = createAccountQuietHoursUpdateValidator();
  router.patch('/v1/account', ...deps.authenticateWrite, ...deps.jsonBody, async (req, res) => {
    const { accountId } = callerOf(res);
    const update = validateQuietHours(req.body);
    if (!(await deps.guard('store', () => quietHours.set(accountId, update.quiet_hours)))) throw new NotFoundError();
    res.json({ quiet_hours: update.quiet_hours });
  });
  return router;
}
