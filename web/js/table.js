// The table: a seat on each side with its river in front of it, the player's hand and the
// decision owed now, and the settlement after each hand. Everything is drawn from the SDK's
// table state (`ctx.state`, the one reducer of the stream) and the page's own `ctx.ui`; the
// only way out is `ctx.onAct(action)` with one of the prompt's `legal` actions, exactly as the
// server sent it (proto/README.md: "The server accepts exactly the legal actions").

import { el, replace } from './dom.js';
import {
  meldElement, playerCount, position, POSITION_NAMES, seatName, seatWind,
} from './seats.js';
import { settlementBody, winHow } from './settlement.js';
import { backElement, SUIT_NAMES, sortTiles, suitOf, tileElement, tileName, windChar } from './tiles.js';

const STATUS_TEXT = {
  empty: 'empty seat',
  bot: 'bot',
  connected: 'online',
  disconnected: 'offline',
  takeover: '托管 bot playing',
  escaped: 'escaped',
};

/** Draws the whole table into `root`. */
export function renderTable(root, ctx) {
  const s = ctx.state;
  const n = playerCount(s);
  const me = s.seat ?? 0;
  const turn = s.hand && !s.hand.over ? s.hand.turn : null;
  const table = el('div', { class: ['table', `players-${n}`], dataset: { testid: 'table', hand: s.handNo } });
  for (let seat = 0; seat < n; seat++) {
    const pos = position(seat, me, n);
    table.append(seatPanel(s, seat, pos, turn === seat));
    if (s.hand) table.append(river(s, seat, pos));
  }
  table.append(centre(s, ctx, turn));
  // The decision and the hand stay together (and in view on a phone, at the bottom).
  table.append(el('div', { class: 'dock' }, actionBar(s, ctx), handRow(s, ctx)));
  const settled = s.lastHand && ctx.ui.closedSettlement !== s.lastHand.handNo;
  const overlay = settled || s.closed ? settlementOverlay(s, ctx, settled ? s.lastHand : null) : null;
  replace(root, table, overlay);
  updateCountdown(root, s, ctx.ui);
}

function statusChip(info) {
  const status = info?.status ?? 'empty';
  return el('span', { class: ['chip', `status-${status}`], dataset: { testid: 'seat-status' } },
    STATUS_TEXT[status] ?? status);
}

