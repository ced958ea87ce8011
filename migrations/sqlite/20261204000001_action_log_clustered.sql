-- The action log kept in one b-tree, ordered by its key (table, seq). Every accepted action is
-- one row, committed before the action is shown to anyone, so the rows a commit touches are
-- what a busy server's disk writes are made of. As a rowid table with two indexes, each append
-- changed three b-trees (the rows by rowid, the key's index, and the index by hand): three
-- pages to write and sync, and in the write-ahead log three frames to copy back at every
-- checkpoint. Without a rowid the key is the table, and the index by hand goes: a table's
-- actions from a given hand on are read (at a restore) by the key's prefix, the table's own
-- rows in order, which a match's few thousand rows make a short read.
CREATE TABLE room_actions_clustered (
    table_id TEXT NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    seq      BIGINT NOT NULL CHECK (seq >= 0),
    hand_no  BIGINT NOT NULL,
    seat     SMALLINT NOT NULL,
    action   TEXT NOT NULL,
    at_ms    BIGINT NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;

INSERT INTO room_actions_clustered (table_id, seq, hand_no, seat, action, at_ms)
SELECT table_id, seq, hand_no, seat, action, at_ms FROM room_actions;

DROP TABLE room_actions;

ALTER TABLE room_actions_clustered RENAME TO room_actions;
