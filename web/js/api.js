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

/** The presets the server plays (`RulesetId` in crates/engine/src/ruleset.rs). */
export const RULESETS = [
  { id: 'sichuan-xuezhan', name: '血战到底 Sichuan bloody battle (3-fan cap)' },
  { id: 'sichuan-xuezhan-9', name: '血战到底 Sichuan bloody battle (9-fan cap)' },
  { id: 'sichuan', name: '成都 Sichuan standard' },
  { id: 'guobiao', name: '国标 Guobiao (MCR)' },
  { id: 'guobiao-house', name: '国标 Guobiao with house hands' },
  { id: 'shanghai', name: '上海 Shanghai' },
];

/**
 * Room options per preset, as README.md lists them: name, kind, default, and a label. The
 * server validates them and answers `bad_request` with a message for a bad value.
 */
export const RULESET_OPTIONS = {
  sichuan: [{ name: 'coefficient', kind: 'int', value: 1, label: '房间系数 points per unit' }],
  'sichuan-xuezhan': [
    { name: 'coefficient', kind: 'int', value: 1, label: '房间系数 points per unit' },
    { name: 'kong_money', kind: 'bool', value: true, label: '刮风下雨 kong money' },
    { name: 'fan_cap', kind: 'int', value: 3, label: 'fan cap' },
  ],
  'sichuan-xuezhan-9': [
    { name: 'coefficient', kind: 'int', value: 1, label: '房间系数 points per unit' },
    { name: 'kong_money', kind: 'bool', value: true, label: '刮风下雨 kong money' },
    { name: 'fan_cap', kind: 'int', value: 9, label: 'fan cap' },
  ],
  shanghai: [
    { name: 'base', kind: 'int', value: 2, label: '底分 base' },
    { name: 'hua', kind: 'int', value: 1, label: '花分 per flower' },
    { name: 'lezi', kind: 'int', value: 10, label: '勒子 cap' },
  ],
  guobiao: [],
  'guobiao-house': [],
};

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
