-- 001_init.sql: the first schema.
--
-- Migrations are applied by the server at startup (server/src/store/migrate.c), in order, all
-- pending ones inside one transaction together with PRAGMA user_version. A file is never edited
-- once released: change the schema with a new numbered file.
--
-- Times are Unix milliseconds (wall clock). Ids are the server's base62 ids. Connection settings
-- (WAL, synchronous, foreign keys) are set by the server on every connection, not here.

-- Guests, registered accounts and bots. A guest who registers keeps its row (and so its games):
-- username and password_hash are filled in.
CREATE TABLE players (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL,               -- shown name: "Guest12345" or the username
    username      TEXT UNIQUE,                 -- lower-case login name; NULL for guests
    password_hash TEXT,                        -- Argon2id, libsodium crypto_pwhash_str format
    is_bot        INTEGER NOT NULL DEFAULT 0 CHECK (is_bot IN (0, 1)),
    created_at    INTEGER NOT NULL,
    registered_at INTEGER
) STRICT;

-- Secrets that identify a player: session tokens (guests and logged-in accounts) and bot
-- tokens. Only a hash is kept (BLAKE2b-256 of the token text; tokens are random, 190 bits).
CREATE TABLE tokens (
    hash       BLOB PRIMARY KEY CHECK (length(hash) = 32),
    player_id  TEXT NOT NULL REFERENCES players (id),
    kind       TEXT NOT NULL CHECK (kind IN ('session', 'bot')),
    label      TEXT,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
) STRICT, WITHOUT ROWID;
CREATE INDEX tokens_player ON tokens (player_id);

-- Glicko-2 ratings per category (server/src/core/rating.h).
CREATE TABLE ratings (
    player_id  TEXT NOT NULL REFERENCES players (id),
    category   TEXT NOT NULL CHECK (category IN ('bullet', 'blitz', 'rapid', 'classical')),
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (player_id, category)
) STRICT, WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings (category, rating DESC);

-- Games: live ones (restored at startup), ended ones (the archive) and imported PGN games
-- (no players: names only).
CREATE TABLE games (
    id                TEXT PRIMARY KEY,
    variant           TEXT NOT NULL DEFAULT 'standard',
    initial_fen       TEXT,                    -- NULL: the standard start
    white_id          TEXT REFERENCES players (id),
    black_id          TEXT REFERENCES players (id),
    white_name        TEXT NOT NULL,
    black_name        TEXT NOT NULL,
    white_level       INTEGER,                 -- the computer's level when it plays this side
    black_level       INTEGER,
    initial_ms        INTEGER,                 -- NULL: no clock
    increment_ms      INTEGER,
    category          TEXT,                    -- bullet, blitz, rapid, classical; NULL: no clock
    rated             INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
    status            TEXT NOT NULL CHECK (status IN ('live', 'ended', 'imported')),
    result            TEXT,                    -- 1-0, 0-1, 1/2-1/2 or * (aborted); NULL: live
    termination       TEXT,                    -- chess_termination_name(): checkmate, timeout...
    ply_count         INTEGER,                 -- set when the game ends (live: count live_moves)
    created_at        INTEGER NOT NULL,
    ended_at          INTEGER,
    white_rating      INTEGER,                 -- rated games: the ratings before the game
    black_rating      INTEGER,
    white_rating_diff INTEGER,                 -- and the change it brought
    black_rating_diff INTEGER,
    pgn               TEXT                     -- imported games: the text as it was given
) STRICT;
CREATE INDEX games_white ON games (white_id, created_at DESC);
CREATE INDEX games_black ON games (black_id, created_at DESC);
CREATE INDEX games_live ON games (status) WHERE status = 'live';

-- Moves are committed before they are announced, in two tables:
-- live_moves: the moves of games in progress, in the order they were played. Rowid order makes
-- it append-only, so one group commit of moves from a thousand games writes a few pages at its
-- end (a table ordered by game would take one page per game: several times the I/O per commit).
-- moves: the archive, ordered by game. A game's moves go from live_moves to moves in the same
-- transaction that ends it (imported games go straight here).
CREATE TABLE live_moves (
    id        INTEGER PRIMARY KEY,
    game_id   TEXT NOT NULL REFERENCES games (id),
    ply       INTEGER NOT NULL CHECK (ply >= 1),  -- 1: White's first move
    uci       TEXT NOT NULL,
    san       TEXT NOT NULL,
    clock_ms  INTEGER,                         -- the mover's time left after the move (NULL: no clock)
    spent_ms  INTEGER,                         -- time charged for the move
    played_at INTEGER NOT NULL
) STRICT;

CREATE TABLE moves (
    game_id   TEXT NOT NULL REFERENCES games (id),
    ply       INTEGER NOT NULL CHECK (ply >= 1),
    uci       TEXT NOT NULL,
    san       TEXT NOT NULL,
    clock_ms  INTEGER,
    spent_ms  INTEGER,
    played_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) STRICT, WITHOUT ROWID;

-- Game chat, both rooms. player_id is not a reference: spectators may be guests never stored.
CREATE TABLE chat (
    id        INTEGER PRIMARY KEY,
    game_id   TEXT NOT NULL REFERENCES games (id),
    room      TEXT NOT NULL CHECK (room IN ('players', 'spectators')),
    player_id TEXT NOT NULL,
    name      TEXT NOT NULL,
    text      TEXT NOT NULL,
    sent_at   INTEGER NOT NULL
) STRICT;
CREATE INDEX chat_game ON chat (game_id, id);
