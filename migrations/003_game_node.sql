-- Several nodes, one site (docs/scaling.md): the nodes of a site share this database, and each
-- restores only the games in progress it owns. '' is a single server's (or a game from before).
ALTER TABLE games ADD COLUMN node TEXT NOT NULL DEFAULT '';
