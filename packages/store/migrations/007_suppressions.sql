-- Opt-out (docs/routing.md#opt-out): recipients an account must not send to on a channel. This table is the
-- record; the gateway checks a Redis copy of each row on the hot path (packages/shared-state).
CREATE TABLE suppressions (
  id          text PRIMARY KEY,
  account_id  text NOT NULL REFERENCES accounts(id),
  channel     text NOT NULL CHECK (channel IN ('chat', 'rcs', 'sms')),
  recipient   text NOT NULL,
  -- 'inbound': the customer wrote STOP; 'api': POST /v1/suppressions.
  source      text NOT NULL CHECK (source IN ('inbound', 'api')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT suppressions_one_per_recipient UNIQUE (account_id, channel, recipient)
);
CREATE INDEX suppressions_by_account ON suppressions (account_id, id DESC);

-- Quiet hours of the account (docs/routing.md#quiet-hours): {"start": "21:00", "end": "08:00"} or NULL.
ALTER TABLE accounts ADD COLUMN quiet_hours jsonb;
