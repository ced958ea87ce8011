-- The action log's index by hand goes (SQLite's log is rebuilt around its key in its own
-- migration of this number). Every accepted action is one row, committed before the action is
-- shown to anyone, and each index is one more page to change and log per append. A table's
-- actions from a given hand on are read (at a restore) through the primary key's prefix, the
-- table's own rows in order, which a match's few thousand rows make a short read.
DROP INDEX room_actions_by_hand;
