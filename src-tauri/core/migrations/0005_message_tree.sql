-- Every version is kept: messages form a tree. A regenerated answer is a sibling of the one
-- before it (the same parent question); an edited question is a sibling of the original.
-- The conversation shows one path through the tree, from its first message to `leaf_id`.
-- A deleted branch is marked, not removed, so it can be brought back; the marked rows are
-- removed when the history is next opened.
--
-- The history so far is one branch: each message's parent is the message before it.

ALTER TABLE messages ADD COLUMN parent_id TEXT REFERENCES messages(id) ON DELETE CASCADE;
ALTER TABLE messages ADD COLUMN deleted_at INTEGER;
ALTER TABLE conversations ADD COLUMN leaf_id TEXT;

UPDATE messages SET parent_id = (
  SELECT p.id FROM messages p
   WHERE p.conversation_id = messages.conversation_id AND p.seq < messages.seq
   ORDER BY p.seq DESC LIMIT 1
);

UPDATE conversations SET leaf_id = (
  SELECT m.id FROM messages m WHERE m.conversation_id = conversations.id ORDER BY m.seq DESC LIMIT 1
);

CREATE INDEX messages_by_parent ON messages (parent_id);