function seatPanel(s, seat, pos, inTurn) {
  const h = s.hand;
  const n = playerCount(s);
  const p = h?.players[seat];
  const info = s.seats[seat];
  // The seat's 定缺 once revealed; this seat's own as soon as it is chosen.
  const voidSuit = p?.void ?? (seat === s.seat ? h?.ownVoid : null);
  const header = el('div', { class: 'seat-head' },
    h ? el('span', { class: ['wind', seat === h.dealer && 'dealer'], title: seat === h.dealer ? 'dealer 庄' : 'seat wind' },
      seatWind(seat, h.dealer, n)) : null,
    el('span', { class: 'name' }, seatName(s, seat)),
    POSITION_NAMES[pos] ? el('span', { class: 'pos' }, POSITION_NAMES[pos]) : null,
    pos === 'me' ? null : statusChip(info),
    el('span', { class: 'score', title: 'table score' }, String(s.scores[seat] ?? 0)),
    voidSuit ? el('span', { class: 'chip void' }, `缺${SUIT_NAMES[voidSuit] ?? voidSuit}`) : null,
    p?.ready && !p?.won ? el('span', { class: 'chip void', title: 'declared ready: the server plays its draws' }, '报听') : null,
    p?.won ? el('span', { class: 'chip won' }, `和 ${tileName(p.won.tile)} · ${winHow(p.won, (x) => seatName(s, x))}`) : null,
  );
  const panel = el('section', {
    class: ['seat-panel', `pos-${pos}`, inTurn && 'turn', p?.won && 'has-won'],
    dataset: { testid: `seat-${pos}`, seat },
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
  const name = (x) => seatName(s, x);
  if (p.melds.length) row.append(el('span', { class: 'melds' }, p.melds.map((x) => meldElement(x, { wild: h.wild, name }))));
  if (p.flowers.length) {
    row.append(el('span', { class: 'flowers', title: 'flowers' },
      p.flowers.map((f) => tileElement(f, { size: 'small' }))));
  }
  if (row.childNodes.length) panel.append(row);
  if (p.shown && pos !== 'me') {
    panel.append(el('div', { class: 'shown', title: 'the winner’s hand' },
      sortTiles(p.shown).map((t) => tileElement(t, { size: 'small', wild: h.wild }))));
  }
  return panel;
}

/** A seat's river, in front of it: the newest discard marked, claimed ones dimmed. */
function river(s, seat, pos) {
  const h = s.hand;
  const p = h.players[seat];
  const box = el('div', { class: ['river', `river-${pos}`], dataset: { testid: 'river', seat } });
  const newest = h.lastDiscard === seat ? p.river.length - 1 : -1;
  p.river.forEach((d, i) => {
    const latest = i === newest && !d.claimed;
    box.append(tileElement(d.tile, {
      size: 'river',
      wild: h.wild,
      classes: [d.claimed && 'claimed', latest && 'latest'].filter(Boolean),
      attrs: { ...(d.claimed ? { title: `${tileName(d.tile)} — claimed` } : {}), ...(latest ? { 'data-testid': 'latest-discard' } : {}) },
    }));
  });
  return box;
}

const DICE = ['⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];

/**
 * Whether the seats are choosing their 定缺 (血战): this seat is asked for one, or has chosen
 * while the others' are not revealed yet.
 */
function inVoidPhase(s) {
  const h = s.hand;
  if (!h || h.over) return false;
  if ((s.prompt?.legal ?? []).some((a) => a.type === 'declare_void')) return true;
  return h.ownVoid !== null && h.players.some((p) => p.void === null);
}

function centre(s, ctx, turn) {
  const h = s.hand;
  const n = playerCount(s);
  const box = el('section', { class: 'centre', dataset: { testid: 'centre' } });
  const facts = el('div', { class: 'facts' },
    el('span', { class: 'fact', dataset: { testid: 'hand-of' } }, s.hands ? `Hand ${s.handNo + 1} of ${s.hands}` : `Hand ${s.handNo + 1}`),
    s.actionSeconds ? el('span', { class: 'fact', title: 'seconds per decision + time bank per hand' },
      `${s.actionSeconds} s + ${s.timeBankSeconds ?? 0} s bank`) : null,
    h ? el('span', { class: 'fact', title: 'prevalent wind' }, `${windChar(h.roundWind)}风圈`) : null,
    h ? el('span', { class: 'fact dice', title: `dice ${h.dice[0]} + ${h.dice[1]}` },
      h.dice.map((d) => DICE[d - 1] ?? d).join(' ')) : null,
    h ? el('span', { class: 'fact', dataset: { testid: 'wall-count' }, title: 'tiles left in the wall' }, `Wall ${h.wall}`) : null,
    s.drawBonus > 0 ? el('span', { class: 'fact', title: '荒番: a won hand’s shares double' }, `荒番 ×${s.drawBonus}`) : null,
  );
  box.append(facts);
  if (h?.bonus?.length) {
    box.append(el('div', { class: 'wild-info', dataset: { testid: 'bonus' } }, '花牌 (1 fan each): ',
      h.bonus.map((t) => tileElement(t, { size: 'small' }))));
  }
  if (h && h.seabed !== null && h.seabed !== undefined && !h.over) {
    box.append(el('div', { class: 'hint' }, `海底捞月: ${seatName(s, h.seabed)} draws from the tiles set aside`));
  }
  if (h?.wild) {
    box.append(el('div', { class: 'wild-info' }, 'Wild 百搭: ',
      tileElement(h.wild, { size: 'small', wild: h.wild }),
      h.indicator ? el('span', { class: 'muted' }, ' indicator ', tileElement(h.indicator, { size: 'small' })) : null));
  }
  box.append(el('div', { class: 'turn-line', dataset: { testid: 'turn' } }, turnLine(s, ctx, turn, n),
    h?.offered && !h.over ? tileElement(h.offered, { size: 'river', wild: h.wild, classes: ['offered'] }) : null));
  box.append(el('div', { class: ['conn', `conn-${ctx.status}`], dataset: { testid: 'conn-status', status: ctx.status } },
    connectionText(ctx)));
  return box;
}

function turnLine(s, ctx, turn, n) {
  const h = s.hand;
  if (!h) {
    const waiting = s.seats.filter((x) => x.status === 'empty').length;
    if (s.closed) return 'The table is closed.';
    return waiting
      ? `Waiting for ${waiting} more player${waiting > 1 ? 's' : ''}… (code ${ctx.code ?? '—'})`
      : 'The next hand is about to be dealt…';
  }
  if (h.over) return 'The hand is over.';
  if (h.dealing) return 'Dealing…';
  if (h.kongOffer) return `${seatName(s, h.kongOffer.seat)} declares a kong — it may be robbed (抢杠)`;
  if (turn === null && h.offered) return 'Claims on the discard:';
  if (turn === null) return inVoidPhase(s) ? '定缺: every seat chooses a suit to give up' : '';
  return turn === s.seat ? 'Your turn' : `${seatName(s, turn)} (${seatWind(turn, h.dealer, n)}) to play`;
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
        : ctx.statusDetail === 'ended' ? 'The match is over.' : `Disconnected (${ctx.statusDetail ?? ''})`;
    default:
      return '';
  }
}

/** Whether an answer to the current prompt is on its way (main.js sets `sending`). */
function answering(ui) {
  return ui.sending !== null && ui.sending === ui.promptSeq;
}

/** The legal actions of the current prompt, or [] when none is owed or an answer is on its way. */
function legalActions(s, ui) {
  return s.prompt && !answering(ui) ? s.prompt.legal ?? [] : [];
}

/** Suits (`m`, `p`, `s`) held, for 定缺 hints. */
function suitCounts(tiles) {
  const counts = { m: 0, p: 0, s: 0 };
  for (const t of tiles) {
    const suit = suitOf(t);
    if (suit in counts) counts[suit] += 1;
  }
  return counts;
}

/** The decision owed now: a hint, the countdown, and one button per non-discard action. */
function actionBar(s, ctx) {
  const legal = legalActions(s, ctx.ui);
  const bar = el('section', { class: 'actions', dataset: { testid: 'actions' } });
  bar.append(el('span', { class: 'countdown', dataset: { testid: 'countdown' } }));
  if (!legal.length) {
    bar.append(el('span', { class: 'hint' }, s.prompt && answering(ctx.ui) ? 'Sent…' : ''));
    return bar;
  }
  const by = (type) => legal.filter((a) => a.type === type);
  const button = (action, label, extra = {}, ...children) => el('button', {
    type: 'button',
    class: ['act', `act-${action.type}`],
    dataset: { action: action.type, ...extra },
    onclick: () => ctx.onAct(action),
  }, label, ...children);
  const withTile = (a, label) => button(a, label, { tile: a.tile }, el('span', { class: 'mini' }, tileElement(a.tile, { size: 'small' })));

  if (by('swap_done').length) {
    // 开始时换牌: the tiles are chosen in the hand row, then sent all at once.
    const pick = swapPick(s, ctx.ui);
    bar.append(el('span', { class: 'hint', dataset: { testid: 'swap-hint' } },
      '换牌 — click the tiles to swap (once), then confirm:'));
    bar.append(el('button', {
      type: 'button',
      class: ['act', 'act-swap_done'],
      dataset: { action: 'swap_done', count: String(pick.length) },
      onclick: () => ctx.onActAll([
        ...unsentMarks(s.hand, pick).map((tile) => ({ type: 'swap_mark', tile })),
        { type: 'swap_done' },
      ]),
    }, pick.length ? `换 ${pick.length} Swap` : '不换 Keep all'));
  }
  const voids = by('declare_void');
  if (voids.length) {
    // 定缺: suggest the suit with the fewest tiles.
    const counts = suitCounts(s.hand?.hand ?? []);
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
  for (const a of ready) bar.append(withTile(a, '报听'));
  for (const a of by('win')) bar.append(button(a, '和 Win'));
  for (const a of by('exposed_kong')) bar.append(button(a, '杠 Kong'));
  for (const a of by('pung')) bar.append(button(a, '碰 Pung'));
  for (const a of by('chow')) {
    // Several chows are possible when the discard fits more than one run: show each run.
    const low = a.low;
    const run = [0, 1, 2].map((k) => `${Number(low[0]) + k}${low[1]}`);
    bar.append(button(a, '吃 Chow', { low }, el('span', { class: 'mini' },
      run.map((t) => tileElement(t, { size: 'small' })))));
  }
  for (const a of by('concealed_kong')) bar.append(withTile(a, '暗杠 Kong'));
  for (const a of by('added_kong')) bar.append(withTile(a, '加杠 Kong'));
  if (by('discard').length) bar.append(el('span', { class: 'hint', dataset: { testid: 'discard-hint' } }, 'Click a tile to discard it'));
  for (const a of by('pass')) bar.append(button(a, '过 Pass'));
  return bar;
}

/**
 * The own concealed tiles as they are held: sorted (the 定缺 suit last, where it is thrown
 * first), the drawn tile apart at the right.
 */
function heldTiles(h) {
  const rest = [...h.hand];
  if (h.drawn) {
    const i = rest.lastIndexOf(h.drawn);
    if (i >= 0) rest.splice(i, 1);
  }
  const key = (t) => (h.ownVoid && suitOf(t) === h.ownVoid ? 1 : 0);
  const sorted = sortTiles(rest).sort((a, b) => key(a) - key(b));
  return { rest: sorted, drawn: h.drawn && h.hand.includes(h.drawn) ? h.drawn : null };
}

/** The player's concealed tiles, sorted, the drawn tile apart; legal discards are buttons. */
function handRow(s, ctx) {
  const h = s.hand;
  const row = el('section', { class: 'hand', dataset: { testid: 'hand' } });
  if (!h) return row;
  const legal = legalActions(s, ctx.ui);
  if (legal.some((a) => a.type === 'swap_done')) return swapRow(s, ctx, row);
  const discardable = new Set(legal.filter((a) => a.type === 'discard').map((a) => a.tile));
  if (discardable.size) row.classList.add('discarding');
  const tile = (t, drawn) => {
    const ok = discardable.has(t);
    const b = tileElement(t, {
      size: 'hand',
      button: true,
      wild: h.wild,
      classes: [drawn && 'drawn', h.ownVoid && suitOf(t) === h.ownVoid && 'void-suit', ok && 'legal'].filter(Boolean),
      attrs: { 'data-testid': 'hand-tile', 'data-legal': ok ? 'true' : 'false', 'data-drawn': drawn ? 'true' : 'false' },
    });
    if (ok) b.addEventListener('click', () => ctx.onAct({ type: 'discard', tile: t }));
    else b.disabled = true;
    return b;
  };
  const { rest, drawn } = heldTiles(h);
  row.append(el('div', { class: 'tiles' }, rest.map((t) => tile(t, false)),
    drawn ? el('span', { class: 'gap' }) : null, drawn ? tile(drawn, true) : null));
  // A winner in 血战 plays nothing more: its hand is shown as it won.
  if (h.players[s.seat ?? 0]?.won) row.classList.add('has-won');
  return row;
}

/** The own tiles in the swap phase (开始时换牌), in the order the swap row shows them. */
function swapTiles(h) {
  return sortTiles(h.hand);
}

/**
 * The picks (indices into `swapTiles`) grown so each kind has at least as many picks as the
 * server holds marks: tiles already marked always show as picked. Reset with each hand.
 */
function currentPicks(s, ui) {
  if (ui.swapHand !== s.handNo) {
    ui.swapHand = s.handNo;
    ui.swapPick = [];
  }
  const held = swapTiles(s.hand);
  const now = new Set(ui.swapPick.filter((i) => i < held.length));
  const need = {};
  for (const kind of s.hand.swapMarked) need[kind] = (need[kind] ?? 0) + 1;
  for (const [kind, count] of Object.entries(need)) {
    let have = [...now].filter((j) => held[j] === kind).length;
    held.forEach((t, j) => {
      if (have < count && t === kind && !now.has(j)) {
        now.add(j);
        have += 1;
      }
    });
  }
  ui.swapPick = [...now].sort((a, b) => a - b);
  return ui.swapPick;
}

/** The tiles picked to swap, as kinds, one entry per copy. */
function swapPick(s, ui) {
  if (!s.hand) return [];
  const held = swapTiles(s.hand);
  return currentPicks(s, ui).map((i) => held[i]).filter(Boolean);
}

/**
 * The picked kinds not yet marked at the server: what still has to be sent before `swap_done`
 * (after a reconnect some marks may already be there).
 */
function unsentMarks(h, picked) {
  const sent = [...h.swapMarked];
  return picked.filter((kind) => {
    const i = sent.indexOf(kind);
    if (i < 0) return true;
    sent.splice(i, 1);
    return false;
  });
}

/** The hand in the swap phase: every tile toggles in or out of the swap. */
function swapRow(s, ctx, row) {
  const h = s.hand;
  const held = swapTiles(h);
  const picked = new Set(currentPicks(s, ctx.ui));
  row.classList.add('swapping');
  const tiles = held.map((t, i) => {
    const b = tileElement(t, {
      size: 'hand',
      button: true,
      wild: h.wild,
      classes: ['legal', picked.has(i) && 'swap-picked'].filter(Boolean),
      attrs: { 'data-testid': 'hand-tile', 'data-swap': picked.has(i) ? 'true' : 'false' },
    });
    b.addEventListener('click', () => {
      const now = new Set(ctx.ui.swapPick);
      if (now.has(i)) {
        // A tile already marked at the server stays picked: its kind keeps as many picks as
        // it has marks.
        const picks = [...now].filter((j) => held[j] === t).length;
        const sent = h.swapMarked.filter((k) => k === t).length;
        if (picks <= sent) return;
        now.delete(i);
      } else now.add(i);
      ctx.ui.swapPick = [...now].sort((a, b) => a - b);
      ctx.onRender?.();
    });
    return b;
  });
  row.append(el('div', { class: 'tiles' }, tiles));
  return row;
}

/** Refreshes the countdown only (called a few times a second). */
export function updateCountdown(root, s, ui) {
  const node = root.querySelector('[data-testid="countdown"]');
  if (!node) return;
  const p = s.prompt;
  if (!p || answering(ui)) {
    node.textContent = '';
    node.className = 'countdown';
    return;
  }
  // `deadline_ms` is on the server's clock: `clockSkewMs` (main.js) moves ours to it.
  const now = Date.now() + (ui.clockSkewMs ?? 0);
  const bank = p.bank_ms ?? 0;
  const own = Math.max(0, Math.ceil((p.deadline_ms - bank - now) / 1000));
  const total = Math.max(0, Math.ceil((p.deadline_ms - now) / 1000));
  if (own > 0) {
    node.textContent = bank > 0 ? `${own}s + ${Math.round(bank / 1000)}s bank` : `${own}s`;
    node.className = `countdown${own <= 5 ? ' low' : ''}`;
  } else {
    node.textContent = `bank ${total}s`;
    node.className = 'countdown bank';
  }
}

/** The settlement, over the table, until the player moves on; or the match's end. */
function settlementOverlay(s, ctx, result) {
  const card = el('div', { class: 'card settlement', dataset: { testid: 'settlement' }, role: 'dialog', 'aria-modal': 'true' });
  if (result) {
    card.append(el('h2', {}, `Hand ${result.handNo + 1} — settlement 结算`));
    card.append(settlementBody({
      settlement: result.settlement,
      scores: result.scores,
      hand: result.hand,
      seed: result.seed,
    }, {
      players: playerCount(s),
      name: (seat) => seatName(s, seat),
      me: s.seat,
    }));
  }
  if (s.closed) {
    card.append(el('p', { class: 'closed', dataset: { testid: 'table-closed' } }, `Table closed: ${s.closed}.`));
  }
  const buttons = el('div', { class: 'buttons' });
  if (result && !s.closed) {
    buttons.append(el('button', { type: 'button', class: 'primary', dataset: { action: 'next-hand' }, onclick: ctx.onCloseSettlement },
      s.prompt ? 'Next hand — your move!' : 'Next hand'));
  }
  if (result && s.table) {
    buttons.append(el('a', { class: 'button', href: `#/replay/${s.table}/${result.handNo}` }, 'Replay this hand'));
  }
  if (s.closed) {
    buttons.append(el('button', { type: 'button', class: 'primary', dataset: { action: 'lobby' }, onclick: ctx.onLobby }, 'Back to the lobby'));
  }
  card.append(buttons);
  return el('div', { class: 'overlay' }, card);
}
