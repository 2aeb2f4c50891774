-- Voice (docs/voice.md): agents, calls, their transcript turns and recordings.
CREATE TABLE agents (
  id          text PRIMARY KEY,
  account_id  text NOT NULL REFERENCES accounts(id),
  name        text NOT NULL,
  flow        jsonb NOT NULL,
  voice       text,
  llm         jsonb,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL
);
CREATE INDEX agents_by_account ON agents (account_id, id DESC);

-- The gateway writes the row when it accepts the call (docs/voice.md#accepting-a-call): unlike a message, a call
-- is counted against the account's concurrent-call limit and can be hung up before any orchestrator took it.
CREATE TABLE calls (
  id                    text PRIMARY KEY,
  account_id            text NOT NULL REFERENCES accounts(id),
  mode                  text NOT NULL CHECK (mode IN ('live', 'test')),
  status                text NOT NULL CHECK (status IN ('ringing', 'in-progress', 'completed', 'busy', 'no-answer', 'failed', 'canceled')),
  "to"                  text NOT NULL,
  "from"                text NOT NULL,
  agent_id              text REFERENCES agents(id) ON DELETE SET NULL,
  record                boolean NOT NULL,
  callback_url          text,
  ring_timeout_seconds  integer NOT NULL,
  max_duration_seconds  integer NOT NULL,
  metadata              jsonb,
  -- {attempts, delay_seconds, on}: redials after busy / no-answer (docs/voice.md#retries); attempt counts from 1.
  retry                 jsonb,
  attempt               integer NOT NULL DEFAULT 1,
  machine_detection     text CHECK (machine_detection IN ('detect', 'hangup')),
  answered_by           text CHECK (answered_by IN ('human', 'machine', 'unknown')),
  idempotency_key       text,
  request_fingerprint   text,
  end_reason            text,
  sequence              integer NOT NULL DEFAULT 1,
  -- The orchestrator process holding the media session, and its last sign of life (docs/voice.md#orchestrator-lost).
  orchestrator_id       text,
  heartbeat_at          timestamptz,
  created_at            timestamptz NOT NULL,
  answered_at           timestamptz,
  ended_at              timestamptz,
  CONSTRAINT calls_one_per_idempotency_key UNIQUE (account_id, idempotency_key)
);
CREATE INDEX calls_by_account ON calls (account_id, id DESC);
CREATE INDEX calls_live ON calls (account_id) WHERE status IN ('ringing', 'in-progress');

CREATE TABLE call_transcript_turns (
  call_id  text NOT NULL REFERENCES calls(id),
  turn_no  integer NOT NULL,
  speaker  text NOT NULL CHECK (speaker IN ('agent', 'callee')),
  text     text NOT NULL,
  at       timestamptz NOT NULL,
  PRIMARY KEY (call_id, turn_no)
);

-- Stored in PostgreSQL by default so any gateway replica can serve it; packages/store's recording store is the
-- seam for an object store later.
CREATE TABLE call_recordings (
  call_id           text PRIMARY KEY REFERENCES calls(id),
  wav               bytea NOT NULL,
  duration_seconds  numeric(10, 2) NOT NULL,
  created_at        timestamptz NOT NULL
);
