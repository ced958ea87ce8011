// The table: four seats around a centre, the player's hand and the decision owed now, and the
// settlement after each hand. Everything is drawn from the model (model.js); the only way out
// is `ctx.onAct(action)` with one of the prompt's `legal` actions, exactly as the server sent
// it (proto/README.md: "The server accepts exactly the legal actions").

import { el, replace, signed } from './dom.js';
import {
  inVoidPhase, legalActions, ownTiles, playerCount, suitCounts, turnSeat, unsentMarks,
} from './model.js';
import { backElement, SUIT_NAMES, tileElement, tileName, windChar } from './tiles.js';

const STATUS_TEXT = {
  empty: 'empty seat',
  bot: 'bot',
  connected: 'online',
  disconnected: 'offline',
  takeover: '托管 bot playing',
  escaped: 'escaped',
};

/** Where a seat sits as seen from `me`: me, right (下家), top (对家), left (上家). */
export function position(seat, me, n) {
  const offset = (seat - me + n) % n;
  if (n === 4) return ['me', 'right', 'top', 'left'][offset];
  if (n === 3) return ['me', 'right', 'left'][offset];
  return ['me', 'top'][offset] ?? 'top';
}

const POSITION_NAMES = { me: '', right: '下家', top: '对家', left: '上家' };

/** The seat wind of `seat` in a hand dealt by `dealer`: 东 for the dealer, then 南, 西, 北. */
export function seatWind(seat, dealer, n) {
  return windChar((seat - dealer + n) % n);
}

/** A seat's name as the table shows it. */
export function seatName(m, seat) {
  if (seat === m.seat) return 'You';
  return m.seats[seat]?.name ?? `Seat ${seat + 1}`;
}

/** Draws the whole table into `root`. */
export function renderTable(root, ctx) {
  const m = ctx.model;
  const n = playerCount(m) || 4;
  const me = m.seat ?? 0;
  const turn = turnSeat(m);
  const table = el('div', { class: 'table', dataset: { testid: 'table', hand: m.handNo } });
  for (let s = 0; s < n; s++) {
    const pos = position(s, me, n);
    if (pos !== 'me') table.append(seatPanel(m, s, pos, turn === s));
  }
  table.append(centre(m, ctx, turn));
  table.append(seatPanel(m, me, 'me', turn === me));
  // The decision and the hand stay together (and in view on a phone, at the bottom).
  table.append(el('div', { class: 'dock' }, actionBar(m, ctx), handRow(m, ctx)));
  const overlay = m.settlement || m.closed ? settlementOverlay(m, ctx) : null;
  replace(root, table, overlay);
  updateCountdown(root, m);
}

function statusChip(info) {
  const status = info?.status ?? 'empty';
  return el('span', { class: ['chip', `status-${status}`], dataset: { testid: 'seat-status' } },
    STATUS_TEXT[status] ?? status);
}

