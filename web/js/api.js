// The HTTP API of proto/README.md ("HTTP API"): one function per route, JSON in and out.
//
// Every failure becomes an ApiError carrying the server's typed error body
// `{"code", "message"}` (codes `bad_request`, `unauthorized`, `not_found`, `conflict`,
// `store_unavailable`, `internal`), or the code `network` when no answer came at all.

/** A failed request: the HTTP status (0 when there was none), the error code and its text. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Bot levels a room may seat (`bot::Level`). */
export const BOT_LEVELS = ['strong', 'basic', 'random'];

let token = null;

/** Sets the session token sent as `Authorization: Bearer` (null: none). */
export function setToken(t) {
  token = t;
}

async function request(method, path, body, { signal } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(0, 'network', 'the server cannot be reached');
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!response.ok) {
    const code = data && typeof data === 'object' && data.code ? data.code : `http_${response.status}`;
    const message = data && typeof data === 'object' && data.message ? data.message : response.statusText;
    throw new ApiError(response.status, code, message);
  }
  return data;
}

const q = encodeURIComponent;

/** `POST /api/guests`: `{player, display_name, token, expires_ms}`. */
export function signUp(displayName) {
  return request('POST', '/api/guests', { display_name: displayName });
}

/** `POST /api/sessions`: a fresh token; the old one stops working. */
export function renewSession() {
  return request('POST', '/api/sessions');
}

/** `DELETE /api/sessions`: sign out. */
export function signOut() {
  return request('DELETE', '/api/sessions');
}

/** `GET /api/me`: `{id, display_name, created_ms}`. */
export function me() {
  return request('GET', '/api/me');
}

let rulesetsAsked = null;

/**
 * `GET /api/rulesets`: the presets the server plays, in its order, each `{id, name_zh,
 * name_en, players, default_hands, options}`; an option is `{name, name_zh, name_en, type
 * ('bool' or 'int'), default, min, max}` (`min`/`max` for integers). The list changes only with
 * the server, so it is asked once per page (again after a failure).
 */
export function rulesets() {
  if (!rulesetsAsked) {
    rulesetsAsked = request('GET', '/api/rulesets').catch((err) => {
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

/**
 * `POST /api/rooms` with `{ruleset, options, bots, action_seconds, time_bank_seconds, hands,
 * public, spectator_delay_seconds}`: `{table, seat, code}`.
 */
export function createRoom(spec) {
  return request('POST', '/api/rooms', spec);
}

/** `GET /api/rooms`: public rooms with a free seat. */
export function listRooms() {
  return request('GET', '/api/rooms');
}

/** `POST /api/rooms/join`: `{table, seat, code}`. */
export function joinRoom(code) {
  return request('POST', '/api/rooms/join', { code });
}

/** `POST /api/quickmatch`: a long poll until seated; `signal` aborts the wait. */
export function quickMatch(ruleset, signal) {
  return request('POST', '/api/quickmatch', { ruleset }, { signal });
}

/** `GET /api/tables/{table}/hands`: the table's finished hands. */
export function tableHands(table) {
  return request('GET', `/api/tables/${q(table)}/hands`);
}

/** `GET /api/tables/{table}/hands/{n}`: one hand with its replay `record`. */
export function hand(table, n) {
  return request('GET', `/api/tables/${q(table)}/hands/${q(n)}`);
}

/** `GET /api/players/{player}/history`: a player's hands, newest first. */
export function history(player, offset = 0, limit = 50) {
  return request('GET', `/api/players/${q(player)}/history?offset=${offset}&limit=${limit}`);
}

/** `GET /api/leaderboards/{ruleset}?period=&by=&offset=&limit=`. */
export function leaderboard(ruleset, period = 'all', by = 'score', offset = 0, limit = 50) {
  return request(
    'GET',
    `/api/leaderboards/${q(ruleset)}?period=${q(period)}&by=${q(by)}&offset=${offset}&limit=${limit}`,
  );
}
