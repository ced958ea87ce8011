// A finished hand, step by step, from `GET /api/tables/{table}/hands/{n}`.
//
// The hand's `record` is its replay record (crates/engine/src/record.rs): ruleset, options,
// seed, dealer and every accepted action as `[seat, action]`. The engine draws the tiles, so
// the record holds no draws: a browser without the engine can rebuild the public side of the
// hand (discards, claims, melds, 定缺, wins) but not the concealed hands, which the stored
// settlement shows at the end. The seed in `record.seed` is larger than 2^53 and loses digits
// in JSON.parse; the hand's `seed` field is the exact decimal string.

import * as api from './api.js';
import { el, replace, signed } from './dom.js';
import { settlementBody, seatWind } from './table.js';
import { SUIT_NAMES, tileElement, tileName } from './tiles.js';

const CLAIMS = ['win', 'pung', 'exposed_kong', 'chow', 'pass'];
// Rulesets where one discard may make several winners (一炮多响); elsewhere the first in turn
// order after the discarder wins alone (head bump), as `Rules::multi_win` decides.
const HEAD_BUMP = ['guobiao', 'guobiao-house'];

function emptySeat() {
  return { discards: [], melds: [], void: null, won: null, said: null };
}

function runOf(low) {
  const rank = Number(low[0]);
  return [0, 1, 2].map((k) => `${rank + k}${low[1]}`);
}

/**
 * The public state after the first `upto` actions of `record`, for a table of `n` seats. A
 * claim window (the answers after a discard or an added kong) is resolved by priority each
 * time: win over pung and kong over chow, as the engine does.
 */
export function stateAt(record, n, upto) {
  const seats = Array.from({ length: n }, emptySeat);
  const multiWin = !HEAD_BUMP.includes(record.ruleset);
  let window = null; // {from, tile, kind: 'discard' | 'kong', answers: [[seat, action]]}
  let last = null;
  const resolve = () => {
    if (!window) return;
    const order = Array.from({ length: n - 1 }, (_, i) => (window.from + 1 + i) % n);
    const answer = (s) => window.answers.find(([seat]) => seat === s)?.[1];
    let winners = order.filter((s) => answer(s)?.type === 'win');
    if (winners.length) {
      if (!multiWin) winners = winners.slice(0, 1);
      for (const s of winners) seats[s].won = { tile: window.tile, from: window.from };
      takeOffered(seats[window.from], window);
    } else {
      const meld = order.map((s) => [s, answer(s)]).find(([, a]) => a?.type === 'pung' || a?.type === 'exposed_kong')
        ?? order.map((s) => [s, answer(s)]).find(([, a]) => a?.type === 'chow');
      if (meld && window.kind === 'discard') {
        const [s, a] = meld;
        const tiles = a.type === 'chow' ? runOf(a.low) : Array(a.type === 'pung' ? 3 : 4).fill(window.tile);
        seats[s].melds.push({ shape: a.type, tiles, from: window.from, claimed: window.tile });
        takeOffered(seats[window.from], window);
      }
    }
  };
  const actions = record.actions ?? [];
  for (let i = 0; i < Math.min(upto, actions.length); i++) {
    const [seat, a] = actions[i];
    const p = seats[seat];
    if (!p) continue;
    last = [seat, a];
    if (CLAIMS.includes(a.type) && window) {
      window.answers = window.answers.filter(([s]) => s !== seat);
      window.answers.push([seat, a]);
      p.said = a.type;
      continue;
    }
    // Any other action closes the window before it.
    resolve();
    window = null;
    for (const q of seats) q.said = null;
    switch (a.type) {
      case 'declare_void':
        p.void = a.suit;
        break;
      case 'discard':
        p.discards.push({ tile: a.tile, claimed: false });
        window = { from: seat, tile: a.tile, kind: 'discard', answers: [] };
        break;
      case 'concealed_kong':
        p.melds.push({ shape: 'concealed_kong', tiles: Array(4).fill(a.tile) });
        // Where the rules let 一条龙 rob a concealed kong, its answers are a window too.
        window = { from: seat, tile: a.tile, kind: 'concealed', answers: [] };
        break;
      case 'added_kong': {
        const m = p.melds.find((x) => x.shape === 'pung' && x.tiles[0] === a.tile);
        if (m) {
          m.shape = 'added_kong';
          m.tiles = Array(4).fill(a.tile);
        }
        // The kong may be robbed: its answers are a window of their own.
        window = { from: seat, tile: a.tile, kind: 'kong', answers: [] };
        break;
      }
      case 'self_draw_win':
        p.won = { tile: null, from: null };
        break;
      default:
        break;
    }
  }
  // The window still open at this step shows its answers so far.
  resolve();
  return { seats, last };
}

