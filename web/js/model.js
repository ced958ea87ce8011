// The table as this client knows it, kept from the stream (proto/README.md, "Server messages").
//
// A `snapshot` gives the whole table; every later message changes it a little. The model only
// ever holds what the seat may see: its own tiles, and for the other seats public facts
// (melds, discards, flowers, tile counts, 定缺 once revealed, wins). Rendering reads the model
// and never the messages.

import { sortTiles, suitOf } from './tiles.js';

/** A model with no table yet. */
export function emptyModel() {
  return {
    table: null,
    ruleset: null,
    seat: null, // this client's seat
    seats: [], // [{seat, name, status}] (SeatInfo)
    scores: [],
    handNo: 0,
    seedSha256: null,
    drawBonus: 0,
    code: null, // the room's join code (a spectator has none)
    hands: null, // hands in the match
    actionSeconds: null, // the room's time per decision
    timeBankSeconds: null, // and its bank per seat and hand
    hand: null, // the hand in play (see newHand), null between hands
    prompt: null, // {hand_no, legal, deadline_ms, bank_ms, receivedAt, sending}
    settlement: null, // the last hand's result, until the player closes it
    closed: null, // why the table closed
    clockSkewMs: 0, // the server's clock less ours, for `deadline_ms`
  };
}

function newPlayer() {
  return {
    melds: [], // WireMeld: {kind: 'open', shape, tiles, from, claimed} or {kind: 'hidden_kong'}
    discards: [], // [{tile, claimed}]: `claimed` once another seat took it (meld or win)
    flowers: [],
    concealed: 0, // how many concealed tiles
    void: null, // its 定缺 once revealed
    won: null, // WireWin, once it has won (血战 plays on)
    shown: null, // the winner's concealed tiles, shown by `won`
    ready: false, // declared ready (报听, two-player): the server discards for it
  };
}

function newHand(players) {
  return {
    dealer: 0,
    roundWind: '1z',
    dice: [0, 0],
    wall: 0,
    wild: null,
    indicator: null,
    tiles: [], // own concealed tiles, sorted, without `drawn`
    drawn: null, // own tile just drawn, shown apart at the right
    ownVoid: null,
    offered: null, // the tile on offer in a claim window
    lastDiscard: null, // {seat, index} of the newest discard, to highlight
    over: false,
    exhausted: false,
    declinedBy: null,
    revealed: null, // every hand, once the hand ended
    dealing: false, // between hand_started and the first move of play (see `endDeal`)
    discardOffer: null, // {seat, tile}: the newest discard, which a win may take
    robbed: false, // a kong was robbed since the last draw or discard
    kongOffer: null, // {seat, tile}: a kong that may be robbed, until its `melded` (抢杠)
    players: Array.from({ length: players }, newPlayer),
    bonus: [], // the face-up 花牌 indicators (two-player)
    seabed: null, // the seat drawing in the 海底捞月 phase (two-player)
    swapPick: [], // 开始时换牌: indices into the own tiles picked to give back
    swapSent: [], // 开始时换牌: kinds already marked at the server (a mark is final)
  };
}

/**
 * `picked` (indices into `held`) grown so each kind has at least as many picks as it has
 * marks in `sent`: tiles the server already holds marked always show as picked.
 */
function withMarks(held, picked, sent) {
  const now = new Set(picked);
  const need = {};
  for (const kind of sent) need[kind] = (need[kind] ?? 0) + 1;
  for (const [kind, n] of Object.entries(need)) {
    let have = [...now].filter((j) => held[j] === kind).length;
    held.forEach((t, j) => {
      if (have < n && t === kind && !now.has(j)) {
        now.add(j);
        have += 1;
      }
    });
  }
  return [...now].sort((a, b) => a - b);
}

/**
 * The picked kinds not yet marked at the server: what still has to be sent before `swap_done`
 * (after a reconnect some marks may already be there).
 */
export function unsentMarks(h, picked) {
  const sent = [...(h.swapSent ?? [])];
  return picked.filter((kind) => {
    const i = sent.indexOf(kind);
    if (i < 0) return true;
    sent.splice(i, 1);
    return false;
  });
}

