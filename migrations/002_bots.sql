-- 002_bots.sql: bot accounts (docs/bots.md).
--
-- A registered player creates bot accounts and owns them: players.owner_id names the owner of
-- a bot (NULL for everyone else). A bot has a username but no password; it is identified only
-- by its tokens (tokens.kind = 'bot'), which its owner creates and revokes.
ALTER TABLE players ADD COLUMN owner_id TEXT REFERENCES players (id);
CREATE INDEX players_owner ON players (owner_id) WHERE owner_id IS NOT NULL;