function takeOffered(from, window) {
  if (window.kind === 'discard') {
    const d = from.discards[from.discards.length - 1];
    if (d && d.tile === window.tile) d.claimed = true;
  } else if (window.kind === 'concealed') {
    // A robbed concealed kong was never laid down.
    const i = from.melds.findIndex((x) => x.shape === 'concealed_kong' && x.tiles[0] === window.tile);
    if (i >= 0) from.melds.splice(i, 1);
  } else {
    // A robbed kong stays a pung.
    const m = from.melds.find((x) => x.shape === 'added_kong' && x.tiles[0] === window.tile);
    if (m) {
      m.shape = 'pung';
      m.tiles = m.tiles.slice(0, 3);
    }
  }
}

const VERBS = {
  declare_void: (a) => `gives up ${SUIT_NAMES[a.suit] ?? a.suit} (定缺)`,
  discard: (a) => `discards ${tileName(a.tile)}`,
  self_draw_win: () => 'wins on its own draw (自摸)',
  concealed_kong: (a) => `declares a concealed kong of ${tileName(a.tile)}`,
  added_kong: (a) => `adds ${tileName(a.tile)} to a pung`,
  win: () => 'wins on the tile (和)',
  pung: () => 'claims a pung (碰)',
  exposed_kong: () => 'claims a kong (杠)',
  chow: (a) => `claims a chow (吃) ${runOf(a.low).map(tileName).join(' ')}`,
  pass: () => 'passes',
  draw_last: () => 'draws the last tile (海底)',
  decline_last: () => 'declines the last tile: the hand is drawn (荒庄)',
  declare_ready: (a) => `discards ${tileName(a.tile)} and declares ready (报听)`,
  // Shown only after the hand, when every hand is shown anyway.
  swap_mark: (a) => `marks ${tileName(a.tile)} to swap (换牌)`,
  swap_done: () => 'finishes its swap (换牌)',
};

/** Describes one action for people. */
export function describe(action) {
  return (VERBS[action?.type] ?? (() => action?.type ?? '?'))(action);
}

