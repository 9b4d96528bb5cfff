-- Conversations, their messages, and a full-text index that keeps thoughts apart from the
-- visible text so a search can include or exclude them. Append-only: later changes go in
-- new files.

CREATE TABLE conversations (
  id          TEXT PRIMARY KEY,
  title       TEXT NOT NULL,
  created_at  INTEGER NOT NULL,           -- milliseconds since the Unix epoch
  updated_at  INTEGER NOT NULL,
  provider    TEXT,
  model       TEXT,
  settings    TEXT NOT NULL DEFAULT '{}', -- ReasoningSettings as JSON, the thinking choice included
  pinned      INTEGER NOT NULL DEFAULT 0,
  archived    INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE messages (
  id               TEXT PRIMARY KEY,
  conversation_id  TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  seq              INTEGER NOT NULL,
  role             TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
  status           TEXT NOT NULL CHECK (status IN ('streaming', 'complete', 'cancelled', 'error', 'interrupted')),
  text             TEXT NOT NULL DEFAULT '',   -- the visible text, for search and previews
  thoughts         TEXT NOT NULL DEFAULT '',   -- the thought text, indexed apart
  parts            TEXT NOT NULL DEFAULT '[]', -- ordered parts with thinking blocks and their metadata (JSON)
  replay           TEXT,                       -- the provider-native turn, tagged with its origin (JSON)
  provider         TEXT,
  model            TEXT,
  choice           TEXT,
  input_tokens     INTEGER,
  output_tokens    INTEGER,
  reasoning_tokens INTEGER,
  cached_tokens    INTEGER,
  thinking_ms      INTEGER,
  stop_reason      TEXT,                       -- StopReason as JSON
  error_code       TEXT,
  error_message    TEXT,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  UNIQUE (conversation_id, seq)
) STRICT;

CREATE INDEX conversations_by_recency ON conversations (pinned DESC, updated_at DESC);
CREATE INDEX messages_streaming ON messages (status) WHERE status = 'streaming';

CREATE VIRTUAL TABLE message_search USING fts5(
  text, thoughts,
  content = 'messages', content_rowid = 'rowid',
  tokenize = 'unicode61 remove_diacritics 2'
);

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