function seatPanel(m, s, pos, inTurn) {
  const h = m.hand;
  const n = playerCount(m) || 4;
  const p = h?.players[s];
  const info = m.seats[s];
  // The seat's 定缺 once revealed; this seat's own as soon as it is chosen.
  const voidSuit = p?.void ?? (s === m.seat ? h?.ownVoid : null);
  const header = el('div', { class: 'seat-head' },
    h ? el('span', { class: ['wind', s === h.dealer && 'dealer'], title: s === h.dealer ? 'dealer 庄' : 'seat wind' },
      seatWind(s, h.dealer, n)) : null,
    el('span', { class: 'name' }, seatName(m, s)),
    POSITION_NAMES[pos] ? el('span', { class: 'pos' }, POSITION_NAMES[pos]) : null,
    pos === 'me' ? null : statusChip(info),
    el('span', { class: 'score', title: 'table score' }, String(m.scores[s] ?? 0)),
    voidSuit ? el('span', { class: 'chip void' }, `缺${SUIT_NAMES[voidSuit] ?? voidSuit}`) : null,
    p?.ready && !p?.won ? el('span', { class: 'chip void', title: 'declared ready: the server plays its draws' }, '报听') : null,
    p?.won ? el('span', { class: 'chip won' }, winText(m, p.won)) : null,
  );
  const panel = el('section', {
    class: ['seat-panel', `pos-${pos}`, inTurn && 'turn', p?.won && 'has-won'],
    dataset: { testid: `seat-${pos}`, seat: s },
  }, header);
  if (!p) return panel;

  const row = el('div', { class: 'seat-row' });
  if (pos !== 'me') {
    // Another seat's concealed tiles: only how many.
    const backs = el('span', { class: 'backs', title: `${p.concealed} concealed tiles`, dataset: { testid: 'tile-count' } });
    for (let i = 0; i < Math.min(p.concealed, 14); i++) backs.append(backElement('small'));
    backs.append(el('span', { class: 'count' }, `×${p.concealed}`));
    row.append(backs);
  }
  if (p.melds.length) row.append(el('span', { class: 'melds' }, p.melds.map((x) => meldElement(x, m))));
  if (p.flowers.length) {
    row.append(el('span', { class: 'flowers', title: 'flowers' },
      p.flowers.map((f) => tileElement(f, { size: 'small' }))));
  }
  if (row.childNodes.length) panel.append(row);
  if (p.shown && pos !== 'me') {
    panel.append(el('div', { class: 'shown', title: 'the winner’s hand' },
      p.shown.map((t) => tileElement(t, { size: 'small', wild: h.wild }))));
  }
  const river = el('div', { class: 'river', dataset: { testid: 'river' } });
  p.discards.forEach((d, i) => {
    const last = h.lastDiscard && h.lastDiscard.seat === s && h.lastDiscard.index === i && !d.claimed;
    river.append(tileElement(d.tile, {
      size: 'river',
      wild: h.wild,
      classes: [d.claimed && 'claimed', last && 'latest'].filter(Boolean),
      attrs: d.claimed ? { title: `${tileName(d.tile)} — claimed` } : {},
    }));
  });
  panel.append(river);
  return panel;
}

function winText(m, w) {
  const n = playerCount(m) || 4;
  let how = '自摸 self-draw';
  if (w.from !== null && w.from !== undefined) {
    const from = w.from === m.seat ? 'you' : POSITION_NAMES[position(w.from, m.seat ?? 0, n)];
    how = `from ${from} (${seatWind(w.from, m.hand?.dealer ?? 0, n)})`;
  }
  return `和 ${tileName(w.tile)} · ${how}`;
}

/** A meld face up (the claimed tile turned), or four backs for another seat's 暗杠. */
function meldElement(meld, m) {
  const box = el('span', { class: 'meld' });
  if (meld.kind === 'hidden_kong') {
    for (let i = 0; i < 4; i++) box.append(backElement('small'));
    box.title = 'concealed kong 暗杠';
    return box;
  }
  let claimedMarked = false;
  const tiles = meld.tiles ?? [];
  tiles.forEach((t, i) => {
    const isClaimed = !claimedMarked && meld.claimed === t && meld.from !== null && meld.from !== undefined;
    if (isClaimed) claimedMarked = true;
    // An own concealed kong shows its outer tiles face down, as at a real table.
    const face = meld.shape === 'concealed_kong' && (i === 0 || i === 3)
      ? backElement('small')
      : tileElement(t, { size: 'small', wild: m.hand?.wild, classes: isClaimed ? ['turned'] : [] });
    box.append(face);
  });
  const from = meld.from !== null && meld.from !== undefined ? ` from ${seatName(m, meld.from)}` : '';
  box.title = `${meld.shape.replace('_', ' ')}${from}`;
  box.dataset.shape = meld.shape;
  return box;
}

