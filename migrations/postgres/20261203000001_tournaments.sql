-- Tournaments (issue 28). A tournament's settings are a versioned JSON document of the
-- server's own (`config`). Its secret (64 hex digits) keys the duplicate deals' seeds and is
-- never served. Entrants are numbered in the order they registered; rounds start at 1.
CREATE TABLE tournaments (
    id             TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    organiser      TEXT NOT NULL REFERENCES players (id),
    ruleset        TEXT NOT NULL,
    config         TEXT NOT NULL,
    code           TEXT NOT NULL UNIQUE,
    secret         TEXT NOT NULL CHECK (length(secret) = 64),
    status         TEXT NOT NULL CHECK (status IN ('registering', 'playing', 'finished')),
    rounds         BIGINT NOT NULL CHECK (rounds > 0),
    rounds_started BIGINT NOT NULL DEFAULT 0 CHECK (rounds_started >= 0),
    created_ms     BIGINT NOT NULL,
    updated_ms     BIGINT NOT NULL
);
CREATE INDEX tournaments_by_time ON tournaments (created_ms);

CREATE TABLE tournament_entrants (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    entrant       BIGINT NOT NULL CHECK (entrant >= 0),
    player_id     TEXT NOT NULL REFERENCES players (id),
    registered_ms BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, entrant),
    UNIQUE (tournament_id, player_id)
);
CREATE INDEX tournament_entrants_by_player ON tournament_entrants (player_id);

-- A round is started once (its primary key), with all its tables in the same transaction.
CREATE TABLE tournament_rounds (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round_no      BIGINT NOT NULL CHECK (round_no > 0),
    started_ms    BIGINT NOT NULL,
    ended_ms      BIGINT,
    PRIMARY KEY (tournament_id, round_no)
);

-- The seating of a round's table: `seats` is a JSON array of entrant numbers, null for a bot.
-- Tables of one `group_no` share their deals when the tournament deals duplicate.
CREATE TABLE tournament_tables (
    tournament_id TEXT NOT NULL,
    round_no      BIGINT NOT NULL,
    table_no      BIGINT NOT NULL CHECK (table_no >= 0),
    group_no      BIGINT NOT NULL CHECK (group_no >= 0),
    table_id      TEXT NOT NULL UNIQUE REFERENCES game_tables (id),
    seats         TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round_no, table_no),
    FOREIGN KEY (tournament_id, round_no)
        REFERENCES tournament_rounds (tournament_id, round_no) ON DELETE CASCADE
);
