-- 004_live_moves_without_fk.sql: live_moves without its foreign key.
--
-- Every move of a game in progress is one INSERT into live_moves, and the foreign key on
-- game_id made each of them look the game up in the primary key of games: about a quarter of
-- the writer's work per move. The writer checks the same thing in memory instead: it appends a
-- move only for a game whose row it stored, or found live when it started
-- (server/src/store/writer.c, docs/persistence.md). SQLite cannot drop a constraint, so the
-- table is rebuilt, rowids included (the writer finds each live game's rows by rowid). It holds
-- only the moves of games in progress, so this is quick.
CREATE TABLE live_moves_new (
    id        INTEGER PRIMARY KEY,
    game_id   TEXT NOT NULL,                   -- games (id), checked by the writer
    ply       INTEGER NOT NULL CHECK (ply >= 1),  -- 1: White's first move
    uci       TEXT NOT NULL,
    san       TEXT NOT NULL,
    clock_ms  INTEGER,                         -- the mover's time left after the move (NULL: no clock)
    spent_ms  INTEGER,                         -- time charged for the move
    played_at INTEGER NOT NULL
) STRICT;
INSERT INTO live_moves_new (id, game_id, ply, uci, san, clock_ms, spent_ms, played_at)
    SELECT id, game_id, ply, uci, san, clock_ms, spent_ms, played_at FROM live_moves;
DROP TABLE live_moves;
ALTER TABLE live_moves_new RENAME TO live_moves;
