-- 001_init.sql (PostgreSQL): the first schema, with the meaning of migrations/001_init.sql.
--
-- The PostgreSQL backend's migrations (server/src/store/pg_migrate.c) mirror the SQLite files
-- of migrations/ number for number: the same tables, columns and values, in PostgreSQL's types.
-- They are applied at startup, in order, all pending ones inside one transaction together with
-- the row of schema_version. A file is never edited once released.
--
-- Times are Unix milliseconds (BIGINT). Flags stay integers 0/1 as in SQLite, so the queries
-- read the same on both backends.

CREATE TABLE players (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    username      TEXT UNIQUE,
    password_hash TEXT,
    is_bot        INTEGER NOT NULL DEFAULT 0 CHECK (is_bot IN (0, 1)),
    created_at    BIGINT NOT NULL,
    registered_at BIGINT
);

CREATE TABLE tokens (
    hash       BYTEA PRIMARY KEY CHECK (length(hash) = 32),
    player_id  TEXT NOT NULL REFERENCES players (id),
    kind       TEXT NOT NULL CHECK (kind IN ('session', 'bot')),
    label      TEXT,
    created_at BIGINT NOT NULL,
    revoked_at BIGINT
);
CREATE INDEX tokens_player ON tokens (player_id);

CREATE TABLE ratings (
    player_id  TEXT NOT NULL REFERENCES players (id),
    category   TEXT NOT NULL CHECK (category IN ('bullet', 'blitz', 'rapid', 'classical')),
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      INTEGER NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (player_id, category)
);
CREATE INDEX ratings_board ON ratings (category, rating DESC);

CREATE TABLE games (
    id                TEXT PRIMARY KEY,
    variant           TEXT NOT NULL DEFAULT 'standard',
    initial_fen       TEXT,
    white_id          TEXT REFERENCES players (id),
    black_id          TEXT REFERENCES players (id),
    white_name        TEXT NOT NULL,
    black_name        TEXT NOT NULL,
    white_level       INTEGER,
    black_level       INTEGER,
    initial_ms        BIGINT,
    increment_ms      BIGINT,
    category          TEXT,
    rated             INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
    status            TEXT NOT NULL CHECK (status IN ('live', 'ended', 'imported')),
    result            TEXT,
    termination       TEXT,
    ply_count         INTEGER,
    created_at        BIGINT NOT NULL,
    ended_at          BIGINT,
    white_rating      INTEGER,
    black_rating      INTEGER,
    white_rating_diff INTEGER,
    black_rating_diff INTEGER,
    pgn               TEXT
);
CREATE INDEX games_white ON games (white_id, created_at DESC);
CREATE INDEX games_black ON games (black_id, created_at DESC);
CREATE INDEX games_live ON games (status) WHERE status = 'live';

-- live_moves: the moves of games in progress. SQLite keeps them in rowid order (append-only)
-- and the writer remembers each game's rowids; here the table's key is (game_id, ply), so a
-- takeback or a game's end finds a game's rows by the index. moves: the archive.
CREATE TABLE live_moves (
    game_id   TEXT NOT NULL REFERENCES games (id),
    ply       INTEGER NOT NULL CHECK (ply >= 1),
    uci       TEXT NOT NULL,
    san       TEXT NOT NULL,
    clock_ms  BIGINT,
    spent_ms  BIGINT,
    played_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE moves (
    game_id   TEXT NOT NULL REFERENCES games (id),
    ply       INTEGER NOT NULL CHECK (ply >= 1),
    uci       TEXT NOT NULL,
    san       TEXT NOT NULL,
    clock_ms  BIGINT,
    spent_ms  BIGINT,
    played_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE chat (
    id        BIGSERIAL PRIMARY KEY,
    game_id   TEXT NOT NULL REFERENCES games (id),
    room      TEXT NOT NULL CHECK (room IN ('players', 'spectators')),
    player_id TEXT NOT NULL,
    name      TEXT NOT NULL,
    text      TEXT NOT NULL,
    sent_at   BIGINT NOT NULL
);
CREATE INDEX chat_game ON chat (game_id, id);
