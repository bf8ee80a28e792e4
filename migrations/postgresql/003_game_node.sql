-- 003_game_node.sql (PostgreSQL): the node that owns a game in progress, as
-- migrations/003_game_node.sql.
ALTER TABLE games ADD COLUMN node TEXT NOT NULL DEFAULT '';