/** The number of seats at the table. */
export function playerCount(m) {
  return Math.max(m.seats.length, m.hand?.players.length ?? 0, m.scores.length);
}

/**
 * The seat whose turn it is, or null during a claim window or 定缺. Derived from tile counts,
 * which works after a snapshot too: a seat in its turn holds 14 tiles less three per meld
 * (a count ≡ 2 mod 3), every other seat one fewer.
 */
export function turnSeat(m) {
  const h = m.hand;
  if (!h || h.over) return null;
  for (let s = 0; s < h.players.length; s++) {
    const p = h.players[s];
    if (!p.won && p.concealed % 3 === 2) {
      // Before the 定缺 reveal the dealer holds 14 but nobody is in turn yet.
      return inVoidPhase(m) ? null : s;
    }
  }
  return null;
}

/**
 * Whether the seats are choosing their 定缺 (血战): this seat is asked for one, or has chosen
 * while the others' are not revealed yet. Rulesets without 定缺 never ask, so this stays false.
 */
export function inVoidPhase(m) {
  const h = m.hand;
  if (!h || h.over) return false;
  if ((m.prompt?.legal ?? []).some((a) => a.type === 'declare_void')) return true;
  return h.ownVoid !== null && h.players.some((p) => p.void === null);
}

/** Own concealed tiles (drawn tile included), as the hand is held. */
export function ownTiles(h) {
  return h.drawn ? [...h.tiles, h.drawn] : [...h.tiles];
}

function setOwnTiles(h, tiles, drawn = null) {
  h.tiles = sortTiles(tiles, h.ownVoid);
  h.drawn = drawn;
}

/** Removes one copy of each of `tiles` from the own hand; the drawn tile joins the rest. */
function removeOwn(h, tiles) {
  const held = ownTiles(h);
  for (const t of tiles) {
    const i = held.lastIndexOf(t);
    if (i >= 0) held.splice(i, 1);
  }
  setOwnTiles(h, held);
}

/** Applies a `snapshot` (the whole table). */
export function applySnapshot(m, t) {
  m.table = t.table;
  m.ruleset = t.ruleset;
  m.seat = t.seat ?? null;
  m.seats = t.seats ?? [];
  m.scores = t.scores ?? [];
  m.handNo = t.hand_no ?? 0;
  m.seedSha256 = t.seed_sha256 ?? null;
  m.drawBonus = t.draw_bonus ?? 0;
  m.code = t.code ?? null;
  m.hands = t.hands || null;
  m.actionSeconds = t.action_seconds || null;
  m.timeBankSeconds = t.time_bank_seconds ?? null;
  m.closed = null;
  m.prompt = t.prompt ? { ...t.prompt, receivedAt: Date.now(), sending: false } : null;
  const v = t.view;
  if (!v) {
    m.hand = null;
    return;
  }
  const h = newHand(v.seats.length);
  h.dealer = v.dealer;
  h.roundWind = v.round_wind;
  h.dice = v.dice;
  h.wall = v.wall;
  h.wild = v.wild ?? null;
  h.bonus = v.bonus ?? [];
  h.seabed = v.seabed ?? null;
  h.ownVoid = v.own_void ?? null;
  h.offered = v.offered ?? null;
  h.over = v.over;
  setOwnTiles(h, v.hand ?? []);
  h.swapSent = [...(v.swap_marked ?? [])];
  h.swapPick = withMarks(ownTiles(h), [], h.swapSent);
  v.seats.forEach((p, i) => {
    const q = h.players[i];
    q.melds = p.melds ?? [];
    q.ready = !!p.ready;
    // The river, claimed discards marked; a server without `river` lists only the discards
    // still in front of the seat.
    q.discards = p.river
      ? p.river.map((d) => ({ tile: d.tile, claimed: !!d.claimed }))
      : (p.discards ?? []).map((tile) => ({ tile, claimed: false }));
    q.flowers = p.flowers ?? [];
    q.concealed = p.concealed ?? 0;
    q.void = p.void ?? null;
    q.won = p.won ?? null;
  });
  if (h.offered && !h.players.some((p) => !p.won && p.concealed % 3 === 2)) {
    // A discard's claim window (in a robbing window the kong's owner is in turn): the discard
    // on offer is the newest of a river, which a win on it takes. Known only when one river
    // ends with that tile unclaimed.
    const by = h.players
      .map((p, seat) => ({ seat, last: p.discards.length - 1, tile: p.discards.at(-1) }))
      .filter((d) => d.tile && !d.tile.claimed && d.tile.tile === h.offered);
    if (by.length === 1) {
      h.discardOffer = { seat: by[0].seat, tile: h.offered };
      h.lastDiscard = { seat: by[0].seat, index: by[0].last };
    }
  }
  m.hand = h;
}

