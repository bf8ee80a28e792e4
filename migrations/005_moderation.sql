-- 005_moderation.sql: moderation (docs/moderation.md).
--
-- players.is_admin: a moderator (the first registered account, or the accounts named by
-- --admin). muted_at: muted in chat since then (wall ms), until unmuted. banned_at: the player may not connect
-- (its tokens and logins are refused) until unbanned. closed_at: an account closed by a
-- moderator: banned, and gone from leaderboards.
ALTER TABLE players ADD COLUMN is_admin INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1));
ALTER TABLE players ADD COLUMN muted_at INTEGER;
ALTER TABLE players ADD COLUMN banned_at INTEGER;
ALTER TABLE players ADD COLUMN closed_at INTEGER;

-- A player's blocks: blocked_id may not challenge player_id, nor be paired with it, and its chat
-- lines are not shown to player_id.
CREATE TABLE blocks (
    player_id  TEXT NOT NULL REFERENCES players (id),
    blocked_id TEXT NOT NULL REFERENCES players (id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (player_id, blocked_id)
) STRICT, WITHOUT ROWID;

-- Reports of players by players, reviewed by moderators. One open report per reporter and
-- target: reporting again replaces its text.
CREATE TABLE reports (
    id          INTEGER PRIMARY KEY,
    reporter_id TEXT NOT NULL REFERENCES players (id),
    target_id   TEXT NOT NULL REFERENCES players (id),
    kind        TEXT NOT NULL CHECK (kind IN ('cheat', 'abuse', 'spam', 'other')),
    text        TEXT NOT NULL,
    game_id     TEXT,
    created_at  INTEGER NOT NULL,
    closed_at   INTEGER,
    closed_by   TEXT REFERENCES players (id),
    note        TEXT
) STRICT;
CREATE UNIQUE INDEX reports_open_pair ON reports (reporter_id, target_id) WHERE closed_at IS NULL;
CREATE INDEX reports_open ON reports (created_at) WHERE closed_at IS NULL;

-- Every moderator action, with who did it: written in the same transaction as the action.
CREATE TABLE mod_log (
    id           INTEGER PRIMARY KEY,
    at           INTEGER NOT NULL,
    moderator_id TEXT REFERENCES players (id), -- NULL: the server (--admin at start)
    action       TEXT NOT NULL,
    target_id    TEXT REFERENCES players (id),
    report_id    INTEGER REFERENCES reports (id),
    note         TEXT NOT NULL
) STRICT;
CREATE INDEX mod_log_target ON mod_log (target_id, id);