/** The replay view. */
export async function renderReplay(root, { table, handNo, session, onError }) {
  replace(root, el('div', { class: 'card wide' }, el('p', { class: 'muted' }, 'Loading the hand…')));
  let hand;
  try {
    hand = await api.hand(table, handNo);
  } catch (err) {
    onError(err);
    replace(root, el('div', { class: 'card wide' }, el('p', {}, `This hand cannot be shown: ${err.message}`)));
    return;
  }
  const record = hand.record ?? { actions: [] };
  const n = hand.seats?.length || 4;
  const total = record.actions?.length ?? 0;
  // The hand lists player ids (no names): the viewer, another player, or a bot.
  const name = (s) => {
    const p = hand.seats?.[s]?.player;
    return p === session?.player ? 'You' : p ? `Player …${p.slice(-6)}` : 'Bot';
  };
  const who = (s) => `${seatWind(s, hand.dealer, n)} · ${name(s)}`;
  let step = total;
  let timer = null;

  const board = el('div', { class: 'replay-board', dataset: { testid: 'replay-board' } });
  const label = el('div', { class: 'replay-step', dataset: { testid: 'replay-step' } });
  const slider = el('input', { type: 'range', min: 0, max: total, value: step, 'aria-label': 'step' });
  const settlement = el('div', { class: 'replay-settlement' });

  const draw = () => {
    const { seats, last } = stateAt(record, n, step);
    slider.value = String(step);
    label.textContent = step === 0
      ? `Start — dealer ${who(hand.dealer)}`
      : `Step ${step} / ${total}: ${who(last[0])} ${describe(last[1])}`;
    replace(board, seats.map((p, s) => el('section', { class: ['seat-panel', last && last[0] === s && 'turn'] },
      el('div', { class: 'seat-head' },
        el('span', { class: ['wind', s === hand.dealer && 'dealer'] }, seatWind(s, hand.dealer, n)),
        el('span', { class: 'name' }, name(s)),
        p.void ? el('span', { class: 'chip void' }, `缺${SUIT_NAMES[p.void] ?? p.void}`) : null,
        p.won ? el('span', { class: 'chip won' }, p.won.tile ? `和 ${tileName(p.won.tile)}` : '自摸') : null,
        p.said ? el('span', { class: 'chip' }, p.said) : null,
        step === total ? el('span', { class: 'score' }, signed(hand.seats?.[s]?.delta ?? 0)) : null),
      p.melds.length ? el('div', { class: 'seat-row' }, el('span', { class: 'melds' }, p.melds.map((m) => el('span', { class: 'meld', title: m.shape },
        m.tiles.map((t) => tileElement(t, { size: 'small' })))))) : null,
      el('div', { class: 'river' }, p.discards.map((d) => tileElement(d.tile, { size: 'river', classes: d.claimed ? ['claimed'] : [] }))))));
    if (step === total) {
      replace(settlement, el('h3', {}, 'Settlement'), settlementBody({ settlement: hand.settlement, dealer: hand.dealer, seed: hand.seed }, {
        players: n, name, me: null,
      }));
    } else {
      replace(settlement);
    }
  };
  const go = (k) => {
    step = Math.max(0, Math.min(total, k));
    draw();
  };
  const play = el('button', {
    type: 'button',
    dataset: { action: 'replay-play' },
    onclick: () => {
      if (timer) {
        clearInterval(timer);
        timer = null;
        play.textContent = '▶ Play';
        return;
      }
      if (step >= total) go(0);
      play.textContent = '⏸ Pause';
      timer = setInterval(() => {
        if (step >= total || !root.isConnected) {
          clearInterval(timer);
          timer = null;
          play.textContent = '▶ Play';
          return;
        }
        go(step + 1);
      }, 700);
    },
  }, '▶ Play');
  slider.addEventListener('input', () => go(Number(slider.value)));
  const controls = el('div', { class: 'replay-controls' },
    el('button', { type: 'button', onclick: () => go(0), 'aria-label': 'first step' }, '«'),
    el('button', { type: 'button', dataset: { action: 'replay-prev' }, onclick: () => go(step - 1), 'aria-label': 'previous step' }, '◀'),
    play,
    el('button', { type: 'button', dataset: { action: 'replay-next' }, onclick: () => go(step + 1), 'aria-label': 'next step' }, '▶'),
    el('button', { type: 'button', onclick: () => go(total), 'aria-label': 'last step' }, '»'),
    slider);
  replace(root, el('div', { class: 'card wide replay' },
    el('h2', {}, `Replay: ${hand.ruleset}, hand ${hand.hand_no + 1} (${hand.ending})`),
    el('p', { class: 'muted' }, 'The record holds every decision but not the draws, which the engine makes from the seed: concealed hands are not shown here.'),
    controls, label, board, settlement,
    el('p', {}, el('a', { href: `#/hands/${hand.table}` }, 'All hands of this table'))));
  draw();
}