/** Applies one message of the table's stream (anything but `snapshot`). */
export function applyMessage(m, msg) {
  switch (msg.type) {
    case 'snapshot':
      applySnapshot(m, msg.table);
      break;
    case 'hand_starting':
      m.handNo = msg.hand_no;
      m.seedSha256 = msg.seed_sha256;
      m.hand = null;
      m.prompt = null;
      break;
    case 'event':
      applyEvent(m, msg.event);
      break;
    case 'prompt':
      m.prompt = { ...msg, receivedAt: Date.now(), sending: false };
      break;
    case 'hand_over':
      m.scores = msg.scores;
      m.prompt = null;
      m.settlement = {
        handNo: msg.hand_no,
        seed: msg.seed,
        settlement: msg.settlement,
        scores: msg.scores,
        hands: m.hand?.revealed ?? null,
        exhausted: m.hand?.exhausted ?? false,
        declinedBy: m.hand?.declinedBy ?? null,
        dealer: m.hand?.dealer ?? 0,
        wins: m.hand ? m.hand.players.map((p) => p.won) : [],
        melds: m.hand ? m.hand.players.map((p) => p.melds) : [],
      };
      break;
    case 'seat_changed':
      m.seats[msg.seat] = { seat: msg.seat, name: msg.name, status: msg.status };
      break;
    case 'table_closed':
      m.closed = msg.reason;
      m.prompt = null;
      break;
    default:
      break;
  }
}

/**
 * The deal is over at the first move of play. Until then another seat's count may include
 * flowers it has not yet set aside, so each count is set to what every deal leaves: 13 tiles,
 * 14 for the dealer.
 */
function endDeal(m, h) {
  if (!h.dealing) return;
  h.dealing = false;
  h.players.forEach((p, s) => {
    if (s !== m.seat) p.concealed = s === h.dealer ? 14 : 13;
  });
}

