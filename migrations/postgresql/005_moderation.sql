-- 005_moderation.sql (PostgreSQL): moderation, as migrations/005_moderation.sql
-- (docs/moderation.md).
ALTER TABLE players ADD COLUMN is_admin INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1));
ALTER TABLE players ADD COLUMN muted_at BIGINT;
ALTER TABLE players ADD COLUMN banned_at BIGINT;
ALTER TABLE players ADD COLUMN closed_at BIGINT;

CREATE TABLE blocks (
    player_id  TEXT NOT NULL REFERENCES players (id),
    blocked_id TEXT NOT NULL REFERENCES players (id),
    created_at BIGINT NOT NULL,
    PRIMARY KEY (player_id, blocked_id)
);

CREATE TABLE reports (
    id          BIGSERIAL PRIMARY KEY,
    reporter_id TEXT NOT NULL REFERENCES players (id),
    target_id   TEXT NOT NULL REFERENCES players (id),
    kind        TEXT NOT NULL CHECK (kind IN ('cheat', 'abuse', 'spam', 'other')),
    text        TEXT NOT NULL,
    game_id     TEXT,
    created_at  BIGINT NOT NULL,
    closed_at   BIGINT,
    closed_by   TEXT REFERENCES players (id),
    note        TEXT
);
CREATE UNIQUE INDEX reports_open_pair ON reports (reporter_id, target_id) WHERE closed_at IS NULL;
CREATE INDEX reports_open ON reports (created_at) WHERE closed_at IS NULL;

CREATE TABLE mod_log (
    id           BIGSERIAL PRIMARY KEY,
    at           BIGINT NOT NULL,
    moderator_id TEXT REFERENCES players (id),
    action       TEXT NOT NULL,
    target_id    TEXT REFERENCES players (id),
    report_id    BIGINT REFERENCES reports (id),
    note         TEXT NOT NULL
);
CREATE INDEX mod_log_target ON mod_log (target_id, id);
