-- What Ponder told the user about a turn when it was sent: how the thinking level was read
-- ("Thinking: high (64,000 tokens, reduced to 10,000 because …)"), warnings such as "thinking
-- support unknown", and how the history was sent. A JSON array of lines, shown with the answer.

ALTER TABLE messages ADD COLUMN notes TEXT NOT NULL DEFAULT '[]';