function applyEvent(m, e) {
  // A decision is owed until something happens in the hand: the server sends prompts after
  // the events that open them and a new one whenever the legal actions change, so an event
  // means the prompt is answered or outdated. Another seat's `passed` changes nothing here.
  if (!(e.kind === 'passed' && e.seat !== m.seat)) m.prompt = null;

  if (e.kind === 'hand_started') {
    const h = newHand(playerCount(m));
    h.dealer = e.dealer;
    h.roundWind = e.round_wind;
    h.dice = e.dice;
    h.wall = e.wall;
    h.dealing = true;
    m.hand = h;
    return;
  }
  const h = m.hand;
  if (!h) return;
  const p = h.players[e.seat];
  const own = e.seat === m.seat;
  const playMoves = ['drew', 'discarded', 'melded', 'won', 'void_chosen', 'voids_revealed', 'passed'];
  if (playMoves.includes(e.kind) && !(e.kind === 'drew' && e.replacement)) endDeal(m, h);

  switch (e.kind) {
    case 'wild_turned':
      // The indicator is set aside from the wall's tail.
      h.wild = e.wild;
      h.indicator = e.indicator;
      h.wall = Math.max(0, h.wall - 1);
      break;
    case 'bonus_turned':
      // Turned up from the tiles set aside, not from the wall.
      h.bonus.push(e.tile);
      break;
    case 'ready_declared':
      if (p) p.ready = true;
      break;
    case 'seabed_started':
      // 海底捞月: the next draws come from the tiles set aside, not from the wall.
      h.seabed = e.seat;
      h.wall = 0;
      break;
    case 'dealt':
      setOwnTiles(h, e.tiles);
      if (p) p.concealed = e.tiles.length;
      break;
    case 'dealt_hidden':
      if (p) p.concealed = e.count;
      break;
    case 'swapped':
      // 开始时换牌: the marked tiles went back to the tiles set aside, as many came in.
      if (own) {
        removeOwn(h, e.out);
        setOwnTiles(h, [...ownTiles(h), ...e.received]);
        h.swapPick = [];
        h.swapSent = [];
      }
      break;
    case 'swap_marked':
      // Own mark, final at the server: it stays picked.
      if (own) {
        h.swapSent.push(e.tile);
        h.swapPick = withMarks(ownTiles(h), h.swapPick ?? [], h.swapSent);
      }
      break;
    // `swapped_hidden` (a count; the hand's size is unchanged) changes nothing drawn here.
    case 'flower_replaced':
      if (!p) break;
      p.flowers.push(e.flower);
      if (own) {
        // A dealt flower leaves the hand; one drawn in play never entered it.
        if (ownTiles(h).includes(e.flower)) removeOwn(h, [e.flower]);
        p.concealed = ownTiles(h).length;
      } else if (h.dealing) {
        p.concealed = Math.max(0, p.concealed - 1);
      }
      // Wall count: `hand_started` counts the wall after the deal. In play a flower is drawn
      // from the wall, then a replacement; during 补花 after the deal every flower set aside
      // but a dealt one came from the wall, and each dealt one is followed by exactly one
      // replacement `drew`: so counting each flower, and no replacement, is exact there.
      h.wall = Math.max(0, h.wall - 1);
      break;
    case 'drew':
      if (!p) break;
      if (!(h.dealing && e.replacement)) h.wall = Math.max(0, h.wall - 1);
      h.discardOffer = null;
      h.robbed = false;
      h.kongOffer = null;
      if (own && e.tile) {
        // The tile drawn before (after a kong's replacement) joins the hand.
        setOwnTiles(h, ownTiles(h), e.tile);
        p.concealed = ownTiles(h).length;
      } else {
        p.concealed += 1;
      }
      h.offered = null;
      break;
    case 'void_chosen':
      if (own) {
        h.ownVoid = e.suit;
        setOwnTiles(h, h.tiles, h.drawn);
      }
      break;
    case 'voids_revealed':
      (e.voids ?? []).forEach((v, i) => {
        if (h.players[i]) h.players[i].void = v;
      });
      break;
    case 'discarded':
      if (!p) break;
      p.discards.push({ tile: e.tile, claimed: false });
      h.lastDiscard = { seat: e.seat, index: p.discards.length - 1 };
      h.discardOffer = { seat: e.seat, tile: e.tile };
      h.robbed = false;
      h.offered = e.tile;
      if (own) {
        if (h.drawn === e.tile) setOwnTiles(h, h.tiles);
        else removeOwn(h, [e.tile]);
        p.concealed = ownTiles(h).length;
      } else {
        p.concealed = Math.max(0, p.concealed - 1);
      }
      break;
    case 'passed':
      break;
    case 'last_declined':
      // 海底: the seat due to draw the last tile declined it; `hand_ended` follows.
      h.declinedBy = e.seat;
      break;
    case 'kong_offered':
      // 抢杠: an added kong's tile is on offer until its `melded` (or a `won` robs it); a
      // concealed kong's tile stays hidden.
      h.kongOffer = { seat: e.seat, tile: e.tile ?? null };
      if (e.tile) h.offered = e.tile;
      break;
    case 'melded':
      if (p) applyMeld(m, h, e.seat, e.meld);
      h.discardOffer = null;
      if (h.kongOffer) {
        h.kongOffer = null;
        h.offered = null;
      }
      break;
    case 'won': {
      const w = e.win;
      const winner = h.players[w.seat];
      if (!winner) break;
      winner.won = w;
      winner.shown = sortTiles(e.concealed ?? []);
      // The winner's concealed tiles, as shown (a self-drawn winning tile is set apart).
      winner.concealed = (e.concealed ?? []).length;
      if (w.seat === m.seat) setOwnTiles(h, e.concealed ?? []);
      const from = h.players[w.from];
      const offer = h.discardOffer;
      if (from && offer && offer.seat === w.from && offer.tile === w.tile) {
        // Won on a discard: the discard leaves the river (once, for several winners).
        markClaimed(from, w.tile);
      } else if (from && !h.robbed) {
        // Robbed a kong being added (抢杠): the tile leaves the declarer's hand and the pung
        // stays a pung (the kong was never announced).
        h.robbed = true;
        if (w.from === m.seat) removeOwn(h, [w.tile]);
        from.concealed = w.from === m.seat ? ownTiles(h).length : Math.max(0, from.concealed - 1);
      }
      h.offered = null;
      h.kongOffer = null;
      break;
    }
    case 'hand_ended':
      h.over = true;
      h.exhausted = !!e.exhausted;
      h.revealed = e.hands ?? null;
      h.offered = null;
      break;
    default:
      // An event kind this client does not know: ignored, the next snapshot corrects.
      break;
  }
}

