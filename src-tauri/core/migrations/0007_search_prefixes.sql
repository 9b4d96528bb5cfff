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
