-- Console users and their sessions (docs/console.md#sign-in). People sign in to the console; API keys stay for programs.
CREATE TABLE console_users (
  id             text PRIMARY KEY,
  account_id     text NOT NULL REFERENCES accounts(id),
  email          text NOT NULL UNIQUE,
  role           text NOT NULL CHECK (role IN ('owner', 'developer', 'viewer')),
  -- scrypt$N$r$p$salt$hash (base64); null until the user redeems their one-time sign-in link.
  password_hash  text,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX console_users_by_account ON console_users (account_id);

-- One-time sign-in links: only the SHA-256 of the token is stored; used_at makes the link single-use.
CREATE TABLE console_signin_tokens (
  token_hash  text PRIMARY KEY,
  user_id     text NOT NULL REFERENCES console_users(id) ON DELETE CASCADE,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);

-- Sessions: the cookie carries the token, the row its SHA-256; sign-out sets revoked_at.
CREATE TABLE console_sessions (
  token_hash  text PRIMARY KEY,
  user_id     text NOT NULL REFERENCES console_users(id) ON DELETE CASCADE,
  -- The double-submit CSRF token of this session (docs/console.md#csrf).
  csrf_token  text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);
CREATE INDEX console_sessions_by_user ON console_sessions (user_id);
