-- 012_node_leases.sql (PostgreSQL): the leases of a site's nodes, as
-- migrations/012_node_leases.sql. renewed_at is Unix ms by the database server's clock, so the
-- nodes' clocks never matter.
CREATE TABLE node_leases (
    node TEXT PRIMARY KEY,
    generation BIGINT NOT NULL CHECK (generation > 0),
    renewed_at BIGINT NOT NULL,
    taken_by TEXT
);

-- Renews node's lease held at generation gen; raises SQLSTATE CH001 when it is not held (taken
-- over): the transaction it opens fails, and nothing of it is written. One statement, so that
-- it can be pipelined at the start of every transaction of the node's writer.
CREATE FUNCTION chess_lease_renew(node_id TEXT, gen BIGINT) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE node_leases
       SET renewed_at = (extract(epoch FROM clock_timestamp()) * 1000)::bigint
     WHERE node = node_id AND generation = gen;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'the lease of node % (generation %) was taken over', node_id, gen
            USING ERRCODE = 'CH001';
    END IF;
END
$$;
