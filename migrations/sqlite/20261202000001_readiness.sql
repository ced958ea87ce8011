-- One row that the readiness probe (`GET /readyz`) writes: a server is ready only when its
-- database takes a write, which a reachable but read-only or broken database does not.
CREATE TABLE readiness (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    checked_ms BIGINT NOT NULL
);
