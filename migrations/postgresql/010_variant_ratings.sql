-- 010_variant_ratings.sql: rating categories for correspondence and the variants
-- (server/src/core/rating.h), as in the SQLite migration of the same number.
ALTER TABLE ratings DROP CONSTRAINT ratings_category_check;
ALTER TABLE ratings ADD CONSTRAINT ratings_category_check
    CHECK (category IN ('bullet', 'blitz', 'rapid', 'classical', 'correspondence', 'chess960',
                        'kingOfTheHill', 'threeCheck'));
