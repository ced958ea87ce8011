// A hand's settlement, as the table shows it after `hand_over` and a replay at its end: every
// seat's hand and delta, how each win came, each winner's fan lines (Chinese and English), and
// who paid whom — for the win or for which extra line (刮风, 下雨, 查叫 …) — in points.

import { el, signed } from './dom.js';
import { meldElement, seatWind } from './seats.js';
import { sortTiles, tileElement, tileName } from './tiles.js';

/** The unit every payment and delta is counted in. */
const UNIT = 'points 分';

/** "your" for the viewer ("You", "南 You"), else the name's possessive. */
function possessive(name) {
  return name === 'You' || name.endsWith(' You') ? 'your' : `${name}’s`;
}

/**
 * How a win came, in words: self-drawn, on a discard, or robbing a kong (when the winner's
 * lines say 抢杠). `name(seat)` names a seat.
 */
export function winHow(win, name, lines = []) {
  if (win.from === null || win.from === undefined) return '自摸 self-drawn';
  if (lines.some((l) => l.name.includes('抢杠'))) return `抢杠 robbing ${possessive(name(win.from))} kong`;
  return `点炮 on ${possessive(name(win.from))} discard`;
}

/** A line's name in Chinese with its English beside it (when the server gives one). */
function lineName(line) {
  return line.name_en ? `${line.name} ${line.name_en}` : line.name;
}

/** What a payment was for, in words. */
function paidFor(payment, name) {
  const why = payment.for;
  if (why?.kind === 'extra') {
    const en = payment.name_en ?? null;
    return en ? `${why.name} ${en}` : why.name;
  }
  return `${possessive(name(payment.payee))} win 和`;
}

/**
 * The settlement's body. `result`: {settlement, scores?, hand? (the SDK's HandState as the hand
 * ended), seed?}; `opts`: {players, name(seat), me}.
 */
export function settlementBody(result, opts) {
  const st = result.settlement ?? { fans: [], extras: [], deltas: [], payments: [] };
  const h = result.hand ?? null;
  const n = opts.players || st.deltas.length;
  // Bots share a name: a seat is named with its wind as well (南 You, 西 bot (basic)).
  const label = opts.name;
  const name = (seat) => (h ? `${seatWind(seat, h.dealer, n)} ${label(seat)}` : label(seat));
  opts = { ...opts, label, name };
  const wrap = el('div', { class: 'settle-body' });
  if (!(st.fans ?? []).length) {
    const why = h?.declinedBy === null || h?.declinedBy === undefined
      ? '荒庄 A drawn hand: the wall ran out, nobody won.'
      : `荒庄 A drawn hand: ${opts.name(h.declinedBy)} declined the last tile (海底).`;
    wrap.append(el('p', { class: 'muted', dataset: { testid: 'drawn-hand' } }, why));
  }
  const rows = el('div', { class: 'settle-rows' });
  for (let seat = 0; seat < n; seat++) rows.append(seatRow(result, st, h, seat, n, opts));
  wrap.append(rows);
  wrap.append(paymentsBlock(st, opts));
  const unpaid = (st.extras ?? []).filter((x) => !(st.payments ?? []).some((p) => p.for?.kind === 'extra' && p.for.name === x.name));
  if (unpaid.length) {
    // Lines that move no points by themselves: multipliers (黄庄, 连庄) and kong money given
    // back (退税), which is then simply not paid.
    wrap.append(el('div', { class: 'extras' }, el('h3', {}, 'Other lines'),
      el('ul', { class: 'fan-lines' }, unpaid.map((x) => el('li', { dataset: { testid: 'extra-line' } },
        el('span', { class: 'fan-name' }, lineName(x)),
        x.count > 1 ? el('span', { class: 'muted' }, ` ×${x.count}`) : null,
        el('span', { class: 'fan-value' }, String(x.value)))))));
  }
  if (result.seed) {
    wrap.append(el('p', { class: 'seed muted', title: 'the committed seed, revealed: replay the deal with `mahjong replay`' }, `Seed ${result.seed}`));
  }
  return wrap;
}

