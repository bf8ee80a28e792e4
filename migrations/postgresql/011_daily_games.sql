-- 011_daily_games.sql (PostgreSQL): daily (correspondence) games, as
-- migrations/011_daily_games.sql.
ALTER TABLE games ADD COLUMN days BIGINT CHECK (days IS NULL OR days IN (1, 2, 3, 5, 7, 14));
