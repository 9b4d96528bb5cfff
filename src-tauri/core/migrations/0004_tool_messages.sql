-- Tool results are messages of their own (role 'tool'), between the assistant's step that
-- called the tools and its next step. SQLite cannot change a CHECK constraint in place, so the
-- table is rebuilt with its rows (and their rowids, which the search index refers to) as they
-- were.

CREATE TABLE messages_v4 (
  id               TEXT PRIMARY KEY,
  conversation_id  TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  seq              INTEGER NOT NULL,
  role             TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
  status           TEXT NOT NULL CHECK (status IN ('streaming', 'complete', 'cancelled', 'error', 'interrupted')),
  text             TEXT NOT NULL DEFAULT '',
  thoughts         TEXT NOT NULL DEFAULT '',
  parts            TEXT NOT NULL DEFAULT '[]',
  replay           TEXT,
  provider         TEXT,
  model            TEXT,
  choice           TEXT,
  input_tokens     INTEGER,
  output_tokens    INTEGER,
  reasoning_tokens INTEGER,
  cached_tokens    INTEGER,
  thinking_ms      INTEGER,
  stop_reason      TEXT,
  error_code       TEXT,
  error_message    TEXT,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  run_owner        TEXT,
  notes            TEXT NOT NULL DEFAULT '[]',
  UNIQUE (conversation_id, seq)
) STRICT;

INSERT INTO messages_v4 (rowid, id, conversation_id, seq, role, status, text, thoughts, parts,
  replay, provider, model, choice, input_tokens, output_tokens, reasoning_tokens, cached_tokens,
  thinking_ms, stop_reason, error_code, error_message, created_at, updated_at, run_owner, notes)
SELECT rowid, id, conversation_id, seq, role, status, text, thoughts, parts,
  replay, provider, model, choice, input_tokens, output_tokens, reasoning_tokens, cached_tokens,
  thinking_ms, stop_reason, error_code, error_message, created_at, updated_at, run_owner, notes
FROM messages;

DROP TABLE messages;
ALTER TABLE messages_v4 RENAME TO messages;

CREATE INDEX messages_streaming ON messages (status) WHERE status = 'streaming';

CREATE TRIGGER messages_search_insert AFTER INSERT ON messages BEGIN
  INSERT INTO message_search (rowid, text, thoughts) VALUES (new.rowid, new.text, new.thoughts);
END;

CREATE TRIGGER messages_search_delete AFTER DELETE ON messages BEGIN
  INSERT INTO message_search (message_search, rowid, text, thoughts) VALUES ('delete', old.rowid, old.text, old.thoughts);
END;

CREATE TRIGGER messages_search_update AFTER UPDATE OF text, thoughts ON messages BEGIN
  INSERT INTO message_search (message_search, rowid, text, thoughts) VALUES ('delete', old.rowid, old.text, old.thoughts);
  INSERT INTO message_search (rowid, text, thoughts) VALUES (new.rowid, new.text, new.thoughts);
END;
