-- 004_live_moves_without_fk.sql (PostgreSQL): live_moves without its foreign key, as
-- migrations/004_live_moves_without_fk.sql: the writer checks in memory that a move's game is
-- stored and live (docs/persistence.md).
ALTER TABLE live_moves DROP CONSTRAINT live_moves_game_id_fkey;
