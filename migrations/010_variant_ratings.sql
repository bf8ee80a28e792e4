-- 010_variant_ratings.sql: rating categories for correspondence and the variants.
--
-- The ratings table's CHECK named the four speeds of standard chess; lichess keeps a rating per
-- variant too (server/src/core/rating.h). SQLite cannot change a constraint, so the table is
-- rebuilt with the same rows and index.
CREATE TABLE ratings_new (
    player_id  TEXT NOT NULL REFERENCES players (id),
    category   TEXT NOT NULL CHECK (category IN ('bullet', 'blitz', 'rapid', 'classical',
                                                 'correspondence', 'chess960', 'kingOfTheHill',
                                                 'threeCheck')),
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (player_id, category)
) STRICT, WITHOUT ROWID;
INSERT INTO ratings_new (player_id, category, rating, deviation, volatility, games, updated_at)
    SELECT player_id, category, rating, deviation, volatility, games, updated_at FROM ratings;
DROP TABLE ratings;
ALTER TABLE ratings_new RENAME TO ratings;
CREATE INDEX ratings_board ON ratings (category, rating DESC);
