// A finished hand, step by step, from `GET /api/tables/{table}/hands/{n}/stream`: the hand as
// its stream of messages, every seat's own events included. The SDK's reducer plays it once per
// seat (`replaySteps`), so every hand shows at every step with no rules in the page; the public
// side (rivers, melds, wins) is the same in each seat's view.

import { replaySteps } from '/sdk/index.js';
import * as api from './api.js';
import { el, replace } from './dom.js';
import { meldElement, seatWind } from './seats.js';
import { settlementBody } from './settlement.js';
import { SUIT_NAMES, sortTiles, tileElement, tileName } from './tiles.js';

function runOf(low) {
  const rank = Number(low[0]);
  return [0, 1, 2].map((k) => `${rank + k}${low[1]}`);
}

const MELDS = {
  chow: '吃 chows',
  pung: '碰 pungs',
  exposed_kong: '杠 kongs',
  concealed_kong: '暗杠 declares a concealed kong of',
  added_kong: '加杠 adds to a pung',
};

/** One event of the stream in words, or null for one not worth a step's label. */
function describeEvent(e, name) {
  const who = (s) => name(s);
  switch (e.kind) {
    case 'hand_started':
      return `The hand starts: ${who(e.dealer)} deals (dice ${e.dice.join(' + ')})`;
    case 'dealt':
      return `${who(e.seat)} is dealt ${e.tiles.length} tiles`;
    case 'drew':
      return `${who(e.seat)} draws ${e.tile ? tileName(e.tile) : 'a tile'}${e.replacement ? ' (replacement)' : ''}`;
    case 'discarded':
      return `${who(e.seat)} discards ${tileName(e.tile)}`;
    case 'flower_replaced':
      return `${who(e.seat)} sets aside the flower ${tileName(e.flower)}`;
    case 'melded': {
      const m = e.meld;
      if (m.kind === 'hidden_kong') return `${who(e.seat)} declares a concealed kong`;
      const tiles = m.shape === 'chow' ? m.tiles.map(tileName).join(' ') : tileName(m.tiles[0]);
      return `${who(e.seat)} ${MELDS[m.shape] ?? m.shape} ${tiles}`;
    }
    case 'kong_offered':
      return `${who(e.seat)} declares a kong${e.tile ? ` of ${tileName(e.tile)}` : ''} — it may be robbed`;
    case 'won':
      return e.win.from === null || e.win.from === undefined
        ? `${who(e.win.seat)} wins on its own draw (自摸) with ${tileName(e.win.tile)}`
        : `${who(e.win.seat)} wins on ${tileName(e.win.tile)} from ${who(e.win.from)} (和)`;
    case 'passed':
      return `${who(e.seat)} passes`;
    case 'claim_entered':
      return `${who(e.seat)} claims`;
    case 'void_chosen':
      return `${who(e.seat)} gives up ${SUIT_NAMES[e.suit] ?? e.suit} (定缺)`;
    case 'voids_revealed':
      return '定缺 revealed';
    case 'swap_marked':
      return `${who(e.seat)} marks ${tileName(e.tile)} to swap (换牌)`;
    case 'swapped':
      return `${who(e.seat)} swaps ${e.out.map(tileName).join(' ')} for ${e.received.map(tileName).join(' ')}`;
    case 'wild_turned':
      return `The wild is ${tileName(e.wild)} (百搭)`;
    case 'bonus_turned':
      return `Bonus tile ${tileName(e.tile)} turned up (花牌)`;
    case 'ready_declared':
      return `${who(e.seat)} declares ready (报听)`;
    case 'seabed_started':
      return `海底捞月: ${who(e.seat)} draws from the tiles set aside`;
    case 'last_offered':
      return `${who(e.seat)} is offered the last tile (海底)`;
    case 'last_declined':
      return `${who(e.seat)} declines the last tile: the hand is drawn (荒庄)`;
    case 'hand_ended':
      return e.exhausted ? 'The hand ends: the wall ran out (荒庄)' : 'The hand ends';
    default:
      return e.kind;
  }
}

/** One message of the stream in words. */
function describe(frame, name) {
  if (frame.type === 'event') return describeEvent(frame.event, name);
  if (frame.type === 'hand_starting') return 'The hand is about to be dealt';
  if (frame.type === 'hand_over') return 'Settlement';
  return frame.type;
}

