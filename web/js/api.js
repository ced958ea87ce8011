// The HTTP API, through the SDK's HttpClient (clients/typescript, served at /sdk/): the page
// names the operations it uses once here, so the views stay free of paths and tokens.
//
// Every failure is the SDK's ApiError: the HTTP status (0 when no answer came), the server's
// error `code` (`bad_request`, `unauthorized`, `not_found`, `conflict`, …, or `network`) and
// its message.

import { ApiError, HttpClient, memoryToken } from '/sdk/index.js';

export { ApiError };

/** Bot levels a room may seat (`bot::Level`). */
export const BOT_LEVELS = ['strong', 'basic', 'random'];

const tokens = memoryToken();

/** The page's client of its own server. */
export const http = new HttpClient({ baseUrl: location.origin, tokens });

/** Sets the session token sent as `Authorization: Bearer` (null: none). */
export function setToken(t) {
  tokens.set(t);
}

/** `POST /api/guests`: `{player, display_name, token, expires_ms}`. */
export const signUp = (displayName) => http.signUp(displayName);
/** `POST /api/sessions`: a fresh token; the old one stops working. */
export const renewSession = () => http.renew();
/** `DELETE /api/sessions`: sign out. */
export const signOut = () => http.signOut();
/** `GET /api/me`: `{id, display_name, created_ms}`. */
export const me = () => http.me();

let rulesetsAsked = null;

/**
 * `GET /api/rulesets`: the presets the server plays, with their options. The list changes
 * only with the server, so it is asked once per page (again after a failure).
 */
export function rulesets() {
  if (!rulesetsAsked) {
    rulesetsAsked = http.rulesets().catch((err) => {
      rulesetsAsked = null;
      throw err;
    });
  }
  return rulesetsAsked;
}

/** A preset's name for people (an entry of `rulesets()`): its Chinese and English names. */
export function rulesetName(r) {
  return `${r.name_zh} ${r.name_en}`;
}

/** The name of the preset `id` once the rulesets are known (else the id itself). */
export async function rulesetLabel(id) {
  try {
    const r = (await rulesets()).find((x) => x.id === id);
    return r ? rulesetName(r) : id;
  } catch {
    return id;
  }
}

/** `POST /api/rooms`: `{table, seat, code}`. */
export const createRoom = (spec) => http.createRoom(spec);
/** `GET /api/rooms`: public rooms with a free seat. */
export const listRooms = () => http.rooms();
/** `POST /api/rooms/join`: `{table, seat, code}`. */
export const joinRoom = (code) => http.joinByCode(code);
/** `GET /api/quickmatch`: how long the queue waits before bots fill a table. */
export const quickMatchInfo = () => http.call('quickmatch_info');
/** `POST /api/quickmatch`: a long poll until seated; `signal` aborts the wait. */
export const quickMatch = (ruleset, signal) => http.quickMatch(ruleset, signal);
/** `GET /api/tables/{table}/hands`: the table's finished hands. */
export const tableHands = (table) => http.tableHands(table);
/** `GET /api/tables/{table}/hands/{n}/stream`: a finished hand as its stream of messages. */
export const handStream = (table, n) => http.handStream(table, n);

/** `GET /api/players/{player}`: `{id, display_name}`. */
export const player = (id) => http.call('player', { params: { player: id } });

/** `GET /api/players/{player}/history`: a player's hands, newest first. */
export function history(player, offset = 0, limit = 50) {
  return http.call('history', { params: { player }, query: { offset, limit } });
}

/** `GET /api/leaderboards/{ruleset}?period=&by=&offset=&limit=`. */
export function leaderboard(ruleset, period = 'all', by = 'score', offset = 0, limit = 50) {
  return http.call('leaderboard', { params: { ruleset }, query: { period, by, offset, limit } });
}

/** `GET /api/tournaments`: the newest first. */
export const tournaments = () => http.call('list_tournaments', { query: { offset: 0, limit: 50 } });
/** `POST /api/tournaments`: the new tournament, its code included (the organiser's). */
export const createTournament = (body) => http.call('create_tournament', { body });
/** `GET /api/tournaments/{tournament}`: entrants, rounds with their tables, live standings. */
export const tournament = (id) => http.call('tournament', { params: { tournament: id } });
/** `POST /api/tournaments/{tournament}/entrants`: `{code}` registers oneself. */
export const registerTournament = (id, body) => http.call('register', { params: { tournament: id }, body });
/** `POST /api/tournaments/{tournament}/rounds`: the next round's tables (the organiser). */
export const startRound = (id) => http.call('start_round', { params: { tournament: id } });
/** `GET /api/rankings/tournaments?ruleset=`: players across finished tournaments. */
export const tournamentRanking = (ruleset) => http.call('tournament_ranking', { query: ruleset ? { ruleset } : {} });
