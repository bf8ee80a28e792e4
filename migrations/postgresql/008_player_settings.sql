-- 008_player_settings.sql (PostgreSQL): an account's player settings, as
-- migrations/008_player_settings.sql.
CREATE TABLE player_settings (
    player_id  TEXT PRIMARY KEY REFERENCES players (id),
    settings   TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
