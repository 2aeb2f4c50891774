-- One account per E.164 number (docs/numbers.md). Inbound traffic to a number is routed to its one owner,
-- so two accounts holding the same number would leave one of them blind.
--
-- Duplicates that already exist keep the earliest provisioning (created_at, then id) as owner; the other
-- rows move to numbers_removed_duplicates, where an operator can see what was taken from which account.
CREATE TABLE numbers_removed_duplicates (
  id                    text PRIMARY KEY,
  account_id            text NOT NULL,
  e164                  text NOT NULL,
  channels              text[] NOT NULL,
  chat_phone_number_id  text,
  created_at            timestamptz NOT NULL,
  kept_number_id        text NOT NULL,
  kept_account_id       text NOT NULL,
  removed_at            timestamptz NOT NULL DEFAULT now()
);

WITH ranked AS (
  SELECT n.*, first_value(n.id) OVER w AS kept_id, first_value(n.account_id) OVER w AS kept_account,
         row_number() OVER w AS rank
  FROM numbers n
  WINDOW w AS (PARTITION BY n.e164 ORDER BY n.created_at, n.id)
),
moved AS (
  INSERT INTO numbers_removed_duplicates (id, account_id, e164, channels, chat_phone_number_id, created_at, kept_number_id, kept_account_id)
  SELECT id, account_id, e164, channels, chat_phone_number_id, created_at, kept_id, kept_account FROM ranked WHERE rank > 1
  RETURNING id
)
DELETE FROM numbers WHERE id IN (SELECT id FROM moved);

ALTER TABLE numbers ADD CONSTRAINT numbers_one_owner UNIQUE (e164);
-- The unique constraint's index serves every lookup by number.
DROP INDEX numbers_by_e164;
