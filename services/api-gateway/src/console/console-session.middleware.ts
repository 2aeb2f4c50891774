import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import { ApiError, UnauthorizedError, type Scope } from '@switchboard/domain';
import type { ConsoleSession, ConsoleUsersRepository } from '@switchboard/store';
import type { DependencyGuard } from '../http/dependency-guard';
import { setCaller } from '../http/request-context';
import { CONSOLE_POLICY } from './console-policy';
import { readCookie } from './session-cookie';

/**
 * What a signed-in person may reach through the /v1 handlers the console reuses. Every role gets the same
 * scopes; what a viewer may not do is enforced by method in `consoleRoleGuard`, before any handler runs.
 * `admin` is never granted: it shows every account's upstreams.
 */
const CONSOLE_SCOPES: readonly Scope[] = ['messages:read', 'messages:write', 'templates:write', 'webhooks:write'];

const SAFE_METHODS = new Set(['GET', 'HEAD']);

export function consoleSessionOf(res: Response): ConsoleSession {
  const session = (res.locals as { consoleSession?: ConsoleSession }).consoleSession;
  if (!session) throw new Error('route is missing the console session middleware');
  return session;
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Loads the session named by the cookie (401 without one) and makes its account the caller of the reused /v1
 * handlers. A state-changing request must also repeat the session's CSRF token in `X-CSRF-Token`: another site
 * can make the browser send the cookie, but cannot read the token (docs/console.md#csrf).
 */
export function consoleSession({ users, guard }: { users: ConsoleUsersRepository; guard: DependencyGuard }): RequestHandler {
  return (req, res, next) => {
    const token = readCookie(req, CONSOLE_POLICY.sessionCookie);
    if (!token) return next(new UnauthorizedError('Sign in to the console first.'));
    guard('store', () => users.findSession(token)).then((session) => {
      if (!session) return next(new UnauthorizedError('The console session has ended; sign in again.'));
      if (!SAFE_METHODS.has(req.method)) {
        const sent = req.headers[CONSOLE_POLICY.csrfHeader];
        if (typeof sent !== 'string' || !sameToken(sent, session.csrf_token)) {
          return next(
            new ApiError(403, 'csrf_token_invalid', 'Forbidden', "A state-changing console request must carry its session's token in X-CSRF-Token.", [
              { field: 'header:X-CSRF-Token', message: 'missing or does not match the session' },
            ]),
          );
        }
      }
      (res.locals as { consoleSession?: ConsoleSession }).consoleSession = session;
      setCaller(res, {
        keyId: `console:${session.user.id}`,
        accountId: session.user.account_id,
        mode: 'test',
        scopes: CONSOLE_SCOPES,
        rateLimitPerSecond: null,
      });
      next();
    }, next);
  };
}

/** Viewers read; only owners and developers change anything. Enforced here, for every console API route. */
export function consoleRoleGuard(): RequestHandler {
  return (req, res, next) => {
    const { role } = consoleSessionOf(res).user;
    if (role === 'viewer' && !SAFE_METHODS.has(req.method)) {
      return next(new ApiError(403, 'forbidden', 'Forbidden', 'A viewer cannot change anything in the console.'));
    }
    next();
  };
}

/** Routes that show secrets (the account's callback secret) are for owners and developers only. */
export function requireEditor(): RequestHandler {
  return (_req, res, next) => {
    next(consoleSessionOf(res).user.role === 'viewer' ? new ApiError(403, 'forbidden', 'Forbidden', 'A viewer cannot see secrets.') : undefined);
  };
}