/** A seat at one step: its head, its concealed tiles (from its own view), melds and river. */
function seatPanel(view, own, seat, stream, name, active) {
  const h = view.hand;
  const n = stream.seats.length;
  const p = h?.players[seat];
  const tiles = own.hand?.hand ?? [];
  return el('section', { class: ['seat-panel', active && 'turn'], dataset: { testid: 'replay-seat', seat } },
    el('div', { class: 'seat-head' },
      h ? el('span', { class: ['wind', seat === h.dealer && 'dealer'] }, seatWind(seat, h.dealer, n)) : null,
      el('span', { class: 'name' }, name(seat)),
      p?.void ? el('span', { class: 'chip void' }, `缺${SUIT_NAMES[p.void] ?? p.void}`) : null,
      p?.won ? el('span', { class: 'chip won' }, `和 ${tileName(p.won.tile)}`) : null,
      el('span', { class: 'score' }, String(view.scores[seat] ?? 0))),
    el('div', { class: 'seat-row', dataset: { testid: 'replay-hand' } },
      sortTiles(tiles).map((t) => tileElement(t, { size: 'small', wild: h?.wild })),
      p?.melds.length ? el('span', { class: 'melds' }, p.melds.map((m) => meldElement(m, { wild: h?.wild, name }))) : null,
      p?.flowers.length ? el('span', { class: 'flowers' }, p.flowers.map((f) => tileElement(f, { size: 'small' }))) : null),
    el('div', { class: 'river' }, (p?.river ?? []).map((d, i) => tileElement(d.tile, {
      size: 'river',
      classes: [d.claimed && 'claimed', h.lastDiscard === seat && i === p.river.length - 1 && !d.claimed && 'latest'].filter(Boolean),
    }))));
}

/** A step's table; after `hand_over` (no hand in play) the hand as it ended. */
function shown(state) {
  return state.hand || !state.lastHand ? state : { ...state, hand: state.lastHand.hand };
}

/** The seat an event is about, to mark it at that step. */
function actor(frame) {
  const e = frame.type === 'event' ? frame.event : null;
  if (!e) return null;
  return e.kind === 'won' ? e.win.seat : e.seat ?? null;
}

/** The replay view: it opens at the first step, the players named. */
export async function renderReplay(root, { table, handNo, session, onError }) {
  replace(root, el('div', { class: 'card wide' }, el('p', { class: 'muted' }, 'Loading the hand…')));
  let stream;
  try {
    stream = await api.handStream(table, handNo);
  } catch (err) {
    onError(err);
    replace(root, el('div', { class: 'card wide' }, el('p', {}, `This hand cannot be shown: ${err.message}`)));
    return;
  }
  const n = stream.seats.length;
  // Each seat's view of every step: its own tiles come from its own view.
  const views = Array.from({ length: n }, (_, seat) => replaySteps(stream, seat));
  const total = stream.frames.length;
  const name = (s) => {
    const seat = stream.seats[s];
    if (!seat) return `Seat ${s + 1}`;
    const you = seat.player && seat.player === session?.player ? ' (you)' : '';
    return `${seat.name}${you}`;
  };
  const label = await api.rulesetLabel(stream.ruleset);
  let step = 0;
  let timer = null;

  const board = el('div', { class: 'replay-board', dataset: { testid: 'replay-board' } });
  const caption = el('div', { class: 'replay-step', dataset: { testid: 'replay-step' } });
  const slider = el('input', { type: 'range', min: 0, max: total, value: step, 'aria-label': 'step' });
  const settlement = el('div', { class: 'replay-settlement' });

  const draw = () => {
    const view = shown(views[0][step]);
    const frame = step > 0 ? stream.frames[step - 1] : null;
    slider.value = String(step);
    caption.textContent = frame ? `Step ${step} / ${total}: ${describe(frame, name)}` : `Start — ${n} players, step 0 / ${total}`;
    const acting = frame ? actor(frame) : null;
    replace(board, stream.seats.map((_, seat) => seatPanel(view, shown(views[seat][step]), seat, stream, name, acting === seat)));
    const last = views[0][step].lastHand;
    if (step === total && last) {
      replace(settlement, el('h3', {}, 'Settlement 结算'), settlementBody({
        settlement: last.settlement,
        scores: last.scores,
        hand: last.hand,
        seed: last.seed,
      }, { players: n, name, me: null }));
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
    el('h2', {}, `Replay: ${label}, hand ${stream.hand_no + 1}`),
    el('p', { class: 'muted' }, stream.seats.map((_, s) => name(s)).join(' · ')),
    controls, caption, board, settlement,
    el('p', {}, el('a', { href: `#/hands/${stream.table}` }, 'All hands of this table'))));
  draw();
}
