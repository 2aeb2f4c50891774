-- Accounts, keys and numbers (docs/authentication.md).
CREATE TABLE accounts (
  id               text PRIMARY KEY,
  name             text NOT NULL UNIQUE,
  -- Signs per-message callback_url deliveries (docs/webhooks.md#events); shown by GET /v1/account/webhook-secret.
  callback_secret  text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id                     text PRIMARY KEY,
  account_id             text NOT NULL REFERENCES accounts(id),
  -- Only the SHA-256 of the key is stored; the plaintext is shown once at creation.
  key_hash               text NOT NULL UNIQUE,
  display_prefix         text NOT NULL,
  mode                   text NOT NULL CHECK (mode IN ('live', 'test')),
  scopes                 text[] NOT NULL,
  rate_limit_per_second  integer,
  revoked_at             timestamptz,
  created_at             timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE numbers (
  id                    text PRIMARY KEY,
  account_id            text NOT NULL REFERENCES accounts(id),
  e164                  text NOT NULL,
  channels              text[] NOT NULL,
  chat_phone_number_id  text,
  created_at            timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_id, e164)
);
CREATE INDEX numbers_by_e164 ON numbers (e164);

-- Messages (docs/messages.md). A row appears when the dispatcher takes the job; until then GET reads the job.
CREATE TABLE messages (
  id                        text PRIMARY KEY,
  account_id                text NOT NULL REFERENCES accounts(id),
  mode                      text NOT NULL CHECK (mode IN ('live', 'test')),
  status                    text NOT NULL,
  channel                   text NOT NULL,
  channel_used              text,
  plan                      text[] NOT NULL,
  senders                   jsonb NOT NULL,
  recipient                 text NOT NULL,
  content                   jsonb,
  template                  jsonb,
  callback_url              text,
  ttl_seconds               integer,
  fallback_timeout_seconds  integer,
  metadata                  jsonb,
  cost_units                integer NOT NULL,
  carrier_status_code       text,
  error_code                text,
  error_message             text,
  sequence                  integer NOT NULL,
  created_at                timestamptz NOT NULL,
  updated_at                timestamptz NOT NULL,
  sending_at                timestamptz,
  sent_at                   timestamptz,
  delivered_at              timestamptz,
  read_at                   timestamptz,
  failed_at                 timestamptz,
  undelivered_at            timestamptz
);
CREATE INDEX messages_by_account ON messages (account_id, id DESC);
CREATE INDEX messages_by_account_status ON messages (account_id, status, id DESC);
CREATE INDEX messages_by_account_recipient ON messages (account_id, recipient, id DESC);

-- One row per channel tried. `sending` with no upstream id after a crash means "outcome unknown".
CREATE TABLE message_attempts (
  id                   text PRIMARY KEY,
  message_id           text NOT NULL REFERENCES messages(id),
  attempt_no           integer NOT NULL,
  channel              text NOT NULL,
  status               text NOT NULL,
  upstream_message_id  text,
  -- SMPP user_message_reference for this attempt; SMSCs echo it on receipts (SMPP 3.4 §4.6.1).
  attempt_ref          integer,
  sender               text,
  error_code           text,
  error_message        text,
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL,
  UNIQUE (message_id, attempt_no)
);
CREATE INDEX message_attempts_by_upstream ON message_attempts (channel, upstream_message_id);
CREATE INDEX message_attempts_by_ref ON message_attempts (channel, attempt_ref) WHERE upstream_message_id IS NULL;

-- Status history: one row per change, numbered by the message's sequence.
CREATE TABLE message_transitions (
  message_id           text NOT NULL REFERENCES messages(id),
  sequence             integer NOT NULL,
  status               text NOT NULL,
  channel              text,
  carrier_status_code  text,
  error_code           text,
  at                   timestamptz NOT NULL,
  PRIMARY KEY (message_id, sequence)
);

-- Events (docs/webhooks.md#events), written in the same transaction as the change they describe.
-- published_at is the outbox mark: null until webhook fan-out has taken the event.
CREATE TABLE events (
  id             text PRIMARY KEY,
  account_id     text NOT NULL REFERENCES accounts(id),
  type           text NOT NULL,
  resource_type  text NOT NULL,
  resource_id    text NOT NULL,
  sequence       integer,
  data           jsonb NOT NULL,
  created_at     timestamptz NOT NULL,
  published_at   timestamptz
);
CREATE INDEX events_by_account ON events (account_id, id DESC);
CREATE INDEX events_by_resource ON events (resource_id, id);
CREATE INDEX events_unpublished ON events (created_at) WHERE published_at IS NULL;
