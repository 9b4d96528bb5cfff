-- A message is added to the search index once it is finished, not each time it changes.
--
-- While an answer streams its row is written every half second, and at the end once more:
-- each write used to take its old text and thoughts out of the index and put the new ones in,
-- tokenizing a long thought (megabytes, four index terms per word with the prefixes) again and
-- again, and the last time inside the write that ends the turn. Now a changed row leaves the
-- index once, with the values it was indexed with, and waits here; `Store::index_pending`
-- indexes the waiting rows that are no longer streaming, and every search does that first,
-- so a search never misses a finished message. New rows are still indexed as they are
-- inserted: they are small (a question, an empty answer about to stream) or complete (an
-- import), and indexing them at once keeps a bulk import one pass.
--
-- Invariant: a message is in the index, with its current text and thoughts, exactly when its
-- rowid is not in this table.

CREATE TABLE search_pending (
  message_rowid INTEGER PRIMARY KEY
) STRICT;

DROP TRIGGER messages_search_update;
DROP TRIGGER messages_search_delete;

CREATE TRIGGER messages_search_update AFTER UPDATE OF text, thoughts ON messages
WHEN NOT EXISTS (SELECT 1 FROM search_pending WHERE message_rowid = old.rowid) BEGIN
  INSERT INTO message_search (message_search, rowid, text, thoughts) VALUES ('delete', old.rowid, old.text, old.thoughts);
  INSERT INTO search_pending (message_rowid) VALUES (new.rowid);
END;

CREATE TRIGGER messages_search_delete AFTER DELETE ON messages BEGIN
  INSERT INTO message_search (message_search, rowid, text, thoughts)
    SELECT 'delete', old.rowid, old.text, old.thoughts
     WHERE NOT EXISTS (SELECT 1 FROM search_pending WHERE message_rowid = old.rowid);
  DELETE FROM search_pending WHERE message_rowid = old.rowid;
END;
