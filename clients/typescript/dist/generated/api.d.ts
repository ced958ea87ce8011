/** What a win does to the hand. */
export type AfterWinInfo = "hand_ends" | "play_on";
export type Answers = (Record<string, unknown> | Array<Record<string, unknown>>);
export type Batch = (Record<string, unknown> | Array<unknown> | string | number | boolean | null);
/** Between the deal and the dealer's first discard. */
export type BeforePlayInfo = "nothing" | "declare_void" | "swap_dealt";
/** One row of a leaderboard. */
export type BoardRow = {
    /** The name others see. */
    display_name: string;
    /** Hands played in the period. */
    hands: number;
    /** The player. */
    player: string;
    /** 1 for the best; equal values share a rank. */
    rank: number;
    /** The player's rating now. */
    rating: number;
    /** Total score in the period, escape penalties subtracted. */
    score: number;
};
/** A bot level, weakest first. */
export type BotLevel = "random" | "simple" | "basic" | "strong";
export type CreateRoom = {
    /** Seconds for each decision (3 to 300). */
    action_seconds?: number;
    /**
     * Bot levels for the seats after the creator's (fewer: the rest wait for players); at
     * most the preset's seats less one.
     */
    bots?: Array<BotLevel>;
    /**
     * How long every discard's claim window stays open, whoever could claim (1 to 15 seconds);
     * by default the server's (`--claim-window-ms`, 4 s).
     */
    claim_window_seconds?: number | null;
    /**
     * Hands in the match (1 to 64); by default the ruleset's full match where it has one
     * (Guobiao: 16), else 8.
     */
    hands?: number | null;
    /**
     * The ruleset's options, by name, as `GET /api/rulesets` lists them for the preset; an
     * option left out takes its default.
     */
    options?: Record<string, unknown>;
    /** Whether the room is listed in `GET /api/rooms`. */
    public?: boolean;
    /** Ruleset preset id (`sichuan`, `sichuan-xuezhan`, `sichuan-xuezhan-9` …). */
    ruleset: RulesetName;
    /** How far spectators are behind play (0 to 600 seconds). */
    spectator_delay_seconds?: number;
    /**
     * Seconds of bank per seat and hand, drawn on once a decision's own time is spent
     * (0 to 600).
     */
    time_bank_seconds?: number;
};
/** A tournament to create. */
export type CreateTournament = {
    /** Seconds for each decision (3 to 300). */
    action_seconds?: number;
    /** Seconds every claim window stays open (1 to 15); by default the server's. */
    claim_window_seconds?: number | null;
    /** Whether the tables of a group are dealt the same walls (复式). */
    duplicate?: boolean;
    /** Competition points off for each escape (0 to 1000). */
    escape_penalty?: number;
    /**
     * Hands each table plays in a round (1 to 64); by default the ruleset's match length
     * (Guobiao: 16), else 8.
     */
    hands?: number | null;
    /** Its name (1 to 80 characters, not all spaces). */
    name: string;
    /** The ruleset's options, by name (`GET /api/rulesets`). */
    options?: Record<string, unknown>;
    /** How rounds after the first are paired. */
    pairing?: PairingKind;
    /**
     * `code` (players register with the tournament's code) or `list` (the organiser
     * registers them).
     */
    registration?: Registration;
    /** Rounds (1 to 20). */
    rounds: number;
    /** Ruleset preset id. */
    ruleset: RulesetName;
    schedule?: (Schedule | null);
    scoring?: (ScoringKind | null);
    /** Seconds of bank per seat and hand (0 to 600). */
    time_bank_seconds?: number;
};
/** Who wins when several seats may win on one discard. */
export type DiscardWinsInfo = "every" | "first_in_turn";
/** A registered player. */
export type EntrantOut = {
    display_name: string;
    /** Registration number, from 0. */
    entrant: number;
    player: string;
};
/** An error answer: every error of the HTTP API, whatever failed, has this shape. */
export type ErrorBody = {
    /**
     * What failed, for programs: `bad_request`, `unauthorized`, `not_found`,
     * `method_not_allowed`, `conflict`, `too_large`, `unsupported_media_type`,
     * `unprocessable`, `rate_limited`, `internal`, `store_unavailable`,
     * `service_unavailable` (the request timed out), `not_ready` or `busy`.
     */
    code: string;
    /**
     * What failed, for people. A 5xx's message never carries the cause: it names a request
     * id, logged with the cause on the server.
     */
    message: string;
};
/** One escape of a player. */
export type EscapeRow = {
    /** The hand it happened in. */
    hand_no: number;
    /** The penalty recorded (subtracted in score leaderboards). */
    points: number;
    /** The table. */
    table: string;
};
/**
 * How a hand of a ruleset flows: the engine's own description of the family, which the
 * server plays by.
 */