function markClaimed(player, tile) {
  for (let i = player.discards.length - 1; i >= 0; i--) {
    const d = player.discards[i];
    if (d.tile === tile) {
      d.claimed = true;
      return;
    }
    if (!d.claimed) return;
  }
}

function applyMeld(m, h, seat, meld) {
  const p = h.players[seat];
  const own = seat === m.seat;
  if (meld.kind === 'hidden_kong') {
    // Another seat's concealed kong: four tiles face down.
    p.melds.push(meld);
    p.concealed = Math.max(0, p.concealed - 4);
    return;
  }
  const tiles = meld.tiles ?? [];
  let fromHand;
  switch (meld.shape) {
    case 'added_kong': {
      // The fourth tile joins the pung already on the table; the kong moves to the end of
      // the melds, as the engine lists them.
      const i = p.melds.findIndex((x) => x.kind === 'open' && x.shape === 'pung' && x.tiles[0] === tiles[0]);
      if (i >= 0) p.melds.splice(i, 1);
      p.melds.push(meld);
      fromHand = [tiles[0]];
      break;
    }
    case 'concealed_kong':
      p.melds.push(meld);
      fromHand = tiles;
      break;
    default: {
      // 吃, 碰 or 明杠 on a discard: the claimed tile leaves the discarder's river.
      p.melds.push(meld);
      if (meld.from !== null && meld.from !== undefined && h.players[meld.from]) {
        markClaimed(h.players[meld.from], meld.claimed);
      }
      fromHand = [...tiles];
      const i = fromHand.indexOf(meld.claimed);
      if (i >= 0) fromHand.splice(i, 1);
      h.offered = null;
    }
  }
  if (own) {
    removeOwn(h, fromHand);
    p.concealed = ownTiles(h).length;
  } else {
    p.concealed = Math.max(0, p.concealed - fromHand.length);
  }
}

/** The legal actions of the current prompt, or [] when no decision is owed. */
export function legalActions(m) {
  return m.prompt && !m.prompt.sending ? m.prompt.legal ?? [] : [];
}

/** Whether `tile` may be discarded now. */
export function canDiscard(m, tile) {
  return legalActions(m).some((a) => a.type === 'discard' && a.tile === tile);
}

/** Suits (`m`, `p`, `s`) a seat holds tiles of, for 定缺 hints. */
export function suitCounts(tiles) {
  const counts = { m: 0, p: 0, s: 0 };
  for (const t of tiles) {
    const s = suitOf(t);
    if (s in counts) counts[s] += 1;
  }
  return counts;
}
