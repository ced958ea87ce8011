// Signing in as a guest, and the lobby: quick match, creating a room (ruleset, options, bot
// seats, time), joining by code, and the list of public rooms (proto/README.md: "Sign up",
// "Get a seat").

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
  el('p', {}, 'Sichuan 血战到底, Guobiao and Shanghai rules against people or bots. Choose a name to play as a guest.'),
  el('label', { for: 'signin-name' }, 'Your name'),
  name,
  submit);
  replace(root, form);
  name.focus();
}

function rulesetSelect(id, testid) {
  return el('select', { id, dataset: { testid } },
    api.RULESETS.map((r) => el('option', { value: r.id }, r.name)));
}

/** The lobby. `ctx`: {session, currentTable, onSeated(seated), onError, onResume}. */
export function renderLobby(root, ctx) {
  const cards = [];
  if (ctx.currentTable) {
    cards.push(el('div', { class: 'card resume' },
      el('p', {}, 'You have a seat at a table.'),
      el('button', { type: 'button', class: 'primary', onclick: ctx.onResume, dataset: { testid: 'resume' } }, 'Back to your table')));
  }
  cards.push(quickMatchCard(ctx));
  cards.push(createCard(ctx));
  cards.push(joinCard(ctx));
  const rooms = roomsCard(ctx);
  cards.push(rooms.card);
  replace(root, el('div', { class: 'lobby' }, cards));
  rooms.refresh();
  // The list refreshes while the lobby is shown; the returned function stops it.
  const timer = setInterval(() => rooms.refresh(), 5000);
  return () => clearInterval(timer);
}

function quickMatchCard(ctx) {
  const ruleset = rulesetSelect('quick-ruleset', 'quick-ruleset');
  const status = el('p', { class: 'muted' });
  let waiting = null;
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
      try {
        ctx.onSeated(await api.quickMatch(ruleset.value, waiting.signal));
      } catch (err) {
        if (err.name !== 'AbortError') ctx.onError(err);
        status.textContent = '';
      } finally {
        waiting = null;
        button.textContent = 'Quick match';
      }
    },
  }, 'Quick match');
  return el('div', { class: 'card' }, el('h2', {}, 'Quick match'),
    el('label', { for: 'quick-ruleset' }, 'Rules'), ruleset, el('div', { class: 'buttons' }, button), status);
}

function optionFields(rulesetId) {
  return (api.RULESET_OPTIONS[rulesetId] ?? []).map((o) => {
    const id = `opt-${o.name}`;
    const input = o.kind === 'bool'
      ? el('input', { id, type: 'checkbox', checked: o.value, dataset: { option: o.name, kind: o.kind } })
      : el('input', { id, type: 'number', value: o.value, step: 1, dataset: { option: o.name, kind: o.kind } });
    return el('div', { class: ['field', o.kind === 'bool' && 'check'] }, el('label', { for: id }, o.label), input);
  });
}

function createCard(ctx) {
  const ruleset = rulesetSelect('create-ruleset', 'create-ruleset');
  const options = el('div', { class: 'options' }, optionFields(ruleset.value));
  ruleset.addEventListener('change', () => replace(options, optionFields(ruleset.value)));
  const seatSelects = [1, 2, 3].map((i) => el('select', { id: `bot-${i}`, dataset: { testid: `bot-${i}` } },
    api.BOT_LEVELS.map((l) => el('option', { value: l }, `bot (${l})`)),
    el('option', { value: '' }, 'a player')));
  seatSelects.forEach((s) => { s.value = 'basic'; });
  const actionSeconds = el('input', { id: 'action-seconds', type: 'number', min: 3, max: 300, value: 20, dataset: { testid: 'action-seconds' } });
  const bankSeconds = el('input', { id: 'bank-seconds', type: 'number', min: 0, max: 600, value: 20, dataset: { testid: 'bank-seconds' } });
  const hands = el('input', { id: 'hands', type: 'number', min: 1, max: 64, placeholder: 'ruleset default', dataset: { testid: 'hands' } });
  const isPublic = el('input', { id: 'public', type: 'checkbox', checked: true });
  const delay = el('input', { id: 'spectator-delay', type: 'number', min: 0, max: 600, value: 0 });
  const submit = el('button', { type: 'submit', class: 'primary', dataset: { testid: 'create-room' } }, 'Create the room');
  const form = el('form', {
    class: 'card create',
    onsubmit: async (e) => {
      e.preventDefault();
      // Bots take the seats after the creator's, in order; a seat left to "a player" and every
      // one after it wait for people.
      const bots = [];
      for (const s of seatSelects) {
        if (!s.value) break;
        bots.push(s.value);
      }
      const opts = {};
      for (const input of options.querySelectorAll('[data-option]')) {
        opts[input.dataset.option] = input.dataset.kind === 'bool' ? input.checked : Number(input.value);
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
  el('div', { class: 'field' }, el('label', { for: 'hands' }, 'Hands'), hands),
  el('div', { class: 'field check' }, el('label', { for: 'public' }, 'Listed in the lobby'), isPublic),
  el('div', { class: 'field' }, el('label', { for: 'spectator-delay' }, 'Spectator delay (s)'), delay),
  el('div', { class: 'buttons' }, submit));
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

function roomsCard(ctx) {
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
    const name = (id) => api.RULESETS.find((r) => r.id === id)?.name ?? id;
    replace(list, el('ul', { class: 'room-list' }, rooms.map((r) => el('li', {},
      el('div', { class: 'room-rules' }, name(r.ruleset)),
      el('div', { class: 'muted' }, r.seats.map((s) => (s.status === 'empty' ? '(free seat)' : s.name)).join(' · ')),
      el('div', { class: 'room-foot' },
        el('span', { class: 'muted' }, `${r.hands_played} hands played`),
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
