-- 006_account_sessions.sql (PostgreSQL): sessions an account can list and end, and accounts
-- their owners delete, as migrations/006_account_sessions.sql.
ALTER TABLE tokens ADD COLUMN last_seen_at BIGINT;
ALTER TABLE players ADD COLUMN deleted_at BIGINT;
CREATE INDEX chat_player ON chat (player_id);
