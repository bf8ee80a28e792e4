-- 006_account_sessions.sql: sessions an account can list and end, and accounts their owners
-- delete (docs/protocol.md, "Accounts").
--
-- tokens.last_seen_at: the last hello with this session token (NULL: never seen since this
-- column exists). players.deleted_at: set when the owner deleted the account; the row stays as a
-- tombstone whose username keeps the name reserved (the unique index), with no password and the
-- name "[deleted]", and its games, chat lines and ratings no longer point to it.
ALTER TABLE tokens ADD COLUMN last_seen_at INTEGER;
ALTER TABLE players ADD COLUMN deleted_at INTEGER;
-- Deleting an account anonymises its chat lines, found by player.
CREATE INDEX chat_player ON chat (player_id);
