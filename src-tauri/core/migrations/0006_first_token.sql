-- How long an answer took to start: milliseconds from the request to the first thought, text
-- or tool call that came back. Shown beside thinking and total time when answers are compared.

ALTER TABLE messages ADD COLUMN first_token_ms INTEGER;
