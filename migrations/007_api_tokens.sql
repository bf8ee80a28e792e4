-- 007_api_tokens.sql: personal API access tokens (docs/protocol.md, "API access tokens"): an
-- account's tokens for the HTTP API, as lichess has them. Each has a description and the scopes
-- it was given, as text ("board:play,bot:play", app/auth.h); like every token, only its hash is
-- kept (BLAKE2b-256 of the token text), and its public id is the first 8 bytes of that hash.
-- revoked_at: when it stopped working (by its owner, or with the account's deletion);
-- last_used_at: the last request made with it (NULL: none recorded).
CREATE TABLE api_tokens (
    hash         BLOB PRIMARY KEY CHECK (length(hash) = 32),
    player_id    TEXT NOT NULL REFERENCES players (id),
    description  TEXT NOT NULL,
    scopes       TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    revoked_at   INTEGER,
    last_used_at INTEGER
) STRICT, WITHOUT ROWID;
CREATE INDEX api_tokens_player ON api_tokens (player_id);
