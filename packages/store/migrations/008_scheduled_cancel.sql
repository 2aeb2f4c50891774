-- Scheduled sends (docs/messages.md#scheduled-sends): a scheduled message canceled before it was handed
-- to an upstream ends `canceled`, stamped here like the other end states.
ALTER TABLE messages ADD COLUMN canceled_at timestamptz;