const DICE = ['⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];

function centre(m, ctx, turn) {
  const h = m.hand;
  const n = playerCount(m) || 4;
  const box = el('section', { class: 'centre', dataset: { testid: 'centre' } });
  const facts = el('div', { class: 'facts' },
    el('span', { class: 'fact', dataset: { testid: 'hand-of' } }, m.hands ? `Hand ${m.handNo + 1} of ${m.hands}` : `Hand ${m.handNo + 1}`),
    m.actionSeconds ? el('span', { class: 'fact', title: 'seconds per decision + time bank per hand' },
      `${m.actionSeconds} s + ${m.timeBankSeconds ?? 0} s bank`) : null,
    h ? el('span', { class: 'fact', title: 'prevalent wind' }, `${windChar(h.roundWind)}风圈`) : null,
    h ? el('span', { class: 'fact dice', title: `dice ${h.dice[0]} + ${h.dice[1]}` },
      h.dice.map((d) => DICE[d - 1] ?? d).join(' ')) : null,
    h ? el('span', { class: 'fact', dataset: { testid: 'wall-count' }, title: 'tiles left in the wall' }, `Wall ${h.wall}`) : null,
    m.drawBonus > 0 ? el('span', { class: 'fact', title: '荒番: a won hand’s shares double' }, `荒番 ×${m.drawBonus}`) : null,
  );
  box.append(facts);
  if (h?.bonus?.length) {
    box.append(el('div', { class: 'wild-info', dataset: { testid: 'bonus' } }, '花牌 (1 fan each): ',
      h.bonus.map((t) => tileElement(t, { size: 'small' }))));
  }
  if (h && h.seabed !== null && h.seabed !== undefined && !h.over) {
    box.append(el('div', { class: 'hint' }, `海底捞月: seat ${h.seabed + 1} draws from the tiles set aside`));
  }
  if (h?.wild) {
    box.append(el('div', { class: 'wild-info' }, 'Wild 百搭: ',
      tileElement(h.wild, { size: 'small', wild: h.wild }),
      h.indicator ? el('span', { class: 'muted' }, ' indicator ', tileElement(h.indicator, { size: 'small' })) : null));
  }
  let line;
  if (!h) {
    const waiting = m.seats.filter((s) => s.status === 'empty').length;
    line = m.closed ? 'The table is closed.' : waiting
      ? `Waiting for ${waiting} more player${waiting > 1 ? 's' : ''}… (code ${ctx.code ?? '—'})`
      : 'The next hand is about to be dealt…';
  } else if (h.over) {
    line = 'The hand is over.';
  } else if (h.kongOffer) {
    line = `${seatName(m, h.kongOffer.seat)} declares a kong — it may be robbed (抢杠)`;
  } else if (turn === null && h.offered) {
    line = 'Claims on the discard:';
  } else if (turn === null) {
    line = inVoidPhase(m) ? '定缺: every seat chooses a suit to give up' : '';
  } else {
    line = turn === m.seat ? 'Your turn' : `${seatName(m, turn)} (${seatWind(turn, h.dealer, n)}) to play`;
  }
  box.append(el('div', { class: 'turn-line', dataset: { testid: 'turn' } }, line,
    h?.offered && !h.over ? tileElement(h.offered, { size: 'river', wild: h.wild, classes: ['offered'] }) : null));
  box.append(el('div', { class: ['conn', `conn-${ctx.status}`], dataset: { testid: 'conn-status', status: ctx.status } },
    connectionText(ctx)));
  return box;
}

function connectionText(ctx) {
  switch (ctx.status) {
    case 'open':
      return ctx.code ? `Connected · room ${ctx.code}` : 'Connected';
    case 'connecting':
      return 'Connecting…';
    case 'reconnecting':
      return `Connection lost — reconnecting in ${Math.ceil((ctx.statusDetail ?? 0) / 1000)} s…`;
    case 'stopped':
      return ctx.statusDetail === 'replaced'
        ? 'This table is open in another window.'
        : ctx.statusDetail === 'match_over' ? 'The match is over.' : `Disconnected (${ctx.statusDetail ?? ''})`;
    default:
      return '';
  }
}

/** The decision owed now: a hint, the countdown, and one button per non-discard action. */
function actionBar(m, ctx) {
  const legal = legalActions(m);
  const bar = el('section', { class: 'actions', dataset: { testid: 'actions' } });
  bar.append(el('span', { class: 'countdown', dataset: { testid: 'countdown' } }));
  if (!legal.length) {
    bar.append(el('span', { class: 'hint' }, m.prompt?.sending ? 'Sent…' : ''));
    return bar;
  }
  const by = (type) => legal.filter((a) => a.type === type);
  const button = (action, label, extra = {}, ...children) => el('button', {
    type: 'button',
    class: ['act', `act-${action.type}`],
    dataset: { action: action.type, ...extra },
    onclick: () => ctx.onAct(action),
  }, label, ...children);

  if (by('swap_done').length) {
    // 开始时换牌: the tiles are chosen in the hand row, then sent all at once.
    const pick = swapPick(m);
    bar.append(el('span', { class: 'hint', dataset: { testid: 'swap-hint' } },
      '换牌 — click the tiles to swap (once), then confirm:'));
    bar.append(el('button', {
      type: 'button',
      class: ['act', 'act-swap_done'],
      dataset: { action: 'swap_done', count: String(pick.length) },
      onclick: () => ctx.onActAll([
        ...unsentMarks(m.hand, pick).map((tile) => ({ type: 'swap_mark', tile })),
        { type: 'swap_done' },
      ]),
    }, pick.length ? `换 ${pick.length} Swap` : '不换 Keep all'));
  }
  const voids = by('declare_void');
  if (voids.length) {
    // 定缺: suggest the suit with the fewest tiles.
    const counts = suitCounts(ownTiles(m.hand ?? { tiles: [], drawn: null }));
    const fewest = Math.min(...voids.map((a) => counts[a.suit] ?? 0));
    bar.append(el('span', { class: 'hint' }, '定缺 — give up a suit:'));
    for (const a of voids) {
      const b = button(a, `缺 ${SUIT_NAMES[a.suit] ?? a.suit}`, { suit: a.suit },
        el('small', {}, ` (${counts[a.suit] ?? 0})`));
      if ((counts[a.suit] ?? 0) === fewest) b.classList.add('suggested');
      bar.append(b);
    }
  }
  if (by('draw_last').length) bar.append(el('span', { class: 'hint' }, '海底: the last tile — draw it (and throw it unless it wins), or end the hand drawn?'));
  for (const a of by('draw_last')) bar.append(button(a, '摸 Draw the last tile'));
  for (const a of by('decline_last')) bar.append(button(a, '不摸 Decline (荒庄)'));
  for (const a of by('self_draw_win')) bar.append(button(a, '自摸 Self-draw win'));
  const ready = by('declare_ready');
  if (ready.length) bar.append(el('span', { class: 'hint' }, '报听: discard and declare ready (the server then plays your draws):'));
  for (const a of ready) {
    bar.append(button(a, '报听', { tile: a.tile }, el('span', { class: 'mini' }, tileElement(a.tile, { size: 'small' }))));
  }
  for (const a of by('win')) bar.append(button(a, '和 Win'));
  for (const a of by('exposed_kong')) bar.append(button(a, '杠 Kong'));
  for (const a of by('pung')) bar.append(button(a, '碰 Pung'));
  const chows = by('chow');
  for (const a of chows) {
    // Several chows are possible when the discard fits more than one run: show each run.
    const low = a.low;
    const run = [0, 1, 2].map((k) => `${Number(low[0]) + k}${low[1]}`);
    bar.append(button(a, '吃 Chow', { low }, el('span', { class: 'mini' },
      run.map((t) => tileElement(t, { size: 'small' })))));
  }
  for (const a of by('concealed_kong')) {
    bar.append(button(a, '暗杠 Kong', { tile: a.tile }, el('span', { class: 'mini' }, tileElement(a.tile, { size: 'small' }))));
  }
  for (const a of by('added_kong')) {
    bar.append(button(a, '加杠 Kong', { tile: a.tile }, el('span', { class: 'mini' }, tileElement(a.tile, { size: 'small' }))));
  }
  if (by('discard').length) bar.append(el('span', { class: 'hint', dataset: { testid: 'discard-hint' } }, 'Click a tile to discard it'));
  for (const a of by('pass')) bar.append(button(a, '过 Pass'));
  return bar;
}

/** The player's concealed tiles, sorted, the drawn tile apart; legal discards are buttons. */
function handRow(m, ctx) {
  const h = m.hand;
  const row = el('section', { class: 'hand', dataset: { testid: 'hand' } });
  if (!h) return row;
  const legal = legalActions(m);
  if (legal.some((a) => a.type === 'swap_done')) return swapRow(m, ctx, row);
  const discardable = new Set(legal.filter((a) => a.type === 'discard').map((a) => a.tile));
  if (discardable.size) row.classList.add('discarding');
  const tile = (t, drawn) => {
    const ok = discardable.has(t);
    const b = tileElement(t, {
      size: 'hand',
      button: true,
      wild: h.wild,
      classes: [drawn && 'drawn', h.ownVoid && t[1] === h.ownVoid && 'void-suit', ok && 'legal'].filter(Boolean),
      attrs: { 'data-testid': 'hand-tile', 'data-legal': ok ? 'true' : 'false' },
    });
    if (ok) b.addEventListener('click', () => ctx.onAct({ type: 'discard', tile: t }));
    else b.disabled = true;
    return b;
  };
  const me = h.players[m.seat ?? 0];
  // A winner in 血战 keeps playing nothing: its hand is shown as it won.
  row.append(el('div', { class: 'tiles' }, h.tiles.map((t) => tile(t, false)),
    h.drawn ? el('span', { class: 'gap' }) : null, h.drawn ? tile(h.drawn, true) : null));
  if (me?.won) row.classList.add('has-won');
  return row;
}

/** The tiles picked to swap (开始时换牌), as kinds, one entry per copy. */
function swapPick(m) {
  const h = m.hand;
  if (!h) return [];
  const held = ownTiles(h);
  return (h.swapPick ?? []).map((i) => held[i]).filter(Boolean);
}

/** The hand in the swap phase: every tile toggles in or out of the swap. */
function swapRow(m, ctx, row) {
  const h = m.hand;
  const picked = new Set(h.swapPick ?? []);
  row.classList.add('swapping');
  const tiles = ownTiles(h).map((t, i) => {
    const b = tileElement(t, {
      size: 'hand',
      button: true,
      wild: h.wild,
      classes: ['legal', picked.has(i) && 'swap-picked'].filter(Boolean),
      attrs: { 'data-testid': 'hand-tile', 'data-swap': picked.has(i) ? 'true' : 'false' },
    });
    b.addEventListener('click', () => {
      const now = new Set(h.swapPick ?? []);
      if (now.has(i)) {
        // A tile already marked at the server stays picked: its kind keeps as many picks as
        // it has marks.
        const held = ownTiles(h);
        const picks = [...now].filter((j) => held[j] === t).length;
        const sent = (h.swapSent ?? []).filter((k) => k === t).length;
        if (picks <= sent) return;
        now.delete(i);
      } else now.add(i);
      h.swapPick = [...now].sort((a, b) => a - b);
      ctx.onRender?.();
    });
    return b;
  });
  row.append(el('div', { class: 'tiles' }, tiles));
  return row;
}

/** Refreshes the countdown only (called a few times a second). */
export function updateCountdown(root, m) {
  const node = root.querySelector('[data-testid="countdown"]');
  if (!node) return;
  const p = m.prompt;
  if (!p || p.sending) {
    node.textContent = '';
    node.className = 'countdown';
    return;
  }
  // `deadline_ms` is on the server's clock: `clockSkewMs` (main.js) moves ours to it.
  const now = Date.now() + (m.clockSkewMs ?? 0);
  const ownEnd = p.deadline_ms - (p.bank_ms ?? 0);
  const own = Math.max(0, Math.ceil((ownEnd - now) / 1000));
  const total = Math.max(0, Math.ceil((p.deadline_ms - now) / 1000));
  if (own > 0) {
    node.textContent = p.bank_ms > 0 ? `${own}s + ${Math.round(p.bank_ms / 1000)}s bank` : `${own}s`;
    node.className = `countdown${own <= 5 ? ' low' : ''}`;
  } else {
    node.textContent = `bank ${total}s`;
    node.className = 'countdown bank';
  }
}

/** The settlement, over the table, until the player moves on; or the match's end. */
function settlementOverlay(m, ctx) {
  const card = el('div', { class: 'card settlement', dataset: { testid: 'settlement' }, role: 'dialog', 'aria-modal': 'true' });
  const s = m.settlement;
  if (s) {
    card.append(el('h2', {}, `Hand ${s.handNo + 1} — settlement`));
    card.append(settlementBody(s, {
      players: playerCount(m),
      name: (seat) => seatName(m, seat),
      me: m.seat,
      model: m,
    }));
  }
  if (m.closed) {
    card.append(el('p', { class: 'closed', dataset: { testid: 'table-closed' } }, `Table closed: ${m.closed}.`));
  }
  const buttons = el('div', { class: 'buttons' });
  if (s && !m.closed) {
    buttons.append(el('button', { type: 'button', class: 'primary', dataset: { action: 'next-hand' }, onclick: ctx.onCloseSettlement },
      m.prompt ? 'Next hand — your move!' : 'Next hand'));
  }
  if (s && m.table) {
    buttons.append(el('a', { class: 'button', href: `#/replay/${m.table}/${s.handNo}` }, 'Replay this hand'));
  }
  if (m.closed) {
    buttons.append(el('button', { type: 'button', class: 'primary', dataset: { action: 'lobby' }, onclick: ctx.onLobby }, 'Back to the lobby'));
  }
  card.append(buttons);
  return el('div', { class: 'overlay' }, card);
}

/**
 * A settlement's table: one row per seat with its seat wind, name, revealed hand, its fan lines
 * (by name, ×count, value) and total when it won, its delta and its running score; then the
 * lines outside any winner's hand. `s`: {settlement, scores?, hands?, exhausted?, dealer?,
 * wins?, melds?, seed?}; `opts`: {players, name(seat), me, model?}.
 */
export function settlementBody(s, opts) {
  const st = s.settlement ?? { fans: [], extras: [], deltas: [] };
  const n = opts.players || st.deltas.length;
  const wrap = el('div', { class: 'settle-body' });
  if (s.exhausted && !(st.fans ?? []).length) {
    const why = s.declinedBy == null
      ? '荒庄: the wall ran out.'
      : `荒庄: ${opts.name(s.declinedBy)} declined the last tile (海底).`;
    wrap.append(el('p', { class: 'muted' }, why));
  }
  const rows = el('div', { class: 'settle-rows' });
  for (let seat = 0; seat < n; seat++) {
    const delta = st.deltas[seat] ?? 0;
    const fans = (st.fans ?? []).filter((f) => f.seat === seat);
    const win = s.wins?.[seat];
    const row = el('div', { class: ['settle-row', seat === opts.me && 'mine'], dataset: { testid: 'settle-row', seat } },
      el('div', { class: 'settle-who' },
        s.dealer !== undefined ? el('span', { class: ['wind', seat === s.dealer && 'dealer'] }, seatWind(seat, s.dealer, n)) : null,
        el('span', { class: 'name' }, opts.name(seat)),
        el('span', { class: ['delta', delta > 0 ? 'plus' : delta < 0 ? 'minus' : ''], dataset: { testid: 'settle-delta' } }, signed(delta)),
        s.scores ? el('span', { class: 'score', title: 'table score' }, `= ${s.scores[seat] ?? 0}`) : null),
    );
    const melds = s.melds?.[seat] ?? [];
    if (s.hands?.[seat]?.length || melds.length) {
      row.append(el('div', { class: 'settle-hand' },
        (s.hands?.[seat] ?? []).map((t) => tileElement(t, { size: 'small' })),
        melds.length ? el('span', { class: 'melds' }, melds.map((x) => meldElement(x, opts.model ?? { hand: null, seats: [], scores: [] }))) : null,
        win ? el('span', { class: 'win-tile', title: 'the winning tile' }, tileElement(win.tile, { size: 'small', classes: ['latest'] })) : null));
    }
    if (fans.length) {
      for (const f of fans) {
        const lines = el('ul', { class: 'fan-lines' });
        for (const item of f.items ?? []) {
          lines.append(el('li', { dataset: { testid: 'fan-line' } },
            el('span', { class: 'fan-name' }, item.name),
            item.count > 1 ? el('span', { class: 'muted' }, ` ×${item.count}`) : null,
            el('span', { class: 'fan-value' }, String(item.value))));
        }
        lines.append(el('li', { class: 'fan-total' }, el('span', {}, 'Total'), el('span', { class: 'fan-value' }, String(f.total))));
        row.append(lines);
      }
    } else {
      row.append(el('div', { class: 'muted no-win', dataset: { testid: 'no-win' } }, win ? '' : 'no win'));
    }
    rows.append(row);
  }
  wrap.append(rows);
  if ((st.extras ?? []).length) {
    wrap.append(el('div', { class: 'extras' }, el('h3', {}, 'Other payments'),
      el('ul', { class: 'fan-lines' }, st.extras.map((x) => el('li', { dataset: { testid: 'extra-line' } },
        el('span', { class: 'fan-name' }, x.name),
        x.count > 1 ? el('span', { class: 'muted' }, ` ×${x.count}`) : null,
        el('span', { class: 'fan-value' }, String(x.value)))))));
  }
  if (s.seed) {
    wrap.append(el('p', { class: 'seed muted', title: 'the committed seed, revealed: replay the deal with `mahjong replay`' }, `Seed ${s.seed}`));
  }
  return wrap;
}
