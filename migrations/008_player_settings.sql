-- 008_player_settings.sql: an account's player settings (docs/protocol.md, "Player settings"):
-- the board and piece set, the site's theme, move confirmation and the like, as one JSON object
-- of known keys that the server checked (app/settings.h) before storing it. One row per
-- account, replaced whole by each settings_set; guests keep their settings in the browser only.
CREATE TABLE player_settings (
    player_id  TEXT PRIMARY KEY REFERENCES players (id),
    settings   TEXT NOT NULL,
    updated_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
