-- 007_api_tokens.sql (PostgreSQL): personal API access tokens, as
-- migrations/007_api_tokens.sql.
CREATE TABLE api_tokens (
    hash         BYTEA PRIMARY KEY CHECK (length(hash) = 32),
    player_id    TEXT NOT NULL REFERENCES players (id),
    description  TEXT NOT NULL,
    scopes       TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    revoked_at   BIGINT,
    last_used_at BIGINT
);
CREATE INDEX api_tokens_player ON api_tokens (player_id);
