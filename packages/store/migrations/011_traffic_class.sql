-- Traffic lanes (docs/messages.md#traffic-lanes): the lane a message travelled in. A constant default
-- adds the column without rewriting the table; rows from before lanes existed were transactional.
ALTER TABLE messages ADD COLUMN traffic_class text NOT NULL DEFAULT 'transactional'
  CHECK (traffic_class IN ('transactional', 'bulk'));
