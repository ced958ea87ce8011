// The application: the session, the routes (#/lobby, #/table/{id}, #/boards, #/player/{id},
// #/hands/{table}, #/replay/{table}/{n}, #/tournaments, #/tournament/{id}) and the table's
// connection.
//
// The session (`POST /api/guests`) and the seat the player last took are kept in
// localStorage, so a reloaded page signs in again and goes back to its table; the SDK's
// TableConnection then asks for a snapshot (a `hello` without `last_seq`). A dropped
// connection within the page resumes from the last `seq` instead. The table itself is the
// SDK's reducer state (`connection.state`); the page keeps only what is its own: the action
// in flight, the tiles picked for a swap, the settlement the player closed.

import { TableConnection } from '/sdk/index.js';
import * as api from './api.js';
import { renderBoards, renderHistory, renderTableHands } from './board.js';
import { el, replace } from './dom.js';
import { checkFont } from './font.js';
import { renderLobby, renderSignIn } from './lobby.js';
import { renderReplay } from './replay.js';
import { renderTable, updateCountdown } from './table.js';
import { renderTournament, renderTournaments } from './tournaments.js';

const SESSION_KEY = 'mahjong.session';
const SEAT_KEY = 'mahjong.seat';
// Renew a guest's token when less than this is left of it.
const RENEW_BEFORE_MS = 7 * 24 * 3600 * 1000;

const app = {
  session: null, // {player, display_name, token, expires_ms}
  seat: null, // {table, seat, code}: where the player sits
  table: null, // {id, connection, ui, status, statusDetail} (see openTable)
  renderError: null, // why the table could not be drawn, when it could not
  stopLobby: null,
  boards: {},
  clockSkewMs: 0,
};

const main = document.getElementById('main');
const banner = document.getElementById('banner');
let bannerTimer = null;

/** Shows an error (the SDK's ApiError or RequestError, or text) for a while. */
function showError(err) {
  const code = err?.code ? `${err.code}: ` : '';
  const text = `${code}${err?.message ?? String(err)}`;
  banner.textContent = text;
  banner.hidden = false;
  clearTimeout(bannerTimer);
  bannerTimer = setTimeout(() => { banner.hidden = true; }, 8000);
  if (err?.code === 'unauthorized' || err?.code === 'bad_token') {
    // The token expired or was revoked: sign in again.
    setSession(null);
    location.hash = '#/';
  }
}

function load(key) {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
}

function save(key, value) {
  if (value === null) localStorage.removeItem(key);
  else localStorage.setItem(key, JSON.stringify(value));
}

function setSession(session) {
  app.session = session;
  save(SESSION_KEY, session);
  api.setToken(session?.token ?? null);
  if (!session) {
    leaveTable(false);
    setSeat(null);
  }
  renderHeader();
}

function setSeat(seat) {
  app.seat = seat;
  save(SEAT_KEY, seat);
  renderHeader();
}

function renderHeader() {
  const who = document.getElementById('who');
  const nav = document.getElementById('nav');
  replace(nav,
    el('a', { href: '#/lobby' }, 'Lobby'),
    app.seat ? el('a', { href: `#/table/${app.seat.table}`, dataset: { testid: 'nav-table' } }, 'My table') : null,
    el('a', { href: '#/boards' }, 'Leaderboards'),
    el('a', { href: '#/tournaments', dataset: { testid: 'nav-tournaments' } }, 'Tournaments'),
    app.session ? el('a', { href: `#/player/${app.session.player}` }, 'My hands') : null);
  replace(who, app.session
    ? [el('span', { class: 'me-name', dataset: { testid: 'me-name' } }, app.session.display_name),
      el('button', { type: 'button', class: 'small', onclick: signOut }, 'Sign out')]
    : []);
}

async function signOut() {
  try {
    await api.signOut();
  } catch {
    // Signed out here either way.
  }
  setSession(null);
  location.hash = '#/';
}

// ---- the table ----

/** Ping every this often; no answer within PONG_WITHIN_MS drops the connection (it reconnects). */
const PING_EVERY_MS = 15000;
const PONG_WITHIN_MS = 10000;
/** Errors after which this seat has no table here any more. */
const GONE = ['not_seated', 'table_closed', 'escaped'];

