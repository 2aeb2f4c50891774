-- Webhook endpoints, deliveries and attempts (docs/webhooks.md).
CREATE TABLE webhook_endpoints (
  id                          text PRIMARY KEY,
  account_id                  text NOT NULL REFERENCES accounts(id),
  url                         text NOT NULL,
  description                 text,
  events                      text[] NOT NULL,
  secret                      text NOT NULL,
  -- After a rotation the old secret keeps signing alongside the new one until it expires.
  previous_secret             text,
  previous_secret_expires_at  timestamptz,
  enabled                     boolean NOT NULL DEFAULT true,
  disabled_reason             text,
  disabled_at                 timestamptz,
  -- Start of the current run of failures; an endpoint failing for too long is disabled.
  failing_since               timestamptz,
  created_at                  timestamptz NOT NULL,
  updated_at                  timestamptz NOT NULL,
  deleted_at                  timestamptz
);
CREATE INDEX webhook_endpoints_by_account ON webhook_endpoints (account_id, id DESC) WHERE deleted_at IS NULL;

-- One row per (event, target): an endpoint, or the resource's own callback_url.
CREATE TABLE webhook_deliveries (
  id               text PRIMARY KEY,
  event_id         text NOT NULL REFERENCES events(id),
  account_id       text NOT NULL REFERENCES accounts(id),
  -- The endpoint id, or 'callback' for the resource's callback_url: the idempotency key of fan-out.
  target_key       text NOT NULL,
  endpoint_id      text REFERENCES webhook_endpoints(id),
  url              text NOT NULL,
  status           text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  -- Bumped by each redelivery; a job of an older generation is stale and does nothing.
  generation       integer NOT NULL DEFAULT 0,
  attempt_count    integer NOT NULL DEFAULT 0,
  last_status_code integer,
  last_error       text,
  next_attempt_at  timestamptz,
  delivered_at     timestamptz,
  failed_at        timestamptz,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  UNIQUE (event_id, target_key)
);
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, id DESC);

-- Every attempt, refused ones included (the guard's reason is the error).
CREATE TABLE webhook_attempts (
  id               text PRIMARY KEY,
  delivery_id      text NOT NULL REFERENCES webhook_deliveries(id),
  endpoint_id      text REFERENCES webhook_endpoints(id),
  attempt_no       integer NOT NULL,
  url              text NOT NULL,
  status_code      integer,
  latency_ms       integer NOT NULL,
  error            text,
  response_size    integer,
  response_excerpt text,
  created_at       timestamptz NOT NULL
);
CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts (delivery_id, id);
CREATE INDEX webhook_attempts_by_endpoint ON webhook_attempts (endpoint_id, id DESC);
