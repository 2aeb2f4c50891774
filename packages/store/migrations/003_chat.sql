-- Message templates (docs/chat.md#templates). One row per (account, name, language): that pair is how a send names it.
-- `mode` records which upstream reviewed it: test keys submit to the carrier simulator (docs/authentication.md#test-and-live-keys).
CREATE TABLE templates (
  id                    text PRIMARY KEY,
  account_id            text NOT NULL REFERENCES accounts(id),
  mode                  text NOT NULL CHECK (mode IN ('live', 'test')),
  name                  text NOT NULL,
  language              text NOT NULL,
  category              text NOT NULL CHECK (category IN ('authentication', 'utility', 'marketing')),
  components            jsonb NOT NULL,
  -- Kept apart from components so that SMS/RCS fallback can render the template without re-parsing them.
  body_text             text NOT NULL,
  placeholder_count     integer NOT NULL,
  status                text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
  rejection_reason      text,
  upstream_template_id  text,
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL,
  UNIQUE (account_id, name, language)
);
CREATE INDEX templates_by_account ON templates (account_id, id DESC);
CREATE INDEX templates_by_upstream ON templates (upstream_template_id) WHERE upstream_template_id IS NOT NULL;
CREATE INDEX templates_awaiting_review ON templates (name, language) WHERE status = 'pending';

-- Customer replies. Unique on the upstream's id, so a duplicated webhook inserts nothing.
CREATE TABLE inbound_messages (
  id                   text PRIMARY KEY,
  account_id           text NOT NULL REFERENCES accounts(id),
  channel              text NOT NULL,
  upstream_id          text NOT NULL,
  from_number          text NOT NULL,
  to_number            text NOT NULL,
  type                 text NOT NULL,
  text                 text,
  reply                jsonb,
  location             jsonb,
  media                jsonb,
  context_upstream_id  text,
  context_message_id   text,
  received_at          timestamptz NOT NULL,
  created_at           timestamptz NOT NULL,
  UNIQUE (channel, upstream_id)
);
CREATE INDEX inbound_messages_by_account ON inbound_messages (account_id, id DESC);

-- The 24-hour customer service window (docs/chat.md), the durable record. The gateway reads a Redis key
-- with the same expiry, written by the dispatcher from this row, so the hot path runs no query.
CREATE TABLE customer_windows (
  account_id       text NOT NULL REFERENCES accounts(id),
  sender           text NOT NULL,
  customer         text NOT NULL,
  last_inbound_at  timestamptz NOT NULL,
  PRIMARY KEY (account_id, sender, customer)
);
