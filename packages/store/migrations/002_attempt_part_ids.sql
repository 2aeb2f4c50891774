-- SMPP receipts come per part of a long text, each under its own SMSC id. The sending process maps
-- them to the first part in memory only; persisting every part id lets a receipt that reaches
-- another process (or a restarted one) still find its attempt.
ALTER TABLE message_attempts ADD COLUMN upstream_part_ids text[];
CREATE INDEX message_attempts_by_part ON message_attempts USING gin (upstream_part_ids) WHERE upstream_part_ids IS NOT NULL;
