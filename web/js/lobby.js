// Signing in as a guest, and the lobby: quick match, creating a room (ruleset, options, bot
// seats, time), joining by code, and the list of public rooms (proto/README.md: "Sign up",
// "Get a seat"). The rulesets, their options and defaults come from `GET /api/rulesets`.

import * as api from './api.js';
import { el, replace } from './dom.js';

/** The sign-in form; `onSignedIn(session)` gets the answer of `POST /api/guests`. */
export function renderSignIn(root, { onSignedIn, onError }) {
  const name = el('input', {
    id: 'signin-name', name: 'display_name', maxlength: 24, required: true, autocomplete: 'nickname',
    placeholder: '小明', dataset: { testid: 'signin-name' },
  });
  const submit = el('button', { type: 'submit', class: 'primary', dataset: { testid: 'signin-submit' } }, 'Play as a guest');
  const form = el('form', {
    class: 'card signin',
    onsubmit: async (e) => {
      e.preventDefault();
      submit.disabled = true;
      try {
        onSignedIn(await api.signUp(name.value.trim()));
      } catch (err) {
        onError(err);
      } finally {
        submit.disabled = false;
      }
    },
  },
  el('h1', {}, '麻将 Mahjong'),
  el('p', {}, 'Sichuan, Guobiao, Shanghai, Beijing, Guangdong, Ningbo, Suzhou, Wuhu and two-player rules against people or bots. Choose a name to play as a guest.'),
  el('label', { for: 'signin-name' }, 'Your name'),
  name,
  submit);
  replace(root, form);
  name.focus();
}

/** The preset first selected: the server's first, or the 血战 preset where it plays it. */
const PREFERRED_RULESET = 'sichuan-xuezhan';

function rulesetSelect(id, testid, rulesets) {
  const select = el('select', { id, dataset: { testid } },
    rulesets.map((r) => el('option', { value: r.id }, api.rulesetName(r))));
  if (rulesets.some((r) => r.id === PREFERRED_RULESET)) select.value = PREFERRED_RULESET;
  return select;
}

/**
 * The lobby, once the rulesets are known. `ctx`: {session, currentTable, onSeated(seated),
 * onError, onResume}. Returns a function that stops it (the room list's refresh).
 */