export type FlowInfo = {
    /** What a win does to the hand. */
    after_win: AfterWinInfo;
    /** What happens between the deal and the dealer's first discard. */
    before_play: BeforePlayInfo;
    /** Bonus kinds turned up after the deal (two-player 花牌). */
    bonus_indicators: number;
    /** Whether the next seat may chow. */
    chow: boolean;
    /** Whether a concealed kong may be robbed. */
    concealed_kong_robbable: boolean;
    /** Whether a seat may declare ready (报听), locking its hand. */
    declares_ready: boolean;
    /** Who wins when several seats may win on one discard. */
    discard_wins: DiscardWinsInfo;
    /** Go-arounds following the dealer's discard (烧庄, 跟庄). */
    follow_dealer: FollowDealerInfo;
    /** From this many live tiles on, a ready player must take a win (null: never). */
    forced_win_wall?: number | null;
    /** The winning shapes. */
    forms: Array<FormInfo>;
    /** When this many different seats have made a kong the hand is drawn (null: never). */
    kongers_draw?: number | null;
    /** The seat due to draw the last drawable tile may decline it. */
    last_tile_declinable: boolean;
    /** Whoever draws the last drawable tile and does not win must throw it. */
    last_tile_thrown: boolean;
    /** Whether a player leaving the table resets its 荒番 counter. */
    leave_resets_draw_bonus: boolean;
    /** Hands in the family's full match (null: as many as the room says). */
    match_hands?: number | null;
    /** What passing on a winning tile forbids afterwards. */
    missed_win: MissedWinInfo;
    /** No discard of the chowed kind on the chow's own turn (吃张打张 barred). */
    no_discard_of_chowed_kind: boolean;
    /** No kong of a pung on the turn it was claimed. */
    no_kong_of_fresh_pung: boolean;
    /** Where kong and flower replacements are drawn. */
    replacement_end: ReplacementInfo;
    /**
     * Tiles kept back from turn draws at the tail, and how many more for each kong after the
     * first (Beijing 保留牌).
     */
    reserve: ReserveInfo;
    /** 海底捞月 draws the first ready seat gets when the wall runs out. */
    seabed_draws: number;
    /** Tiles in the set: 108 (suits), 136 (with honours) or 144 (with eight flowers). */
    tiles: number;
    /** How many stacks into its side the wall is broken. */
    wall_break: WallBreakInfo;
    /**
     * Tiles of the shuffled set that make the wall, the rest set aside for the hand
     * (two-player: 71); null: the whole set.
     */
    wall_tiles?: number | null;
    /** Whether a wild kind is turned up each hand (惠牌, 财神). */
    wild: boolean;
};
/** Go-arounds following the dealer's discard. */
export type FollowDealerInfo = "ignored" | "counted" | "forced";
/** A winning shape. */
export type FormInfo = "standard" | "seven_pairs" | "thirteen_orphans" | "knitted";
/** A stored hand as the API shows it. */
export type HandOut = {
    /** The dealer's seat. */
    dealer: number;
    /** `self_draw`, `discard`, `multi_win` or `drawn`. */
    ending: string;
    /** When the hand finished, in Unix milliseconds. */
    finished_ms: number;
    /** The hand's number at its table, from 0. */
    hand_no: number;
    /**
     * The replay record, as `mahjong replay` reads it (`version`, ruleset, options, seed,
     * dealer, actions); only for one hand.
     */
    record?: Record<string, unknown>;
    /** The ruleset preset id. */
    ruleset: string;
    /** Each seat's player and score change, by seat. */
    seats: Array<SeatOut>;
    /** The seed, in decimal (it does not fit a JSON number exactly). */
    seed: string;
    /** The settlement as `hand_over` shows it (`fans`, `extras`, `deltas`, `payments`). */
    settlement: Record<string, unknown>;
    /** The table. */
    table: string;
};
/** One seat of an exported hand. */
export type HandSeatOut = {
    /** The seat's score for the hand. */
    delta: number;
    /**
     * Duplicate tournaments: how much better than the average of the group's seats that held
     * the same tiles (same hand, same wind); 0 otherwise.
     */
    duplicate_difference: number;
    /** The entrant (null: a bot). */
    entrant: number | null;
    /** The player (null: a bot). */
    player: string | null;
    /** The seat, from 0. */
    seat: number;
    /** Its wind in the hand (0 East, the dealer). */
    wind: number;
};
/** A finished hand as the messages of a stream. */
export type HandStream = {
    /** The 荒番 counter the hand was played with (Shanghai; 0 elsewhere). */
    draw_bonus: number;
    /**
     * The hand's messages, numbered from 1 as a stream is: `hand_starting`, every `event`
     * (every seat's own ones included: `dealt`, `drew` with its tile …), then `hand_over`.
     * Start a reducer from a snapshot made of the fields above (`view` absent) with the seat
     * to follow, and apply these in order.
     */
    frames: Array<Record<string, unknown>>;
    /** The hand's number at its table, from 0. */
    hand_no: number;
    /** Ruleset preset id. */
    ruleset: string;
    /** The running scores before the hand. */
    scores: Array<number>;
    /** Who sat where. */
    seats: Array<StreamSeat>;
    /** The table. */
    table: string;
};
/** One hand of a player's history. */
export type HistoryRow = {
    /** The player's score change. */
    delta: number;
    /** How the hand ended: `self_draw`, `discard`, `multi_win` or `drawn`. */
    ending: string;
    /** When the hand finished, in Unix milliseconds. */
    finished_ms: number;
    /** The hand's number at its table, from 0. */
    hand_no: number;
    /** The ruleset preset id. */
    ruleset: string;
    /** The player's seat. */
    seat: number;
    /** The table. */
    table: string;
};
export type JoinCode = {
    /** The room's join code (case and surrounding spaces do not matter). */
    code: string;
};
/** What passing on a winning tile forbids. */
export type MissedWinInfo = "none" | "until_draw_unless_higher" | "same_kind_until_own_move";
/** One room option. */
export type OptionInfo = {
    /** The value when it is not given. */
    default: unknown;
    /** The largest value accepted (`int`). */
    max?: number;
    /** The smallest value accepted (`int`). */
    min?: number;
    /** Its name in `options`. */
    name: string;
    /** Its name in English. */
    name_en: string;
    /** What players call it, in Chinese. */
    name_zh: string;
    /** `bool`, `int` or `choice` (one word of `values`). */
    type: string;
    /** The words accepted (`choice`). */
    values?: Array<string>;
};
/** How later rounds are paired. */
export type PairingKind = "fewest_repeats" | "swiss";
/** A player as the API shows one. */
export type PlayerOut = {
    /** When the player signed up, in Unix milliseconds. */
    created_ms: number;
    /** The name others see. */
    display_name: string;
    /** The player's id. */
    id: string;
};
/** A player's tournament: the tournament and where they stand in it. */
export type PlayerTournamentOut = {
    /** Entrants in all. */
    entrants: number;
    standing: (StandingOut | null);
    tournament: TournamentOut;
};
/** A player's public face. */
export type PublicPlayer = {
    /** The name others see. */
    display_name: string;
    /** The player id. */
    id: string;
};
export type QuickMatch = {
    /** The preset to play, with its default options. */
    ruleset: RulesetName;
};
/** How the quick-match queue waits, for a client's countdown. */
export type QuickMatchInfo = {
    /**
     * Milliseconds the first in line waits for people before bots fill the table
     * (`--quick-fill-ms`).
     */
    fill_ms: number;
};
/** One player's line of the ranking across tournaments. */
export type RankingOut = {
    display_name: string;
    /**
     * The mean of (entrants − rank) / (entrants − 1) over their tournaments: 1 for always
     * first, 0 for always last (a tournament of one counts 1).
     */
    mean_placing: number;
    player: string;
    /** Ranked third or better. */
    podiums: number;
    /** 1 for the best; players equal on wins, podiums and mean placing share a rank. */
    rank: number;
    /** Finished tournaments played. */
    tournaments: number;
    /** Won (ranked first, shared firsts included). */
    wins: number;
};
/** A ready server and its pool. */
export type Ready = {
    /** `postgres` or `sqlite`. */
    backend: string;
    /** Of those, the idle ones. */
    pool_idle: number;
    /** The pool's open connections. */
    pool_open: number;
    /** `ready`. */
    status: string;
};
/**
 * A registration: `{"code"}` registers oneself with the tournament's code; `{"players"}`
 * (the organiser only) registers players by id.
 */
