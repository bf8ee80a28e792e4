-- 013_arenas.sql: arena tournaments (docs/tournaments.md). An arena belongs to the node that
-- created it (node, as games.node: '' for a single server); creator is NULL for the operator's
-- scheduled arenas. Its players in joining order (seq), withdrawn or not; each game of an arena
-- names it (games.arena_id) and keeps its sides' berserk, so that a restart recomputes the
-- standings by replaying the arena's finished games in the order they ended.
CREATE TABLE arenas (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    creator      TEXT,
    node         TEXT NOT NULL DEFAULT '',
    initial_ms   INTEGER NOT NULL,
    increment_ms INTEGER NOT NULL,
    rated        INTEGER NOT NULL,
    starts_at    INTEGER NOT NULL, -- Unix ms
    minutes      INTEGER NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('created', 'started', 'finished')),
    created_at   INTEGER NOT NULL
) STRICT;
CREATE INDEX arenas_node ON arenas (node, status, created_at);

CREATE TABLE arena_players (
    arena_id  TEXT NOT NULL REFERENCES arenas (id),
    player_id TEXT NOT NULL,
    name      TEXT NOT NULL,
    rating    INTEGER NOT NULL, -- in the arena's category when it joined
    seq       INTEGER NOT NULL, -- joining order, from 1
    paused    INTEGER NOT NULL DEFAULT 0,
    joined_at INTEGER NOT NULL,
    PRIMARY KEY (arena_id, player_id)
) STRICT, WITHOUT ROWID;

ALTER TABLE games ADD COLUMN arena_id TEXT;
ALTER TABLE games ADD COLUMN berserk_white INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN berserk_black INTEGER NOT NULL DEFAULT 0;
CREATE INDEX games_arena ON games (arena_id, ended_at) WHERE arena_id IS NOT NULL;
