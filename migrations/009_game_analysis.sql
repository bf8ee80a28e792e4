-- 009_game_analysis.sql: computer analysis of finished games (docs/analysis.md). One row per
-- game whose analysis was asked for, done or under way (done_at NULL), owned by the node that
-- runs it; one row per position searched, kept as the engine gave it so that judgements can be
-- recomputed from the numbers.
CREATE TABLE game_analyses (
    game_id      TEXT PRIMARY KEY REFERENCES games (id),
    requested_by TEXT NOT NULL REFERENCES players (id),
    node         TEXT NOT NULL DEFAULT '',
    positions    INTEGER NOT NULL, -- the game's plies + 1
    nodes        INTEGER NOT NULL, -- search budget per position
    requested_at INTEGER NOT NULL,
    done_at      INTEGER
) STRICT, WITHOUT ROWID;

-- The queue: analyses under way, oldest first (the site-wide limit counts them).
CREATE INDEX game_analyses_pending ON game_analyses (requested_at) WHERE done_at IS NULL;

CREATE TABLE analysis_plies (
    game_id TEXT NOT NULL REFERENCES game_analyses (game_id),
    ply     INTEGER NOT NULL, -- the position after this many plies
    score   INTEGER NOT NULL, -- White's view, engine units: centipawns or +-(32000 - mate plies)
    depth   INTEGER NOT NULL, -- 0: the game's final position, not searched
    nodes   INTEGER NOT NULL,
    pv      TEXT NOT NULL,    -- the best line, UCI moves separated by spaces
    PRIMARY KEY (game_id, ply)
) STRICT, WITHOUT ROWID;
