-- Search as you type looks words up by their start. Without a prefix index FTS5 answers
-- "re*" by merging the entries of every word that starts with "re" before it can return a
-- single row: over a long history that is most of the index, hundreds of milliseconds. With
-- the starts of two, three and four characters indexed as terms of their own, such a query
-- reads one term from its newest end and stops at the limit. The index grows by about a
-- quarter; the text itself is not copied (the table still reads it from `messages`).
--
-- FTS5 cannot add a prefix index to an existing table: it is made again and rebuilt from
-- the messages. The triggers that keep it current refer to it by name and carry on.

DROP TABLE message_search;

CREATE VIRTUAL TABLE message_search USING fts5(
  text, thoughts,
  content = 'messages', content_rowid = 'rowid',
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2 3 4'
);

INSERT INTO message_search (message_search) VALUES ('rebuild');

-- Opening a conversation walks its path from the shown message up through the parents, and
-- reads which messages are versions of each other and what its answers cost. Those columns
-- sit after the text and thoughts in each row, so reading them from the table walks every
-- long row's overflow pages (26 ms for a 2,000-message thread); from these indexes it reads
-- none.
CREATE INDEX messages_parents ON messages (id, parent_id);
CREATE INDEX messages_tree ON messages (conversation_id, seq, id, parent_id, deleted_at);
CREATE INDEX messages_figures ON messages (
  conversation_id, role, deleted_at, provider, model,
  input_tokens, output_tokens, reasoning_tokens, cached_tokens
);
