-- The first schema. Times are Unix milliseconds (UTC) and JSON is stored as text, the same on
-- both backends, so every query means the same thing on PostgreSQL and on SQLite.

CREATE TABLE players (
    id           TEXT PRIMARY KEY,
    display_name TEXT NOT NULL,
    created_ms   BIGINT NOT NULL
);

-- Only the SHA-256 of a session token is kept: a leaked database grants no sessions.
CREATE TABLE sessions (
    token_hash BLOB PRIMARY KEY CHECK (length(token_hash) = 32),
    player_id  TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE INDEX sessions_by_player ON sessions (player_id);
CREATE INDEX sessions_by_expiry ON sessions (expires_ms);

-- A table (桌) plays hands in sequence; `carried` is what the next hand inherits (dealer,
-- streaks, scores, the Shanghai 荒番 counter), written with each finished hand.
CREATE TABLE game_tables (
    id           TEXT PRIMARY KEY,
    ruleset      TEXT NOT NULL,
    options      TEXT NOT NULL,
    seats        TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('open', 'playing', 'finished', 'closed')),
    carried      TEXT NOT NULL,
    hands_played BIGINT NOT NULL DEFAULT 0 CHECK (hands_played >= 0),
    created_ms   BIGINT NOT NULL,
    updated_ms   BIGINT NOT NULL
);
CREATE INDEX game_tables_by_status ON game_tables (status);

CREATE TABLE hands (
    table_id    TEXT NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    hand_no     BIGINT NOT NULL CHECK (hand_no >= 0),
    ruleset     TEXT NOT NULL,
    seed        BIGINT NOT NULL,
    dealer      SMALLINT NOT NULL,
    ending      TEXT NOT NULL,
    fans        TEXT NOT NULL,
    record      TEXT NOT NULL,
    finished_ms BIGINT NOT NULL,
    PRIMARY KEY (table_id, hand_no)
);
CREATE INDEX hands_by_time ON hands (ruleset, finished_ms);

-- One row per seat of a finished hand; ruleset and time are repeated here so that leaderboards
-- and histories read one table.
CREATE TABLE hand_seats (
    table_id    TEXT NOT NULL,
    hand_no     BIGINT NOT NULL,
    seat        SMALLINT NOT NULL CHECK (seat >= 0),
    player_id   TEXT REFERENCES players (id),
    delta       BIGINT NOT NULL,
    ruleset     TEXT NOT NULL,
    finished_ms BIGINT NOT NULL,
    PRIMARY KEY (table_id, hand_no, seat),
    FOREIGN KEY (table_id, hand_no) REFERENCES hands (table_id, hand_no) ON DELETE CASCADE
);
CREATE INDEX hand_seats_by_player ON hand_seats (player_id, finished_ms);
CREATE INDEX hand_seats_by_ruleset ON hand_seats (ruleset, finished_ms);

CREATE TABLE escape_penalties (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    player_id TEXT NOT NULL REFERENCES players (id),
    table_id  TEXT NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    hand_no   BIGINT NOT NULL,
    ruleset   TEXT NOT NULL,
    points    BIGINT NOT NULL CHECK (points >= 0),
    at_ms     BIGINT NOT NULL,
    UNIQUE (player_id, table_id, hand_no)
);
CREATE INDEX escape_penalties_by_ruleset ON escape_penalties (ruleset, at_ms);

-- Each room's accepted actions, append-only: replays and crash recovery read them back.
CREATE TABLE room_actions (
    table_id TEXT NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    seq      BIGINT NOT NULL CHECK (seq >= 0),
    hand_no  BIGINT NOT NULL,
    seat     SMALLINT NOT NULL,
    action   TEXT NOT NULL,
    at_ms    BIGINT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE INDEX room_actions_by_hand ON room_actions (table_id, hand_no, seq);

-- A rating per player and ruleset; `games` counts the rating changes applied (the server rates
-- whole tables, so a game is a finished table).
CREATE TABLE ratings (
    player_id  TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    ruleset    TEXT NOT NULL,
    rating     REAL NOT NULL,
    games      BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (player_id, ruleset)
);
CREATE INDEX ratings_by_ruleset ON ratings (ruleset, rating DESC);
