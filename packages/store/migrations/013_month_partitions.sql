-- Time-partitioned tables (docs/storage-layout.md#time-partitioned-tables): messages, their attempts and status
-- history, and events, one partition per UTC month. The partition key is the id (messages, events) or the
-- message id (attempts, transitions), ranged on the ULID time prefix: `WHERE id = $1` prunes to one month.
-- The tables are rebuilt in place in this one transaction: rows are copied into their months, then the old
-- tables are dropped and their names, keys, indexes and foreign keys are given to the partitioned ones.

-- The 10-character Crockford base32 time prefix of a ULID for `ms` milliseconds (the ulid package's encodeTime).
CREATE FUNCTION ulid_time_prefix(ms bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((ms >> (5 * (10 - i))) & 31)::int + 1, 1), '' ORDER BY i)
  FROM generate_series(1, 10) AS i
$$;

-- Milliseconds of a ULID time prefix (the first 10 characters after the id's prefix and underscore).
CREATE FUNCTION ulid_time_ms(prefix text) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT sum((strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ', substr(prefix, i, 1)) - 1)::bigint << (5 * (10 - i)))
  FROM generate_series(1, 10) AS i
$$;

-- The smallest id of kind `kind` ('msg', 'evt') made in the UTC month holding `month` (a UTC timestamp): the kind,
-- the month's first millisecond as a ULID time prefix, and the lowest random part.
CREATE FUNCTION month_partition_bound(kind text, month timestamp) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT kind || '_' || ulid_time_prefix((extract(epoch FROM date_trunc('month', month)) * 1000)::bigint) || '0000000000000000'
$$;

-- Whether `table`'s default partition holds a row whose key is in [lo, hi).
CREATE FUNCTION default_partition_holds(tbl text, lo text, hi text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  key text;
  held boolean;
BEGIN
  SELECT a.attname INTO key FROM pg_partitioned_table p JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
  WHERE p.partrelid = tbl::regclass;
  EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE %I >= $1 AND %I < $2)', tbl || '_default', key, key) INTO held USING lo, hi;
  RETURN held;
END
$$;

-- Makes the partitions of the UTC month holding `month` that do not exist yet, and returns their names. A message's
-- three tables get their month together, with foreign keys from the month's attempts and history to the month's
-- messages: a key between partitions, rather than between the partitioned tables, lets a month be detached and
-- dropped without PostgreSQL scanning every other month for rows pointing into it. A month whose rows already sit
-- in a default partition is left there (PostgreSQL would refuse the new partition): docs/storage-layout.md#time-partitioned-tables.
CREATE FUNCTION ensure_month_partitions(month timestamp) RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
  start timestamp := date_trunc('month', month);
  suffix text := to_char(start, 'YYYY_MM');
  made text[] := '{}';
  lo text;
  hi text;
  child text;
BEGIN
  lo := month_partition_bound('msg', start);
  hi := month_partition_bound('msg', start + interval '1 month');
  IF to_regclass('messages_' || suffix) IS NULL AND NOT default_partition_holds('messages', lo, hi)
     AND NOT default_partition_holds('message_attempts', lo, hi) AND NOT default_partition_holds('message_transitions', lo, hi) THEN
    EXECUTE format('CREATE TABLE %I PARTITION OF messages FOR VALUES FROM (%L) TO (%L)', 'messages_' || suffix, lo, hi);
    made := made || ('messages_' || suffix);
    FOREACH child IN ARRAY ARRAY['message_attempts', 'message_transitions'] LOOP
      EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', child || '_' || suffix, child, lo, hi);
      EXECUTE format('ALTER TABLE %I ADD FOREIGN KEY (message_id) REFERENCES %I (id)', child || '_' || suffix, 'messages_' || suffix);
      made := made || (child || '_' || suffix);
    END LOOP;
  END IF;
  lo := month_partition_bound('evt', start);
  hi := month_partition_bound('evt', start + interval '1 month');
  IF to_regclass('events_' || suffix) IS NULL AND NOT default_partition_holds('events', lo, hi) THEN
    EXECUTE format('CREATE TABLE %I PARTITION OF events FOR VALUES FROM (%L) TO (%L)', 'events_' || suffix, lo, hi);
    made := made || ('events_' || suffix);
  END IF;
  RETURN made;
END
$$;

-- The old tables give up their foreign keys, keys and indexes first: the partitioned tables take their names.
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_id_fkey;
ALTER TABLE messages RENAME TO messages_unpartitioned;
ALTER TABLE message_attempts RENAME TO message_attempts_unpartitioned;
ALTER TABLE message_transitions RENAME TO message_transitions_unpartitioned;
ALTER TABLE events RENAME TO events_unpartitioned;
DO $$
DECLARE
  c record;
BEGIN
  FOR c IN
    SELECT conrelid::regclass::text AS tbl, conname FROM pg_constraint
    WHERE conrelid = ANY (ARRAY['messages_unpartitioned', 'message_attempts_unpartitioned', 'message_transitions_unpartitioned', 'events_unpartitioned']::regclass[])
      AND contype IN ('f', 'p', 'u')
    ORDER BY contype = 'f' DESC
  LOOP
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', c.tbl, c.conname);
  END LOOP;
  FOR c IN
    SELECT indexrelid::regclass::text AS idx FROM pg_index
    WHERE indrelid = ANY (ARRAY['messages_unpartitioned', 'message_attempts_unpartitioned', 'message_transitions_unpartitioned', 'events_unpartitioned']::regclass[])
  LOOP
    EXECUTE format('DROP INDEX %I', c.idx);
  END LOOP;
END
$$;

-- The columns of 001 and of the migrations since, in the same order.
CREATE TABLE messages (
  id                        text NOT NULL,
  account_id                text NOT NULL,
  mode                      text NOT NULL,
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
  undelivered_at            timestamptz,
  canceled_at               timestamptz,
  traffic_class             text NOT NULL DEFAULT 'transactional'
) PARTITION BY RANGE (id);

CREATE TABLE message_attempts (
  id                   text NOT NULL,
  message_id           text NOT NULL,
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
  upstream_part_ids    text[],
  abandoned_at         timestamptz,
  part_statuses        jsonb NOT NULL DEFAULT '{}'::jsonb
) PARTITION BY RANGE (message_id);

CREATE TABLE message_transitions (
  message_id           text NOT NULL,
  sequence             integer NOT NULL,
  status               text NOT NULL,
  channel              text,
  carrier_status_code  text,
  error_code           text,
  at                   timestamptz NOT NULL
) PARTITION BY RANGE (message_id);

CREATE TABLE events (
  id             text NOT NULL,
  account_id     text NOT NULL,
  type           text NOT NULL,
  resource_type  text NOT NULL,
  resource_id    text NOT NULL,
  sequence       integer,
  data           jsonb NOT NULL,
  created_at     timestamptz NOT NULL,
  published_at   timestamptz
) PARTITION BY RANGE (id);

-- Keys and indexes before the partitions, which inherit them. A partitioned table's unique keys include its partition
-- key: an attempt is keyed by its id and its message's id.
ALTER TABLE messages ADD PRIMARY KEY (id);
ALTER TABLE messages ADD FOREIGN KEY (account_id) REFERENCES accounts(id);
ALTER TABLE messages ADD CONSTRAINT messages_mode_check CHECK (mode IN ('live', 'test'));
ALTER TABLE messages ADD CONSTRAINT messages_traffic_class_check CHECK (traffic_class IN ('transactional', 'bulk'));
CREATE INDEX messages_by_account ON messages (account_id, id DESC);
CREATE INDEX messages_by_account_status ON messages (account_id, status, id DESC);
CREATE INDEX messages_by_account_recipient ON messages (account_id, recipient, id DESC);

ALTER TABLE message_attempts ADD PRIMARY KEY (id, message_id);
ALTER TABLE message_attempts ADD UNIQUE (message_id, attempt_no);
CREATE INDEX message_attempts_by_upstream ON message_attempts (channel, upstream_message_id);
CREATE INDEX message_attempts_by_ref ON message_attempts (channel, attempt_ref) WHERE upstream_message_id IS NULL;
CREATE INDEX message_attempts_by_part ON message_attempts USING gin (upstream_part_ids) WHERE upstream_part_ids IS NOT NULL;

ALTER TABLE message_transitions ADD PRIMARY KEY (message_id, sequence);

ALTER TABLE events ADD PRIMARY KEY (id);
ALTER TABLE events ADD FOREIGN KEY (account_id) REFERENCES accounts(id);
CREATE INDEX events_by_account ON events (account_id, id DESC);
CREATE INDEX events_by_resource ON events (resource_id, id);
CREATE INDEX events_unpublished ON events (created_at) WHERE published_at IS NULL;

-- Ids outside every month (none that the services make) and months the maintenance has not made yet.
CREATE TABLE messages_default PARTITION OF messages DEFAULT;
CREATE TABLE message_attempts_default PARTITION OF message_attempts DEFAULT;
ALTER TABLE message_attempts_default ADD FOREIGN KEY (message_id) REFERENCES messages_default (id);
CREATE TABLE message_transitions_default PARTITION OF message_transitions DEFAULT;
ALTER TABLE message_transitions_default ADD FOREIGN KEY (message_id) REFERENCES messages_default (id);
CREATE TABLE events_default PARTITION OF events DEFAULT;

-- Every month that holds rows, and this month. The months ahead are the maintenance job's
-- (packages/store/src/month-partitions.ts): each month costs every database, test ones included, tens of
-- milliseconds. A 6-character time prefix spans about 17 minutes: both its first and its last millisecond name a
-- month, so a prefix that straddles a month's end makes both.
DO $$
DECLARE
  month timestamp;
  t text;
  columns text;
BEGIN
  FOR month IN
    WITH prefixes AS (
      SELECT DISTINCT substr(id, 5, 6) AS p FROM messages_unpartitioned WHERE id ~ '^msg_[0-9A-HJKMNP-TV-Z]{26}$'
      UNION SELECT DISTINCT substr(id, 5, 6) FROM events_unpartitioned WHERE id ~ '^evt_[0-9A-HJKMNP-TV-Z]{26}$'
    ), edges AS (
      SELECT ulid_time_ms(p || '0000') AS ms FROM prefixes
      UNION ALL SELECT ulid_time_ms(p || 'ZZZZ') FROM prefixes
      UNION ALL SELECT (extract(epoch FROM now()) * 1000)::bigint
    )
    SELECT DISTINCT date_trunc('month', to_timestamp(ms / 1000.0) AT TIME ZONE 'UTC') FROM edges ORDER BY 1
  LOOP
    PERFORM ensure_month_partitions(month);
  END LOOP;
  -- Messages before the rows that reference them.
  FOREACH t IN ARRAY ARRAY['messages', 'message_attempts', 'message_transitions', 'events'] LOOP
    SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) INTO columns FROM pg_attribute
    WHERE attrelid = t::regclass AND attnum > 0 AND NOT attisdropped;
    EXECUTE format('INSERT INTO %I (%s) SELECT %s FROM %I', t, columns, columns, t || '_unpartitioned');
  END LOOP;
END
$$;

DROP TABLE message_attempts_unpartitioned, message_transitions_unpartitioned, messages_unpartitioned, events_unpartitioned;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_id_fkey FOREIGN KEY (event_id) REFERENCES events(id);
