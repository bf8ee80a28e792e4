-- 013_arenas.sql (PostgreSQL): arena tournaments, as migrations/013_arenas.sql.
CREATE TABLE arenas (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    creator      TEXT,
    node         TEXT NOT NULL DEFAULT '',
    initial_ms   BIGINT NOT NULL,
    increment_ms BIGINT NOT NULL,
    rated        INTEGER NOT NULL CHECK (rated IN (0, 1)),
    starts_at    BIGINT NOT NULL, -- Unix ms
    minutes      BIGINT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('created', 'started', 'finished')),
    created_at   BIGINT NOT NULL
);
CREATE INDEX arenas_node ON arenas (node, status, created_at);

CREATE TABLE arena_players (
    arena_id  TEXT NOT NULL REFERENCES arenas (id),
    player_id TEXT NOT NULL,
    name      TEXT NOT NULL,
    rating    BIGINT NOT NULL, -- in the arena's category when it joined
    seq       BIGINT NOT NULL, -- joining order, from 1
    paused    INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
    joined_at BIGINT NOT NULL,
    PRIMARY KEY (arena_id, player_id)
);

ALTER TABLE games ADD COLUMN arena_id TEXT;
ALTER TABLE games ADD COLUMN berserk_white INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN berserk_black INTEGER NOT NULL DEFAULT 0;
CREATE INDEX games_arena ON games (arena_id, ended_at) WHERE arena_id IS NOT NULL;
