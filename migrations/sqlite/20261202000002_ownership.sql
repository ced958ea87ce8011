-- Several nodes on one database (issue 26). A node is alive while its lease, renewed by its
-- heartbeat, lies ahead of the database's clock. A table is played by its owner; each change
-- of owner raises its epoch, and every write of the table's play names the epoch it was
-- claimed at, so a node that lost the table (paused past its lease, partitioned) can write
-- nothing to it.
CREATE TABLE nodes (
    id          TEXT PRIMARY KEY,
    address     TEXT NOT NULL,
    started_ms  BIGINT NOT NULL,
    expires_ms  BIGINT NOT NULL
);

ALTER TABLE game_tables ADD COLUMN owner TEXT;
ALTER TABLE game_tables ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;
CREATE INDEX game_tables_by_owner ON game_tables (owner);