export function renderLobby(root, ctx) {
  let stopped = false;
  let timer = null;
  const show = (rulesets) => {
    if (stopped) return;
    const cards = [];
    if (ctx.currentTable) {
      cards.push(el('div', { class: 'card resume' },
        el('p', {}, 'You have a seat at a table.'),
        el('button', { type: 'button', class: 'primary', onclick: ctx.onResume, dataset: { testid: 'resume' } }, 'Back to your table')));
    }
    cards.push(quickMatchCard(ctx, rulesets));
    cards.push(createCard(ctx, rulesets));
    cards.push(joinCard(ctx));
    const rooms = roomsCard(ctx, rulesets);
    cards.push(rooms.card);
    replace(root, el('div', { class: 'lobby' }, cards));
    rooms.refresh();
    // The list refreshes while the lobby is shown.
    timer = setInterval(() => rooms.refresh(), 5000);
  };
  const load = () => {
    replace(root, el('p', { class: 'muted' }, 'Loading the rules…'));
    api.rulesets().then(show, (err) => {
      if (stopped) return;
      ctx.onError(err);
      replace(root, el('div', { class: 'card' },
        el('p', {}, `The rules could not be loaded: ${err.message}`),
        el('button', { type: 'button', onclick: load }, 'Try again')));
    });
  };
  load();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

function quickMatchCard(ctx, rulesets) {
  const ruleset = rulesetSelect('quick-ruleset', 'quick-ruleset', rulesets);
  const status = el('p', { class: 'muted', dataset: { testid: 'quick-status' } });
  let waiting = null;
  let ticker = null;
  // The queue's wait before bots fill the table (`GET /api/quickmatch`), counted down here.
  const countdown = async () => {
    let fillMs = null;
    try {
      fillMs = (await api.quickMatchInfo()).fill_ms;
    } catch {
      // Without it the page only says that it waits.
    }
    if (!waiting || fillMs === null) return;
    const until = Date.now() + fillMs;
    const tick = () => {
      const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      status.textContent = left > 0
        ? `Waiting for players… bots fill the table in ${left} s.`
        : 'Seating you with bots…';
      status.dataset.secondsLeft = String(left);
    };
    tick();
    ticker = setInterval(tick, 250);
  };
  const button = el('button', {
    type: 'button', class: 'primary', dataset: { testid: 'quickmatch' },
    onclick: async () => {
      if (waiting) {
        // Stop waiting here. (The server may still seat the player: the seat then shows up as
        // "your table" on the next visit.)
        waiting.abort();
        return;
      }
      waiting = new AbortController();
      button.textContent = 'Cancel';
      status.textContent = 'Waiting for players… bots fill the table if nobody comes.';
      countdown();
      try {
        ctx.onSeated(await api.quickMatch(ruleset.value, waiting.signal));
      } catch (err) {
        if (err.name !== 'AbortError') ctx.onError(err);
        status.textContent = '';
      } finally {
        clearInterval(ticker);
        waiting = null;
        button.textContent = 'Quick match';
      }
    },
  }, 'Quick match');
  return el('div', { class: 'card' }, el('h2', {}, 'Quick match'),
    el('label', { for: 'quick-ruleset' }, 'Rules'), ruleset, el('div', { class: 'buttons' }, button), status);
}

/** A field per room option of `preset` (an entry of `rulesets()`), at its default. */
function optionFields(preset) {
  return (preset?.options ?? []).map((o) => {
    const id = `opt-${o.name}`;
    const data = { option: o.name, kind: o.type, testid: id };
    let input;
    if (o.type === 'bool') {
      input = el('input', { id, type: 'checkbox', checked: o.default === true, dataset: data });
    } else if (o.type === 'choice') {
      input = el('select', { id, dataset: data }, (o.values ?? []).map((v) => el('option', { value: v }, v)));
      input.value = o.default;
    } else {
      input = el('input', { id, type: 'number', value: o.default, min: o.min, max: o.max, step: 1, required: true, dataset: data });
    }
    return el('div', { class: ['field', o.type === 'bool' && 'check'] },
      el('label', { for: id }, `${o.name_zh} ${o.name_en}`), input);
  });
}

function createCard(ctx, rulesets) {
  const ruleset = rulesetSelect('create-ruleset', 'create-ruleset', rulesets);
  const preset = () => rulesets.find((r) => r.id === ruleset.value);
  const options = el('div', { class: 'options' });
  const seatSelects = [1, 2, 3].map((i) => el('select', { id: `bot-${i}`, dataset: { testid: `bot-${i}` } },
    api.BOT_LEVELS.map((l) => el('option', { value: l }, `bot (${l})`)),
    el('option', { value: '' }, 'a player')));
  seatSelects.forEach((s) => { s.value = 'basic'; });
  const actionSeconds = el('input', { id: 'action-seconds', type: 'number', min: 3, max: 300, value: 20, dataset: { testid: 'action-seconds' } });
  const bankSeconds = el('input', { id: 'bank-seconds', type: 'number', min: 0, max: 600, value: 20, dataset: { testid: 'bank-seconds' } });
  const hands = el('input', { id: 'hands', type: 'number', min: 1, max: 64, dataset: { testid: 'hands' } });
  // Left empty, the room plays the ruleset's default match, shown as the placeholder.
  const showDefaults = () => {
    replace(options, optionFields(preset()));
    hands.placeholder = `${preset()?.default_hands ?? 8} (the rules' match)`;
  };
  // Only the preset's other seats are offered (one in two-player, three elsewhere).
  const showSeats = () => {
    const others = (preset()?.players ?? 4) - 1;
    seatSelects.forEach((s, i) => { s.parentElement.hidden = i >= others; });
  };
  showDefaults();
  ruleset.addEventListener('change', showDefaults);
  const isPublic = el('input', { id: 'public', type: 'checkbox', checked: true });
  const delay = el('input', { id: 'spectator-delay', type: 'number', min: 0, max: 600, value: 0 });
  // The claim window after every discard, whoever could claim (the server's default when empty).
  const claimSeconds = el('input', { id: 'claim-seconds', type: 'number', min: 1, max: 15, placeholder: '4' });
  const submit = el('button', { type: 'submit', class: 'primary', dataset: { testid: 'create-room' } }, 'Create the room');
  const form = el('form', {
    class: 'card create',
    onsubmit: async (e) => {
      e.preventDefault();
      // Bots take the seats after the creator's, in order; a seat left to "a player" and every
      // one after it wait for people.
      const bots = [];
      for (const s of seatSelects) {
        if (!s.value || s.parentElement.hidden) break;
        bots.push(s.value);
      }
      const opts = {};
      for (const input of options.querySelectorAll('[data-option]')) {
        const kind = input.dataset.kind;
        opts[input.dataset.option] = kind === 'bool' ? input.checked : kind === 'choice' ? input.value : Number(input.value);
      }
      const spec = {
        ruleset: ruleset.value,
        options: opts,
        bots,
        action_seconds: Number(actionSeconds.value),
        time_bank_seconds: Number(bankSeconds.value),
        public: isPublic.checked,
        spectator_delay_seconds: Number(delay.value),
      };
      if (claimSeconds.value) spec.claim_window_seconds = Number(claimSeconds.value);
      if (hands.value) spec.hands = Number(hands.value);
      submit.disabled = true;
      try {
        ctx.onSeated(await api.createRoom(spec));
      } catch (err) {
        ctx.onError(err);
      } finally {
        submit.disabled = false;
      }
    },
  },
  el('h2', {}, 'Create a room'),
  el('div', { class: 'field' }, el('label', { for: 'create-ruleset' }, 'Rules'), ruleset),
  options,
  el('fieldset', {}, el('legend', {}, 'Seats (you sit in the first)'),
    seatSelects.map((s, i) => el('div', { class: 'field' }, el('label', { for: s.id }, `Seat ${i + 2}`), s))),
  el('div', { class: 'field' }, el('label', { for: 'action-seconds' }, 'Seconds per decision'), actionSeconds),
  el('div', { class: 'field' }, el('label', { for: 'bank-seconds' }, 'Time bank per hand (s)'), bankSeconds),
  el('div', { class: 'field' }, el('label', { for: 'claim-seconds' }, 'Seconds to claim a discard'), claimSeconds),
  el('div', { class: 'field' }, el('label', { for: 'hands' }, 'Hands'), hands),
  el('div', { class: 'field check' }, el('label', { for: 'public' }, 'Listed in the lobby'), isPublic),
  el('div', { class: 'field' }, el('label', { for: 'spectator-delay' }, 'Spectator delay (s)'), delay),
  el('div', { class: 'buttons' }, submit));
  showSeats();
  ruleset.addEventListener('change', showSeats);
  return form;
}

function joinCard(ctx) {
  const code = el('input', { id: 'join-code', maxlength: 6, placeholder: 'JWAZKH', autocapitalize: 'characters', dataset: { testid: 'join-code' } });
  return el('form', {
    class: 'card',
    onsubmit: async (e) => {
      e.preventDefault();
      try {
        ctx.onSeated(await api.joinRoom(code.value.trim().toUpperCase()));
      } catch (err) {
        ctx.onError(err);
      }
    },
  },
  el('h2', {}, 'Join with a code'),
  el('div', { class: 'field' }, el('label', { for: 'join-code' }, 'Room code'), code),
  el('div', { class: 'buttons' }, el('button', { type: 'submit' }, 'Join')));
}

function roomsCard(ctx, rulesets) {
  const list = el('div', { class: 'rooms', dataset: { testid: 'rooms' } });
  const refresh = async () => {
    let rooms;
    try {
      rooms = await api.listRooms();
    } catch (err) {
      replace(list, el('p', { class: 'muted' }, `The room list is unavailable: ${err.message}`));
      return;
    }
    if (!rooms.length) {
      replace(list, el('p', { class: 'muted' }, 'No open rooms. Create one!'));
      return;
    }
    const name = (id) => {
      const r = rulesets.find((x) => x.id === id);
      return r ? api.rulesetName(r) : id;
    };
    replace(list, el('ul', { class: 'room-list' }, rooms.map((r) => el('li', {},
      el('div', { class: 'room-rules' }, name(r.ruleset)),
      el('div', { class: 'muted' }, r.seats.map((s) => (s.status === 'empty' ? '(free seat)' : s.name)).join(' · ')),
      el('div', { class: 'room-foot' },
        el('span', { class: 'muted' }, `${r.hands_played} hands played`),
        el('span', { class: 'muted' }, `${r.action_seconds} s a decision, ${r.claim_window_ms / 1000} s to claim`),
        el('button', {
          type: 'button',
          dataset: { code: r.code },
          onclick: async () => {
            try {
              ctx.onSeated(await api.joinRoom(r.code));
            } catch (err) {
              ctx.onError(err);
            }
          },
        }, `Join ${r.code}`))))));
  };
  const card = el('div', { class: 'card' },
    el('h2', {}, 'Open rooms ', el('button', { type: 'button', class: 'small', onclick: refresh }, 'Refresh')),
    list);
  return { card, refresh };
}
