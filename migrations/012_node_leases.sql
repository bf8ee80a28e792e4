-- 012_node_leases.sql: the leases of a site's nodes (docs/scaling.md, "When a node dies"). A node
-- of a site holds the lease on its own row while it runs: it takes it at start (generation + 1)
-- and renews it (renewed_at) with every transaction it commits, in that transaction, only while
-- the generation is still the one it took. Another node that finds a lease not renewed for a
-- while takes it (generation + 1) and the node's games in progress with it, in one transaction;
-- from then on every transaction of the old holder fails (fencing), so it can never write to a
-- game that was taken over. renewed_at is Unix ms by the clock of the host the nodes share.
CREATE TABLE node_leases (
    node TEXT PRIMARY KEY,
    generation INTEGER NOT NULL CHECK (generation > 0),
    renewed_at INTEGER NOT NULL,
    taken_by TEXT -- the node that took it last, or NULL while its own node holds it
);
