import { createHash, randomBytes } from 'node:crypto';
import { ConflictError, newId } from '@switchboard/domain';
import type { Queryable } from '../db';

export const CONSOLE_ROLES = ['owner', 'developer', 'viewer'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

export interface ConsoleUser {
  id: string;
  account_id: string;
  email: string;
  role: ConsoleRole;
  password_hash: string | null;
}

export interface ConsoleSession {
  user: ConsoleUser;
  csrf_token: string;
  expires_at: Date;
}

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

/** Console users, their one-time sign-in links and sessions (migration 009; docs/console.md#sign-in). */
export function createConsoleUsersRepository(db: Queryable) {
  return {
    /** Creates the user, or updates the role of the one with this email in the same account. */
    async ensure(input: { accountId: string; email: string; role: ConsoleRole }): Promise<ConsoleUser> {
      const email = input.email.trim().toLowerCase();
      const { rows } = await db.query<ConsoleUser>(
        `INSERT INTO console_users (id, account_id, email, role) VALUES ($1, $2, $3, $4)
         ON CONFLICT (email) DO UPDATE SET role = EXCLUDED.role WHERE console_users.account_id = EXCLUDED.account_id
         RETURNING id, account_id, email, role, password_hash`,
        [newId('usr'), input.accountId, email, input.role],
      );
      if (!rows[0]) throw new ConflictError('console_user_exists', `${email} is a console user of another account`);
      return rows[0];
    },
    async findByEmail(email: string): Promise<ConsoleUser | null> {
      const { rows } = await db.query<ConsoleUser>('SELECT id, account_id, email, role, password_hash FROM console_users WHERE email = $1', [
        email.trim().toLowerCase(),
      ]);
      return rows[0] ?? null;
    },
    async setPassword(userId: string, passwordHash: string): Promise<void> {
      await db.query('UPDATE console_users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
    },
    /** A single-use sign-in token; only its hash is stored. */
    async issueSignInToken(userId: string, ttlMs: number, now = new Date()): Promise<string> {
      const token = newToken();
      await db.query('INSERT INTO console_signin_tokens (token_hash, user_id, expires_at) VALUES ($1, $2, $3)', [
        sha256(token),
        userId,
        new Date(now.getTime() + ttlMs),
      ]);
      return token;
    },
    /** Marks the token used and returns its user; null when unknown, used or expired. */
    async redeemSignInToken(token: string, now = new Date()): Promise<ConsoleUser | null> {
      const { rows } = await db.query<ConsoleUser>(
        `WITH used AS (
           UPDATE console_signin_tokens SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_id)
         SELECT u.id, u.account_id, u.email, u.role, u.password_hash FROM console_users u JOIN used ON used.user_id = u.id`,
        [sha256(token), now],
      );
      return rows[0] ?? null;
    },
    async openSession(userId: string, ttlMs: number, now = new Date()): Promise<{ token: string; csrfToken: string; expiresAt: Date }> {
      const token = newToken();
      const csrfToken = newToken();
      const expiresAt = new Date(now.getTime() + ttlMs);
      await db.query('INSERT INTO console_sessions (token_hash, user_id, csrf_token, expires_at) VALUES ($1, $2, $3, $4)', [
        sha256(token),
        userId,
        csrfToken,
        expiresAt,
      ]);
      return { token, csrfToken, expiresAt };
    },
    async findSession(token: string, now = new Date()): Promise<ConsoleSession | null> {
      const { rows } = await db.query<ConsoleUser & { csrf_token: string; expires_at: Date }>(
        `SELECT u.id, u.account_id, u.email, u.role, u.password_hash, s.csrf_token, s.expires_at
         FROM console_sessions s JOIN console_users u ON u.id = s.user_id
         WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > $2`,
        [sha256(token), now],
      );
      const row = rows[0];
      if (!row) return null;
      const { csrf_token, expires_at, ...user } = row;
      return { user, csrf_token, expires_at };
    },
    async revokeSession(token: string, now = new Date()): Promise<void> {
      await db.query('UPDATE console_sessions SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL', [sha256(token), now]);
    },
  };
}
export type ConsoleUsersRepository = ReturnType<typeof createConsoleUsersRepository>;
