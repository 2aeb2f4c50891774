import { Router, type RequestHandler } from 'express';
import { UnauthorizedError, ValidationError, type FieldError } from '@switchboard/domain';
import { hashConsolePassword, verifyConsolePassword, type ConsoleUser, type ConsoleUsersRepository } from '@switchboard/store';
import type { DependencyGuard } from '../http/dependency-guard';
import { CONSOLE_POLICY } from './console-policy';
import { clearSessionCookie, readCookie, setSessionCookie } from './session-cookie';
import type { SignInThrottle } from './sign-in-throttle';

export interface ConsoleAuthDeps {
  users: ConsoleUsersRepository;
  throttle: SignInThrottle;
  guard: DependencyGuard;
  jsonBody: RequestHandler[];
  session: RequestHandler;
}

function stringField(body: unknown, name: string, errors: FieldError[], check: (v: string) => string | null = () => null): string {
  const value = (body as Record<string, unknown> | null)?.[name];
  if (typeof value !== 'string' || value === '') {
    errors.push({ field: `/${name}`, message: 'is required and must be a string' });
    return '';
  }
  const problem = check(value);
  if (problem) errors.push({ field: `/${name}`, message: problem });
  return value;
}

function requireObject(body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ValidationError([{ field: '', message: 'must be an object' }]);
}

const userView = (u: ConsoleUser) => ({ id: u.id, email: u.email, role: u.role, account_id: u.account_id });

/**
 * `/console/api/session`: sign in with email and password, redeem a one-time sign-in link (which sets the
 * password), read the current session with its CSRF token, and sign out, which revokes the session row.
 */
export function createConsoleAuthRouter({ users, throttle, guard, jsonBody, session }: ConsoleAuthDeps): Router {
  const router = Router();

  async function startSession(res: Parameters<RequestHandler>[1], user: ConsoleUser) {
    const opened = await guard('store', () => users.openSession(user.id, CONSOLE_POLICY.sessionTtlMs));
    setSessionCookie(res, opened.token, opened.expiresAt);
    res.status(201).json({ user: userView(user), csrf_token: opened.csrfToken, expires_at: opened.expiresAt.toISOString() });
  }

  // Sign-in and redemption need JSON bodies, which a cross-site form cannot send without a CORS preflight we never
  // answer, so the session cookie cannot be planted by another site (login CSRF).
  router.post('/console/api/session', ...jsonBody, async (req, res) => {
    requireObject(req.body);
    const errors: FieldError[] = [];
    const email = stringField(req.body, 'email', errors).trim().toLowerCase();
    const password = stringField(req.body, 'password', errors);
    if (errors.length > 0) throw new ValidationError(errors);
    const address = req.ip ?? 'unknown';
    await throttle.check(email, address);
    const user = await guard('store', () => users.findByEmail(email));
    if (!user || !(await verifyConsolePassword(password, user.password_hash))) {
      await throttle.recordFailure(email, address);
      throw new UnauthorizedError('The email or password is wrong.');
    }
    await startSession(res, user);
  });

  router.post('/console/api/session/redeem', ...jsonBody, async (req, res) => {
    requireObject(req.body);
    const errors: FieldError[] = [];
    const token = stringField(req.body, 'token', errors, (v) => (/^[A-Za-z0-9_-]{20,128}$/.test(v) ? null : 'is not a sign-in token'));
    const password = stringField(req.body, 'password', errors, (v) =>
      v.length < CONSOLE_POLICY.minPasswordLength
        ? `must have at least ${CONSOLE_POLICY.minPasswordLength} characters`
        : v.length > 256
          ? 'must have at most 256 characters'
          : null,
    );
    if (errors.length > 0) throw new ValidationError(errors);
    const user = await guard('store', () => users.redeemSignInToken(token));
    if (!user) throw new UnauthorizedError('This sign-in link is unknown, used or expired; ask for a new one.');
    const passwordHash = await hashConsolePassword(password);
    await guard('store', () => users.setPassword(user.id, passwordHash));
    await startSession(res, user);
  });

  // Asking whether one is signed in is not an error either way: the sign-in page asks on every load, and a 401
  // there would log a failed request in the browser's console (docs/console.md#sign-in).
  router.get('/console/api/session', async (req, res) => {
    const token = readCookie(req, CONSOLE_POLICY.sessionCookie);
    const current = token ? await guard('store', () => users.findSession(token)) : null;
    if (!current) {
      if (token) clearSessionCookie(res);
      res.json({ signed_in: false });
      return;
    }
    res.json({
      signed_in: true,
      user: userView(current.user),
      csrf_token: current.csrf_token,
      expires_at: current.expires_at.toISOString(),
    });
  });

  router.delete('/console/api/session', session, async (req, res) => {
    const token = readCookie(req, CONSOLE_POLICY.sessionCookie);
    if (token) await guard('store', () => users.revokeSession(token));
    clearSessionCookie(res);
    res.status(204).end();
  });

  return router;
}
