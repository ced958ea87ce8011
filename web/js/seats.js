// Seats as a player names them (下家, 对家, 上家; 东南西北 from the dealer), and the pieces of
// a seat drawn the same way at the table, in the settlement and in replays: its melds.

import { el } from './dom.js';
import { backElement, tileElement, windChar } from './tiles.js';

/** The number of seats of a table state (the SDK's `TableState`). */
export function playerCount(state) {
  return Math.max(state.seats.length, state.hand?.players.length ?? 0, state.scores.length) || 4;
}

/** Where a seat sits as seen from `me`: me, right (下家), top (对家), left (上家). */
export function position(seat, me, n) {
  const offset = (seat - me + n) % n;
  if (n === 4) return ['me', 'right', 'top', 'left'][offset];
  if (n === 3) return ['me', 'right', 'left'][offset];
  return ['me', 'top'][offset] ?? 'top';
}

export const POSITION_NAMES = { me: '', right: '下家', top: '对家', left: '上家' };

/** The seat wind of `seat` in a hand dealt by `dealer`: 东 for the dealer, then 南, 西, 北. */
export function seatWind(seat, dealer, n) {
  return windChar((seat - dealer + n) % n);
}

/** A seat's name as the table shows it: "You" for the viewer, else the seat's player or bot. */
export function seatName(state, seat) {
  if (seat === state.seat) return 'You';
  return state.seats[seat]?.name ?? `Seat ${seat + 1}`;
}

/** A meld face up (the claimed tile turned), or four backs for another seat's 暗杠. */
export function meldElement(meld, { wild = null, name = (s) => `seat ${s + 1}` } = {}) {
  const box = el('span', { class: 'meld' });
  if (meld.kind === 'hidden_kong') {
    for (let i = 0; i < 4; i++) box.append(backElement('small'));
    box.title = 'concealed kong 暗杠';
    return box;
  }
  let claimedMarked = false;
  const tiles = meld.tiles ?? [];
  const claimedFrom = meld.from !== null && meld.from !== undefined;
  tiles.forEach((t, i) => {
    const isClaimed = !claimedMarked && claimedFrom && meld.claimed === t;
    if (isClaimed) claimedMarked = true;
    // An own concealed kong shows its outer tiles face down, as at a real table.
    const face = meld.shape === 'concealed_kong' && (i === 0 || i === 3)
      ? backElement('small')
      : tileElement(t, { size: 'small', wild, classes: isClaimed ? ['turned'] : [] });
    box.append(face);
  });
  box.title = `${meld.shape.replace('_', ' ')}${claimedFrom ? ` from ${name(meld.from)}` : ''}`;
  box.dataset.shape = meld.shape;
  return box;
}
