-- A conversation's totals (shown in its header, read each time it is opened) add up the time
-- its answers spent thinking, and that column was not in the figures index: the sum read every
-- answer's row from the table, a page of its own each (5,000 answers: 26 ms warm; from the
-- index alone 1 ms).

DROP INDEX messages_figures;
CREATE INDEX messages_figures ON messages (
  conversation_id, role, deleted_at, provider, model,
  input_tokens, output_tokens, reasoning_tokens, cached_tokens, thinking_ms
);