export type Register = ({
    /** The tournament's code. */
    code: string;
} | {
    /** Their ids. */
    players: Array<string>;
});
/** How players come in. */
export type Registration = "code" | "list";
/** Where replacements are drawn. */
export type ReplacementInfo = "tail" | "live";
/** Tiles kept back from turn draws. */
export type ReserveInfo = {
    /** More for each kong after the first. */
    per_kong: number;
    /** From the start. */
    tiles: number;
};
/** A public room with a free seat. */
export type RoomListing = {
    /** The room's time for every decision, in seconds. */
    action_seconds: number;
    /** Its claim window after every discard, in milliseconds. */
    claim_window_ms: number;
    /** Its join code. */
    code: string;
    /** Hands finished so far. */
    hands_played: number;
    /** Its ruleset preset id. */
    ruleset: string;
    /** Each seat: `seat`, `name`, `status` (as in proto/README.md). */
    seats: Array<Record<string, unknown>>;
    /** The table. */
    table: string;
};
/** A round. */
export type RoundOut = {
    /** When its last table closed. */
    ended_ms: number | null;
    /** From 1. */
    round: number;
    started_ms: number;
    tables: Array<RoundTableOut>;
};
/** A seat of a round's table. */
export type RoundSeatOut = {
    /** Their name, or the bot's. */
    display_name: string;
    /** The entrant (null: a bot, never ranked). */
    entrant: number | null;
    /** Who (null for a bot). */
    player: string | null;
    /** The seat's total at the table so far. */
    score: number;
};
/** A table of a round. */
export type RoundTableOut = {
    /** Its duplicate group. */
    group: number;
    /** Hands finished there. */
    hands_played: number;
    /** Its seats, East first. */
    seats: Array<RoundSeatOut>;
    /** `playing`, `finished` or `closed`. */
    status: string;
    /** The game table (`/ws/tables/{table}`). */
    table: string;
    /** Its number in the round, from 0. */
    table_no: number;
};
/** A preset a room may play. */
export type RulesetInfo = {
    /**
     * Hands in a room whose creator does not say (the ruleset's full match where it has
     * one, else 8).
     */
    default_hands: number;
    /**
     * Points an escaper loses on top of the hand it escaped from (逃跑罚分), under its
     * default options; 0 where the rules set none. It counts in leaderboards and histories,
     * not in the hand's deltas.
     */
    escape_penalty: number;
    /**
     * How a hand flows under the default options (an option may change it: two-player's
     * `swap` turns `before_play` into `swap_dealt`).
     */
    flow: FlowInfo;
    /** The stable preset id (`ruleset` of `POST /api/rooms`). */
    id: string;
    /** Its name in English. */
    name_en: string;
    /** Its name for Chinese-speaking players. */
    name_zh: string;
    /**
     * The room options (`options` of `POST /api/rooms`); none may be left out of a form, as
     * each has a default.
     */
    options: Array<OptionInfo>;
    /** Seats at the table. */
    players: number;
};
/** A ruleset preset id, as `GET /api/rulesets` lists them. */
export type RulesetName = "beijing" | "beijing-2020" | "shanghai" | "sichuan" | "sichuan-xuezhan" | "sichuan-xuezhan-9" | "guobiao" | "guobiao-house" | "guangdong" | "suzhou" | "wuhu" | "ningbo" | "two-player";
/** Rounds started by the clock instead of the organiser. */
export type Schedule = {
    /** When round 1 starts (Unix milliseconds). */
    first_round_at_ms: number;
    /**
     * Between the starts of two rounds (milliseconds); a round never starts before the one
     * before it is over.
     */
    round_gap_ms: number;
};
/** How a table's result becomes competition points. */
export type ScoringKind = ({
    kind: "raw";
} | {
    kind: "places";
    /** Points for first, second … place. */
    points: Array<number>;
});
/** Where a player sits. */
export type Seated = {
    /** The room's join code. */
    code: string;
    /** The seat, from 0. */
    seat: number;
    /** The table (its WebSocket is `/ws/tables/{table}`). */
    table: string;
};
/** One seat of a stored hand. */
export type SeatOut = {
    /** The seat's score change. */
    delta: number;
    /** The player (null for a bot, and for a seat whose player had escaped). */
    player: string | null;
};
/** A session: who it signs in, and its token. */
export type SignedIn = {
    /** The name others see, trimmed. */
    display_name: string;
    /** When the token stops working, in Unix milliseconds. */
    expires_ms: number;
    /** The player's id. */
    player: string;
    /** The session token (64 hex digits): send it as `Authorization: Bearer <token>`. */
    token: string;
};
export type SignUp = {
    /**
     * The name others see: 1 to 24 characters once surrounding spaces are trimmed, without
     * control characters.
     */
    display_name: string;
};
/** One line of the standings. */
export type StandingOut = {
    display_name: string;
    entrant: number;
    /** Escapes. */
    escapes: number;
    /** Tables placed first (shared firsts included). */
    firsts: number;
    player: string;
    /** Competition points (exact to 1/12; escape penalties taken off). */
    points: number;
    /** 1 for the leaders; entrants equal on points, score and firsts share a rank. */
    rank: number;
    /** Raw score over every table. */
    score: number;
    /** Tables played. */
    tables: number;
};
/** Who sat in a seat for the hand. */
export type StreamSeat = {
    /** The name the table showed: the player's display name, or `bot`. */
    name: string;
    /** The player, absent for a bot (and for a seat played after its player escaped). */
    player?: string | null;
    /** The seat, from 0. */
    seat: number;
};
/** A tournament whole: settings, entrants, rounds and their tables, live standings. */
export type TournamentDetail = (TournamentOut) & ({
    entrants: Array<EntrantOut>;
    /** The rounds started, in order, with their tables. */
    round_list: Array<RoundOut>;
    standings: Array<StandingOut>;
});
/** One hand of the tournament. */
export type TournamentHandOut = {
    dealer: number;
    /** `self_draw`, `discard`, `multi_win` or `drawn`. */
    ending: string;
    finished_ms: number;
    group: number;
    /** The hand's number at its table, from 0. */
    hand_no: number;
    /** The hand's replay: `GET` it for the record, or `…/stream` for every seat's messages. */
    replay: string;
    round: number;
    seats: Array<HandSeatOut>;
    /** The seed (decimal); null while a duplicate round plays, revealed once it is over. */
    seed: string | null;
    table: string;
    table_no: number;
};
/** A tournament as the API shows it. */
export type TournamentOut = {
    /** Thinking time: milliseconds per decision. */
    action_ms: number;
    /** The registration code: shown to the organiser only. */
    code?: string | null;
    /** Created, in Unix milliseconds. */
    created_ms: number;
    /** Duplicate deals (复式). */
    duplicate: boolean;
    /** Competition points off per escape. */
    escape_penalty: number;
    /** Hands each table plays in a round. */
    hands: number;
    id: string;
    name: string;
    /** The organiser. */
    organiser: string;
    /** Pairing of later rounds. */
    pairing: PairingKind;
    /** How players register. */
    registration: Registration;
    /** Rounds in all. */
    rounds: number;
    /** Rounds started so far. */
    rounds_started: number;
    /** Ruleset preset id. */
    ruleset: string;
    schedule?: (Schedule | null);
    /** Scoring. */
    scoring: ScoringKind;
    /** `registering`, `playing` or `finished`. */
    status: string;
};
/** How many stacks into its side the wall is broken. */
export type WallBreakInfo = "dice_sum" | "larger_die";
/** Every operation of the HTTP API: method, path, parameters, body and answer. */
export interface Operations {
    /** Creates a room; the creator takes seat 0 and bots the next seats. */
    create_room: {
        method: "POST";
        path: "/api/rooms";
        params: {};
        query: {};
        body: CreateRoom;
        status: 201;
        answer: Seated;
    };
    /** Creates a tournament; its creator is the organiser. */
    create_tournament: {
        method: "POST";
        path: "/api/tournaments";
        params: {};
        query: {};
        body: CreateTournament;
        status: 201;
        answer: TournamentOut;
    };
    /**
     * The escapes (逃跑) recorded against a player, oldest first, with the ruleset's penalty
     * (0 where the rules set none).
     */
    escapes: {
        method: "GET";
        path: "/api/players/{player}/escapes";
        params: {
            /** player id */
            player: string;
        };
        query: {};
        body: undefined;
        status: 200;
        answer: Array<EscapeRow>;
    };
    /** One hand with its replay record. */
    hand_replay: {
        method: "GET";
        path: "/api/tables/{table}/hands/{hand}";
        params: {
            /** table id */
            table: string;
            /** hand number, from 0 */
            hand: number;
        };
        query: {};
        body: undefined;
        status: 200;
        answer: HandOut;
    };
    /** A finished hand as a stream of messages, everything shown. */
    hand_stream: {
        method: "GET";
        path: "/api/tables/{table}/hands/{hand}/stream";
        params: {
            /** table id */
            table: string;
            /** hand number, from 0 */
            hand: number;
        };
        query: {};
        body: undefined;
        status: 200;
        answer: HandStream;
    };
    /**
     * Every finished hand of the tournament, by round, table and hand, each linked to its replay.
     * A duplicate round's seeds are revealed once the round is over.
     */
    hands: {
        method: "GET";
        path: "/api/tournaments/{tournament}/hands";
        params: {
            /** tournament id */
            tournament: string;
        };
        query: {
            /** `json` (default) or `csv`. */
            format?: "json" | "csv";
        };
        body: undefined;
        status: 200;
        answer: Array<TournamentHandOut>;
    };
    /** Whether the process is alive. */
    health: {
        method: "GET";
        path: "/healthz";
        params: {};
        query: {};
        body: undefined;
        status: 200;
        answer: string;
    };
    /** A player's hands, newest first. */
    history: {
        method: "GET";
        path: "/api/players/{player}/history";
        params: {
            /** player id */
            player: string;
        };
        query: {
            /** Rows to skip (default 0). */
            offset?: number;
            /** Rows to return: 1 to 200 (default 50). A value outside is refused (400), not clamped. */
            limit?: number;
        };
        body: undefined;
        status: 200;
        answer: Array<HistoryRow>;
    };
    /** Takes a seat at the room a join code opens. */
    join_by_code: {
        method: "POST";
        path: "/api/rooms/join";
        params: {};
        query: {};
        body: JoinCode;
        status: 200;
        answer: Seated;
    };
    /** A ruleset's leaderboard over a period, by total score or by rating. */
    leaderboard: {
        method: "GET";
        path: "/api/leaderboards/{ruleset}";
        params: {
            /** ruleset preset id */
            ruleset: RulesetName;
        };
        query: {
            /**
             * The hands counted: `all` (default), this `month`'s (since the 1st, 00:00 UTC) or this
             * `week`'s (since Monday, 00:00 UTC).
             */
            period?: "all" | "month" | "week";
            /** What ranks: total `score` (default) or `rating`. */
            by?: "score" | "rating";
            /** Rows to skip (default 0). */
            offset?: number;
            /** Rows to return: 1 to 200 (default 50). A value outside is refused (400), not clamped. */
            limit?: number;
        };
        body: undefined;
        status: 200;
        answer: Array<BoardRow>;
    };
    /** Public rooms with a free seat. */
    list_rooms: {
        method: "GET";
        path: "/api/rooms";
        params: {};
        query: {};
        body: undefined;
        status: 200;
        answer: Array<RoomListing>;
    };
    /** Tournaments, newest first. */
    list_tournaments: {
        method: "GET";
        path: "/api/tournaments";
        params: {};
        query: {
            /** Rows to skip (default 0). */
            offset?: number;
            /** Rows to return: 1 to 200 (default 50). A value outside is refused (400), not clamped. */
            limit?: number;
        };
        body: undefined;
        status: 200;
        answer: Array<TournamentOut>;
    };
    /** The signed-in player. */
    me: {
        method: "GET";
        path: "/api/me";
        params: {};
        query: {};
        body: undefined;
        status: 200;
        answer: PlayerOut;
    };
    /** Counters and process figures in the Prometheus text format. */
    metrics: {
        method: "GET";
        path: "/metrics";
        params: {};
        query: {};
        body: undefined;
        status: 200;
        answer: string;
    };
    /** The OpenAPI 3.1 document of this API, built once from the annotated handlers. */
    openapi_json: {
        method: "GET";
        path: "/api/openapi.json";
        params: {};
        query: {};
        body: undefined;
        status: 200;
        answer: Record<string, unknown>;
    };
    /** A player as others see them: the name shown at tables and on leaderboards. */
    player: {
        method: "GET";
        path: "/api/players/{player}";
        params: {
            /** player id */
            player: string;
        };
        query: {};
        body: undefined;
        status: 200;
        answer: PublicPlayer;
    };
    /** The tournaments a player registered for, newest first, with their standing in each. */
    player_tournaments: {
        method: "GET";
        path: "/api/players/{player}/tournaments";
        params: {
            /** player id */
            player: string;
        };
        query: {};
        body: undefined;
        status: 200;
        answer: Array<PlayerTournamentOut>;
    };
    /**
     * Waits (long poll) until the player is seated: with other players when a table's worth wait,
     * else with bots after the server's quick-match wait.
     */
    quickmatch: {
        method: "POST";
        path: "/api/quickmatch";
        params: {};
        query: {};
        body: QuickMatch;
        status: 200;
        answer: Seated;
    };
    /** How long a quick match waits for people before bots fill the table. */
    quickmatch_info: {
        method: "GET";
        path: "/api/quickmatch";
        params: {};
        query: {};
        body: undefined;
        status: 200;
        answer: QuickMatchInfo;
    };
    /** Whether the server can serve: its database took a write just now. */
    ready: {
        method: "GET";
        path: "/readyz";
        params: {};
        query: {};
        body: undefined;
        status: 200;
        answer: Ready;
    };
    /** Registers players; a player registered already keeps their number. */
    register: {
        method: "POST";
        path: "/api/tournaments/{tournament}/entrants";
        params: {
            /** tournament id */
            tournament: string;
        };
        query: {};
        body: Register;
        status: 200;
        answer: Array<EntrantOut>;
    };
    /**
     * Signs in again with a valid token: a fresh token is issued with a new expiry and the old one
     * stops working (guests keep their account by renewing before it expires).
     */
    renew_session: {
        method: "POST";
        path: "/api/sessions";
        params: {};
        query: {};
        body: undefined;
        status: 201;
        answer: SignedIn;
    };
    /** Every ruleset a room may play, with its room options and default match length. */
    rulesets: {
        method: "GET";
        path: "/api/rulesets";
        params: {};
        query: {};
        body: undefined;
        status: 200;
        answer: Array<RulesetInfo>;
    };
    /**
     * Scores Guobiao winning hands in the format of conformance/mcr/README.md (one object,
     * or an array of up to 1,000): each gets its fans (Chinese and English names, value, count),
     * the total, and whether it reaches the 8-fan minimum.
     */
    score: {
        method: "POST";
        path: "/api/score";
        params: {};
        query: {};
        body: Batch;
        status: 200;
        answer: Answers;
    };
    /** Settles finished hands in the `settle` format (one object, or an array of up to 1,000). */
    settle: {
        method: "POST";
        path: "/api/settle";
        params: {};
        query: {};
        body: Batch;
        status: 200;
        answer: Answers;
    };
    /** Signs out: the token stops working. */
    sign_out: {
        method: "DELETE";
        path: "/api/sessions";
        params: {};
        query: {};
        body: undefined;
        status: 204;
        answer: null;
    };
    /** Signs up a guest and issues a session token (send it as `Authorization: Bearer <token>`). */
    sign_up: {
        method: "POST";
        path: "/api/guests";
        params: {};
        query: {};
        body: SignUp;
        status: 201;
        answer: SignedIn;
    };
    /** The standings, live during a round. */
    standings: {
        method: "GET";
        path: "/api/tournaments/{tournament}/standings";
        params: {
            /** tournament id */
            tournament: string;
        };
        query: {
            /** `json` (default) or `csv`. */
            format?: "json" | "csv";
        };
        body: undefined;
        status: 200;
        answer: Array<StandingOut>;
    };
    /**
     * Starts the next round (the organiser only): every entrant seated, bots filling short
     * tables, every table opened together.
     */
    start_round: {
        method: "POST";
        path: "/api/tournaments/{tournament}/rounds";
        params: {
            /** tournament id */
            tournament: string;
        };
        query: {};
        body: undefined;
        status: 201;
        answer: Array<RoundTableOut>;
    };
    /** A table's finished hands: seed, dealer, ending, per-seat deltas, settlement. */
    table_hands: {
        method: "GET";
        path: "/api/tables/{table}/hands";
        params: {
            /** table id */
            table: string;
        };
        query: {};
        body: undefined;
        status: 200;
        answer: Array<HandOut>;
    };
    /**
     * A tournament: its settings, entrants, rounds with their tables, and the standings (live
     * during a round).
     */
    tournament: {
        method: "GET";
        path: "/api/tournaments/{tournament}";
        params: {
            /** tournament id */
            tournament: string;
        };
        query: {};
        body: undefined;
        status: 200;
        answer: TournamentDetail;
    };
    /** A ranking across finished tournaments: players by wins, then podiums, then mean placing. */
    tournament_ranking: {
        method: "GET";
        path: "/api/rankings/tournaments";
        params: {};
        query: {
            /** Only the tournaments of this preset (default: every preset). */
            ruleset?: RulesetName;
        };
        body: undefined;
        status: 200;
        answer: Array<RankingOut>;
    };
}
/** Each operation's method and path, for the HTTP client. */
export declare const operations: {
    readonly create_room: {
        readonly method: "POST";
        readonly path: "/api/rooms";
    };
    readonly create_tournament: {
        readonly method: "POST";
        readonly path: "/api/tournaments";
    };
    readonly escapes: {
        readonly method: "GET";
        readonly path: "/api/players/{player}/escapes";
    };
    readonly hand_replay: {
        readonly method: "GET";
        readonly path: "/api/tables/{table}/hands/{hand}";
    };
    readonly hand_stream: {
        readonly method: "GET";
        readonly path: "/api/tables/{table}/hands/{hand}/stream";
    };
    readonly hands: {
        readonly method: "GET";
        readonly path: "/api/tournaments/{tournament}/hands";
    };
    readonly health: {
        readonly method: "GET";
        readonly path: "/healthz";
    };
    readonly history: {
        readonly method: "GET";
        readonly path: "/api/players/{player}/history";
    };
    readonly join_by_code: {
        readonly method: "POST";
        readonly path: "/api/rooms/join";
    };
    readonly leaderboard: {
        readonly method: "GET";
        readonly path: "/api/leaderboards/{ruleset}";
    };
    readonly list_rooms: {
        readonly method: "GET";
        readonly path: "/api/rooms";
    };
    readonly list_tournaments: {
        readonly method: "GET";
        readonly path: "/api/tournaments";
    };
    readonly me: {
        readonly method: "GET";
        readonly path: "/api/me";
    };
    readonly metrics: {
        readonly method: "GET";
        readonly path: "/metrics";
    };
    readonly openapi_json: {
        readonly method: "GET";
        readonly path: "/api/openapi.json";
    };
    readonly player: {
        readonly method: "GET";
        readonly path: "/api/players/{player}";
    };
    readonly player_tournaments: {
        readonly method: "GET";
        readonly path: "/api/players/{player}/tournaments";
    };
    readonly quickmatch: {
        readonly method: "POST";
        readonly path: "/api/quickmatch";
    };
    readonly quickmatch_info: {
        readonly method: "GET";
        readonly path: "/api/quickmatch";
    };
    readonly ready: {
        readonly method: "GET";
        readonly path: "/readyz";
    };
    readonly register: {
        readonly method: "POST";
        readonly path: "/api/tournaments/{tournament}/entrants";
    };
    readonly renew_session: {
        readonly method: "POST";
        readonly path: "/api/sessions";
    };
    readonly rulesets: {
        readonly method: "GET";
        readonly path: "/api/rulesets";
    };
    readonly score: {
        readonly method: "POST";
        readonly path: "/api/score";
    };
    readonly settle: {
        readonly method: "POST";
        readonly path: "/api/settle";
    };
    readonly sign_out: {
        readonly method: "DELETE";
        readonly path: "/api/sessions";
    };
    readonly sign_up: {
        readonly method: "POST";
        readonly path: "/api/guests";
    };
    readonly standings: {
        readonly method: "GET";
        readonly path: "/api/tournaments/{tournament}/standings";
    };
    readonly start_round: {
        readonly method: "POST";
        readonly path: "/api/tournaments/{tournament}/rounds";
    };
    readonly table_hands: {
        readonly method: "GET";
        readonly path: "/api/tables/{table}/hands";
    };
    readonly tournament: {
        readonly method: "GET";
        readonly path: "/api/tournaments/{tournament}";
    };
    readonly tournament_ranking: {
        readonly method: "GET";
        readonly path: "/api/rankings/tournaments";
    };
};
