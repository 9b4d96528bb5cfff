-- The project a conversation belongs to, by name: what Claude's and ChatGPT's projects become
-- when their exports are imported, so that the sidebar can show one project's conversations.
-- Null for a conversation in none.

ALTER TABLE conversations ADD COLUMN project TEXT;