/** Opens (or returns to) the connection to `tableId`. */
function openTable(tableId) {
  if (app.table?.id === tableId) return app.table;
  leaveTable(false);
  const connection = new TableConnection({
    url: api.http.tableUrl(tableId),
    token: () => app.session?.token ?? null,
  });
  const t = {
    id: tableId,
    connection,
    status: 'connecting',
    statusDetail: null,
    lastRetryDelay: null,
    pinger: null,
    // What the page keeps beside the table: the `seq` of the message that brought the prompt
    // (`promptSeq`) and of the one an action was sent for (`sending`), the swap picks
    // (indices into the own tiles) and the hand whose settlement the player closed.
    ui: { promptSeq: null, sending: null, swapPick: [], closedSettlement: null, clockSkewMs: app.clockSkewMs },
  };
  connection.on('state', (state, frame) => {
    if (frame.type === 'prompt' || frame.type === 'snapshot') t.ui.promptSeq = frame.seq;
    if (frame.type === 'table_closed') setSeat(null);
    scheduleRender();
  });
  connection.on('error', (err) => {
    // An error outside an action: `bad_token`, `not_seated`, `table_closed`, … shown as is.
    showError(err);
    if (GONE.includes(err.code)) {
      // No seat here any more (the match ended, the table is gone, or this player escaped
      // and the bot plays the seat to the end): back to the lobby.
      setSeat(null);
      leaveTable(false);
      location.hash = '#/lobby';
    }
  });
  connection.on('status', (status) => {
    t.status = status.kind === 'closed' ? 'stopped' : status.kind;
    t.statusDetail = status.kind === 'reconnecting' ? status.inMs : status.kind === 'closed' ? status.reason : null;
    if (status.kind === 'reconnecting') t.lastRetryDelay = status.inMs;
    scheduleRender();
  });
  // A connection the browser has not noticed is dead: no `pong` in time drops it.
  t.pinger = setInterval(() => {
    if (!connection.isOpen) return;
    const late = setTimeout(() => connection.dropConnection(), PONG_WITHIN_MS);
    connection.ping().then(() => clearTimeout(late), () => clearTimeout(late));
  }, PING_EVERY_MS);
  app.table = t;
  connection.connect();
  return t;
}

/** Closes the current table's connection; `leave` also sends `leave` (an escape mid-hand). */
function leaveTable(leave) {
  if (!app.table) return;
  clearInterval(app.table.pinger);
  if (leave) app.table.connection.leave();
  else app.table.connection.close();
  app.table = null;
}

/** An action failed: a prompt that timed out meanwhile is answered by the bot, and a table
 * moving to another server sends a snapshot that asks again: neither is worth an alarm. */
function actFailed(err) {
  if (!['connection_lost', 'not_connected', 'moving'].includes(err.code)) showError(err);
}

function act(action) {
  const t = app.table;
  if (!t?.connection.state.prompt) return;
  const prompt = t.ui.promptSeq;
  t.ui.sending = prompt;
  scheduleRender();
  t.connection.act(action).then(
    () => scheduleRender(),
    (err) => {
      if (t.ui.sending === prompt) t.ui.sending = null;
      actFailed(err);
      scheduleRender();
    },
  );
}

/**
 * Sends several actions in order, each after the previous one's `ack` (the swap phase: one
 * `swap_mark` per chosen tile, then `swap_done`). Each is legal when sent: a mark only removes
 * one unmarked copy from the next prompt's list, and `swap_done` stays until it is sent.
 */
async function actAll(actions) {
  const t = app.table;
  if (!t?.connection.state.prompt) return;
  const prompt = t.ui.promptSeq;
  t.ui.sending = prompt;
  scheduleRender();
  try {
    for (const action of actions) await t.connection.act(action);
  } catch (err) {
    if (t.ui.sending === prompt) t.ui.sending = null;
    actFailed(err);
  }
  scheduleRender();
}

let renderQueued = false;

function scheduleRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    const t = app.table;
    const root = document.getElementById('table-root');
    if (!t || !root) return;
    const state = t.connection.state;
    try {
      drawTable(t, root, state);
      app.renderError = null;
    } catch (err) {
      // A table the page cannot draw is a bug: said once, with what failed, not left stale.
      if (app.renderError?.message !== err.message) showError(`The table could not be drawn: ${err.message}`);
      app.renderError = err;
      console.error(err);
    }
  });
}

function drawTable(t, root, state) {
    renderTable(root, {
      state,
      ui: t.ui,
      status: t.status,
      statusDetail: t.statusDetail,
      code: state.code ?? (app.seat?.table === t.id ? app.seat.code : null),
      onAct: act,
      onActAll: actAll,
      onRender: scheduleRender,
      onCloseSettlement: () => {
        t.ui.closedSettlement = state.lastHand?.handNo ?? null;
        scheduleRender();
      },
      onLobby: () => {
        leaveTable(false);
        location.hash = '#/lobby';
      },
    });
}

