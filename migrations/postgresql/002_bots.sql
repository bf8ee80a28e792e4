-- 002_bots.sql (PostgreSQL): bot accounts, as migrations/002_bots.sql.
ALTER TABLE players ADD COLUMN owner_id TEXT REFERENCES players (id);
CREATE INDEX players_owner ON players (owner_id) WHERE owner_id IS NOT NULL;
