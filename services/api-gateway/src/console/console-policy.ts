/** The console's fixed policies (docs/console.md#sign-in); constants, not config, until someone needs to tune them. */
export const CONSOLE_POLICY = {
  sessionCookie: 'sb_console_session',
  /** Sessions end after 12 h, or at sign-out. */
  sessionTtlMs: 12 * 3_600_000,
  /** One-time sign-in links printed by the CLI and `npm start` live for 24 h. */
  signInLinkTtlMs: 24 * 3_600_000,
  /** Five failed sign-ins per email (and per client address) in 15 minutes, then 429 until the window ends. */
  failedSignInLimit: 5,
  failedSignInWindowSeconds: 15 * 60,
  /** The header a state-changing request carries its session's CSRF token in (double submit). */
  csrfHeader: 'x-csrf-token',
  minPasswordLength: 10,
} as const;
