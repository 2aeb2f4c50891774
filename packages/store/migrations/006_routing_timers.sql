-- Time-based fallback and TTL (docs/routing.md#time-based-fallback, docs/routing.md#ttl).
-- The account's own default for fallback_timeout_seconds; null means the service default (60 s).
ALTER TABLE accounts ADD COLUMN fallback_timeout_seconds integer CHECK (fallback_timeout_seconds BETWEEN 5 AND 3600);
-- Set when the message left this attempt (fallback timeout, TTL expiry): a later receipt still updates
-- the attempt but no longer the message.
ALTER TABLE message_attempts ADD COLUMN abandoned_at timestamptz;
-- Multi-part SMS (docs/routing.md#multi-part-sms): the furthest status each part's receipt reported,
-- keyed by the part's SMSC id.
ALTER TABLE message_attempts ADD COLUMN part_statuses jsonb NOT NULL DEFAULT '{}'::jsonb;