function seatRow(result, st, h, seat, n, opts) {
  const delta = st.deltas[seat] ?? 0;
  const fans = (st.fans ?? []).filter((f) => f.seat === seat);
  const win = h?.players[seat]?.won ?? null;
  const dealer = h?.dealer;
  const row = el('div', { class: ['settle-row', seat === opts.me && 'mine'], dataset: { testid: 'settle-row', seat } },
    el('div', { class: 'settle-who' },
      dealer !== undefined ? el('span', { class: ['wind', seat === dealer && 'dealer'] }, seatWind(seat, dealer, n)) : null,
      el('span', { class: 'name' }, opts.label(seat)),
      el('span', { class: ['delta', delta > 0 ? 'plus' : delta < 0 ? 'minus' : ''], dataset: { testid: 'settle-delta' }, title: UNIT }, signed(delta)),
      result.scores ? el('span', { class: 'score', title: 'table score' }, `= ${result.scores[seat] ?? 0}`) : null),
  );
  const tiles = h?.ending?.hands?.[seat] ?? [];
  const melds = h?.players[seat]?.melds ?? [];
  if (tiles.length || melds.length) {
    row.append(el('div', { class: 'settle-hand' },
      sortTiles(tiles).map((t) => tileElement(t, { size: 'small' })),
      melds.length ? el('span', { class: 'melds' }, melds.map((x) => meldElement(x, { wild: h.wild, name: opts.name }))) : null,
      win ? el('span', { class: 'win-tile', title: 'the winning tile' }, tileElement(win.tile, { size: 'small', classes: ['latest'] })) : null));
  }
  const lines = fans.flatMap((f) => f.items ?? []);
  if (win) {
    row.append(el('div', { class: 'win-how', dataset: { testid: 'win-how' } },
      `和 ${tileName(win.tile)} — ${winHow(win, opts.name, lines)}`));
  }
  if (fans.length) {
    for (const f of fans) {
      const list = el('ul', { class: 'fan-lines' });
      for (const item of f.items ?? []) {
        list.append(el('li', { dataset: { testid: 'fan-line' } },
          el('span', { class: 'fan-name' }, lineName(item)),
          item.count > 1 ? el('span', { class: 'muted' }, ` ×${item.count}`) : null,
          el('span', { class: 'fan-value' }, String(item.value))));
      }
      list.append(el('li', { class: 'fan-total' }, el('span', {}, 'Total'), el('span', { class: 'fan-value' }, String(f.total))));
      row.append(list);
    }
  } else if (!win) {
    row.append(el('div', { class: 'muted no-win', dataset: { testid: 'no-win' } }, 'no win'));
  }
  return row;
}

/** Who paid whom, line by line, in points: the wins first, then each extra. */
function paymentsBlock(st, opts) {
  const payments = st.payments ?? [];
  if (!payments.length) return null;
  const extraNames = new Map((st.extras ?? []).map((x) => [x.name, x.name_en ?? null]));
  return el('div', { class: 'payments' }, el('h3', {}, `Who paid whom 付分 (${UNIT})`),
    el('ul', { class: 'pay-lines' }, payments.map((p) => {
      const kind = p.for?.kind ?? 'win';
      const named = kind === 'extra' ? { ...p, name_en: extraNames.get(p.for.name) ?? null } : p;
      return el('li', {
        dataset: { testid: 'payment', payer: p.payer, payee: p.payee, for: kind, line: kind === 'extra' ? p.for.name : '' },
      },
      el('span', { class: 'pay-who' }, `${opts.name(p.payer)} → ${opts.name(p.payee)}`),
      el('span', { class: 'pay-for muted' }, paidFor(named, opts.name)),
      el('span', { class: 'pay-amount' }, `${p.amount}`));
    })));
}