setInterval(() => {
  const root = document.getElementById('table-root');
  if (app.table && root) updateCountdown(root, app.table.connection.state, app.table.ui);
}, 250);

function showTable(tableId) {
  const leave = el('button', {
    type: 'button',
    class: 'small danger',
    dataset: { action: 'leave' },
    onclick: () => {
      const hand = app.table?.connection.state.hand;
      const midHand = hand && !hand.over;
      const question = midHand
        ? 'Leave the table? During a hand this is an escape: the bot finishes it for you and the ruleset’s penalty applies.'
        : 'Leave the table?';
      if (!window.confirm(question)) return;
      leaveTable(true);
      setSeat(null);
      location.hash = '#/lobby';
    },
  }, 'Leave the table');
  replace(main, el('div', { class: 'table-view' }, el('div', { id: 'table-root' }), el('div', { class: 'table-foot' }, leave)));
  openTable(tableId);
  scheduleRender();
}

// ---- routes ----

function seated(s) {
  setSeat({ table: s.table, seat: s.seat, code: s.code });
  location.hash = `#/table/${s.table}`;
}

function route() {
  if (app.stopLobby) {
    app.stopLobby();
    app.stopLobby = null;
  }
  const parts = location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [page, a, b] = parts;
  if (!app.session) {
    if (page === 'boards') return renderBoards(main, { onError: showError, state: app.boards });
    if (page === 'replay' && a && b !== undefined) return renderReplay(main, { table: a, handNo: Number(b), session: null, onError: showError });
    return renderSignIn(main, {
      onSignedIn: (s) => {
        setSession(s);
        if (location.hash === '#/lobby') route();
        else location.hash = '#/lobby';
      },
      onError: showError,
    });
  }
  switch (page) {
    case 'table':
      if (a) return showTable(a);
      break;
    case 'boards':
      return renderBoards(main, { onError: showError, state: app.boards });
    case 'player':
      return renderHistory(main, { player: a, session: app.session, onError: showError });
    case 'hands':
      return renderTableHands(main, { table: a, onError: showError });
    case 'replay':
      return renderReplay(main, { table: a, handNo: Number(b ?? 0), session: app.session, onError: showError });
    case 'tournaments':
      return renderTournaments(main, { session: app.session, onError: showError });
    case 'tournament':
      if (a) {
        app.stopLobby = renderTournament(main, { id: a, session: app.session, onError: showError });
        return undefined;
      }
      break;
    default:
      break;
  }
  app.stopLobby = renderLobby(main, {
    session: app.session,
    currentTable: app.seat,
    onSeated: seated,
    onError: showError,
    onResume: () => { location.hash = `#/table/${app.seat.table}`; },
  });
  return undefined;
}

/** Reads the server's clock from a response's Date header (whole seconds): prompts'
 * deadlines are on that clock. Only a skew beyond the header's resolution is corrected. */
async function measureSkew() {
  try {
    const started = Date.now();
    const r = await fetch('/healthz', { cache: 'no-store' });
    const date = Date.parse(r.headers.get('date') ?? '');
    if (Number.isNaN(date)) return;
    const skew = date + 500 - (started + Date.now()) / 2;
    app.clockSkewMs = Math.abs(skew) > 1500 ? Math.round(skew) : 0;
    if (app.table) app.table.ui.clockSkewMs = app.clockSkewMs;
  } catch {
    // No correction.
  }
}

async function start() {
  const session = load(SESSION_KEY);
  app.seat = load(SEAT_KEY);
  if (session?.token) {
    api.setToken(session.token);
    app.session = session;
    try {
      const me = await api.me();
      app.session = { ...session, display_name: me.display_name };
      if (session.expires_ms - Date.now() < RENEW_BEFORE_MS) app.session = await api.renewSession();
      setSession(app.session);
    } catch (err) {
      if (err.status === 401) setSession(null);
    }
  }
  renderHeader();
  measureSkew();
  checkFont();
  window.addEventListener('hashchange', route);
  route();
}

// For the console and for tests: the state, and a way to drop the connection as a network
// failure would (the socket must reconnect and resume by itself).
window.mahjong = {
  app,
  state: () => app.table?.connection.state ?? null,
  dropConnection: () => app.table?.connection.dropConnection(),
  lastSeq: () => app.table?.connection.lastSeq ?? null,
  connections: () => app.table?.connection.connections ?? 0,
  lastRetryDelay: () => app.table?.lastRetryDelay ?? null,
};

start();
