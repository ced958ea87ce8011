// The application: the session, the routes (#/lobby, #/table/{id}, #/boards, #/player/{id},
// #/hands/{table}, #/replay/{table}/{n}) and the table's connection.
//
// The session (`POST /api/guests`) and the seat the player last took are kept in
// localStorage, so a reloaded page signs in again and goes back to its table; the socket then
// asks for a snapshot (a `hello` without `last_seq`). A dropped connection within the page
// resumes from the last `seq` instead (socket.js).

import * as api from './api.js';
import { renderBoards, renderHistory, renderTableHands } from './board.js';
import { el, replace } from './dom.js';
import { renderLobby, renderSignIn } from './lobby.js';
import { applyMessage, emptyModel } from './model.js';
import { renderReplay } from './replay.js';
import { TableSocket } from './socket.js';
import { renderTable, updateCountdown } from './table.js';

const SESSION_KEY = 'mahjong.session';
const SEAT_KEY = 'mahjong.seat';
// Renew a guest's token when less than this is left of it.
const RENEW_BEFORE_MS = 7 * 24 * 3600 * 1000;

const app = {
  session: null, // {player, display_name, token, expires_ms}
  seat: null, // {table, seat, code}: where the player sits
  table: null, // {id, socket, model, status, statusDetail}
  stopLobby: null,
  boards: {},
  clockSkewMs: 0,
};

const main = document.getElementById('main');
const banner = document.getElementById('banner');
let bannerTimer = null;

/** Shows an error (an ApiError, an ActError, a server `error` message or text) for a while. */
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

/** Opens (or returns to) the socket of `tableId`. */
function openTable(tableId) {
  if (app.table?.id === tableId) return app.table;
  leaveTable(false);
  const t = { id: tableId, model: emptyModel(), status: 'connecting', statusDetail: null, socket: null };
  t.model.clockSkewMs = app.clockSkewMs;
  t.socket = new TableSocket({
    table: tableId,
    token: app.session.token,
    onMessage: (msg) => {
      if (msg.type === 'error') {
        // An error outside an action: `bad_token`, `not_seated`, `table_closed`, … shown as is.
        showError(msg);
        if (msg.code === 'not_seated' || msg.code === 'table_closed' || msg.code === 'escaped') {
          // No seat here any more (the match ended, the table is gone, or this player escaped
          // and the bot plays the seat to the end): back to the lobby.
          setSeat(null);
          leaveTable(false);
          location.hash = '#/lobby';
        }
        return;
      }
      applyMessage(t.model, msg);
      if (msg.type === 'table_closed' && typeof msg.seq === 'number') setSeat(null);
      scheduleRender();
    },
    onStatus: (status, detail) => {
      t.status = status;
      t.statusDetail = detail ?? null;
      scheduleRender();
    },
  });
  app.table = t;
  t.socket.start();
  return t;
}

/** Closes the current table's socket; `leave` also sends `leave` (an escape mid-hand). */
function leaveTable(leave) {
  if (!app.table) return;
  if (leave) app.table.socket.leave();
  else app.table.socket.close();
  app.table = null;
}

function act(action) {
  const t = app.table;
  if (!t || !t.model.prompt) return;
  const prompt = t.model.prompt;
  prompt.sending = true;
  scheduleRender();
  t.socket.act(action).then(
    () => {
      // Accepted. The prompt is over unless a newer one replaced it meanwhile.
      if (t.model.prompt === prompt) t.model.prompt = null;
      scheduleRender();
    },
    (err) => {
      if (t.model.prompt === prompt) prompt.sending = false;
      // A prompt that timed out meanwhile is answered by the bot, and a table moving to
      // another server sends a snapshot that asks again: neither is worth an alarm.
      if (err.code !== 'disconnected' && err.code !== 'moving') showError(err);
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
  if (!t || !t.model.prompt) return;
  t.model.prompt.sending = true;
  scheduleRender();
  try {
    for (const action of actions) await t.socket.act(action);
  } catch (err) {
    if (err.code !== 'disconnected' && err.code !== 'moving') showError(err);
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
    renderTable(root, {
      model: t.model,
      status: t.status,
      statusDetail: t.statusDetail,
      code: t.model.code ?? (app.seat?.table === t.id ? app.seat.code : null),
      onAct: act,
      onActAll: actAll,
      onRender: scheduleRender,
      onCloseSettlement: () => {
        t.model.settlement = null;
        scheduleRender();
      },
      onLobby: () => {
        leaveTable(false);
        location.hash = '#/lobby';
      },
    });
  });
}

setInterval(() => {
  const root = document.getElementById('table-root');
  if (app.table && root) updateCountdown(root, app.table.model);
}, 250);

function showTable(tableId) {
  const leave = el('button', {
    type: 'button',
    class: 'small danger',
    dataset: { action: 'leave' },
    onclick: () => {
      const midHand = app.table?.model.hand && !app.table.model.hand.over;
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
    if (app.table) app.table.model.clockSkewMs = app.clockSkewMs;
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
  window.addEventListener('hashchange', route);
  route();
}

// For the console and for tests: the state, and a way to drop the connection as a network
// failure would (the socket must reconnect and resume by itself).
window.mahjong = {
  app,
  dropConnection: () => app.table?.socket.drop(),
  lastSeq: () => app.table?.socket.lastSeq ?? null,
  connections: () => app.table?.socket.opens ?? 0,
  lastRetryDelay: () => app.table?.socket.lastRetryDelay ?? null,
};

start();
