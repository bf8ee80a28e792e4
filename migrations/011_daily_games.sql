-- 011_daily_games.sql: daily (correspondence) games, N days per move (core/game.h). days is
-- NULL for a game with a clock or none. A daily game's initial_ms and increment_ms are 0, and
-- the clock_ms of its moves (live_moves, moves) is the deadline the move set for the opponent,
-- in wall ms, so that a restart restores it exactly (core/restore.h).
ALTER TABLE games ADD COLUMN days INTEGER CHECK (days IS NULL OR days IN (1, 2, 3, 5, 7, 14));
