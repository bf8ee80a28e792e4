-- 009_game_analysis.sql (PostgreSQL): computer analysis of finished games, as
-- migrations/009_game_analysis.sql.
CREATE TABLE game_analyses (
    game_id      TEXT PRIMARY KEY REFERENCES games (id),
    requested_by TEXT NOT NULL REFERENCES players (id),
    node         TEXT NOT NULL DEFAULT '',
    positions    BIGINT NOT NULL, -- the game's plies + 1
    nodes        BIGINT NOT NULL, -- search budget per position
    requested_at BIGINT NOT NULL,
    done_at      BIGINT
);

-- The queue: analyses under way, oldest first (the site-wide limit counts them).
CREATE INDEX game_analyses_pending ON game_analyses (requested_at) WHERE done_at IS NULL;

CREATE TABLE analysis_plies (
    game_id TEXT NOT NULL REFERENCES game_analyses (game_id),
    ply     BIGINT NOT NULL, -- the position after this many plies
    score   BIGINT NOT NULL, -- White's view, engine units: centipawns or +-(32000 - mate plies)
    depth   BIGINT NOT NULL, -- 0: the game's final position, not searched
    nodes   BIGINT NOT NULL,
    pv      TEXT NOT NULL,    -- the best line, UCI moves separated by spaces
    PRIMARY KEY (game_id, ply)
);
