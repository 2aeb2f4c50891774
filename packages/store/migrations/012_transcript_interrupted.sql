-- Full-duplex voice agents (docs/voice-agents.md#full-duplex-listening): an agent turn the callee cut short by
-- speaking. A constant default adds the column without rewriting the table.
ALTER TABLE call_transcript_turns ADD COLUMN interrupted boolean NOT NULL DEFAULT false;
