// The table reducer: a snapshot and the events after it → the table as one seat (or a
// spectator) may know it. The one place a client turns the stream into state; the web client,
// the headless bot and replays all use it, and a test holds it to the server's own snapshot at
// every point of recorded streams (test/transcripts.test.mjs).
//
// Every rule here is one proto/README.md states ("Server messages", "Snapshots", "The table
// from the stream"). Nothing about rulesets is known here: the server's events and prompts
// carry everything.
import { sortTiles } from './tiles.js';
/** A table before its first snapshot. */
export function emptyTable() {
    return {
        table: null,
        ruleset: null,
        seat: null,
        seats: [],
        scores: [],
        handNo: 0,
        seedSha256: null,
        drawBonus: 0,
        code: null,
        hands: null,
        actionSeconds: null,
        timeBankSeconds: null,
        claimWindowMs: null,
        hand: null,
        prompt: null,
        lastHand: null,
        closed: null,
    };
}
function newPlayer() {
    return { melds: [], river: [], flowers: [], concealed: 0, void: null, won: null, shown: null, ready: false };
}
function newHand(players, dealer, roundWind, dice, wall) {
    return {
        dealer,
        roundWind,
        dice,
        wall,
        wild: null,
        indicator: null,
        bonus: [],
        seabed: null,
        hand: [],
        drawn: null,
        ownVoid: null,
        swapMarked: [],
        offered: null,
        over: false,
        turn: dealer,
        lastDiscard: null,
        players: Array.from({ length: players }, newPlayer),
        dealing: true,
        kongOffer: null,
        ending: null,
        declinedBy: null,
    };
}
/** The tiles still in front of a seat (its river less the claimed ones). */
export function discards(p) {
    return p.river.filter((d) => !d.claimed).map((d) => d.tile);
}
/** The table a snapshot describes. Whatever the state held before is replaced. */
export function fromSnapshot(t) {
    return {
        ...emptyTable(),
        table: t.table,
        ruleset: t.ruleset,
        seat: t.seat ?? null,
        seats: t.seats.map((s) => ({ ...s })),
        scores: [...t.scores],
        handNo: t.hand_no,
        seedSha256: t.seed_sha256 ?? null,
        drawBonus: t.draw_bonus ?? 0,
        code: t.code ?? null,
        hands: t.hands ?? null,
        actionSeconds: t.action_seconds ?? null,
        timeBankSeconds: t.time_bank_seconds ?? null,
        claimWindowMs: t.claim_window_ms ?? null,
        hand: t.view ? handFromView(t.view) : null,
        prompt: t.prompt ?? null,
    };
}
function handFromView(v) {
    const h = newHand(v.seats.length, v.dealer, v.round_wind, [...v.dice], v.wall);
    h.dealing = false;
    h.wild = v.wild ?? null;
    h.bonus = [...(v.bonus ?? [])];
    h.seabed = v.seabed ?? null;
    h.hand = sortTiles(v.hand);
    h.drawn = v.drawn ?? null;
    h.ownVoid = v.own_void ?? null;
    h.swapMarked = [...(v.swap_marked ?? [])];
    h.offered = v.offered ?? null;
    h.over = v.over;
    h.turn = v.turn ?? null;
    h.lastDiscard = v.last_discard ?? null;
    h.players = v.seats.map((p) => ({
        melds: p.melds.map((m) => ({ ...m })),
        river: (p.river ?? []).map((d) => ({ ...d })),
        flowers: [...p.flowers],
        concealed: p.concealed,
        void: p.void ?? null,
        won: p.won ? { ...p.won } : null,
        shown: null,
        ready: p.ready ?? false,
    }));
    return h;
}
/**
 * The table after one message of the stream (`reduce(state, frame)` never changes `state`).
 * Replies (`ack`, `pong`, `error`) are not part of the stream and change nothing here.
 */
export function reduce(state, message) {
    if (message.type === 'snapshot')
        return fromSnapshot(message.table);
    const s = structuredClone(state);
    switch (message.type) {
        case 'hand_starting':
            s.handNo = message.hand_no;
            s.seedSha256 = message.seed_sha256;
            s.hand = null;
            s.prompt = null;
            break;
        case 'event':
            applyEvent(s, message.event);
            break;
        case 'prompt': {
            const { type: _type, seq: _seq, ...prompt } = message;
            s.prompt = prompt;
            break;
        }
        case 'hand_over':
            s.scores = [...message.scores];
            s.drawBonus = message.draw_bonus ?? s.drawBonus;
            s.lastHand = {
                handNo: message.hand_no,
                seed: message.seed ?? null,
                settlement: message.settlement,
                scores: [...message.scores],
                hand: s.hand,
            };
            // Between hands the table has no hand, and counts the one just played.
            s.hand = null;
            s.prompt = null;
            s.handNo = message.hand_no + 1;
            s.seedSha256 = null;
            break;
        case 'seat_changed':
            s.seats[message.seat] = { seat: message.seat, name: message.name, status: message.status };
            break;
        case 'table_closed':
            s.closed = message.reason;
            s.prompt = null;
            break;
        default:
            break;
    }
    return s;
}
/** Another seat's events that leave this seat's decision as it was. */
const OTHERS_QUIET = new Set(['passed', 'swapped_hidden']);
/** Events of the deal (补花 included): any other one means play has begun. */
const DEAL_EVENTS = new Set(['wild_turned', 'bonus_turned', 'dealt', 'dealt_hidden', 'flower_replaced']);
function applyEvent(s, e) {
    // The server sends a prompt after the events that open it and again whenever the legal
    // actions change: any event of the hand answers or outdates it, but another seat's `passed`
    // or finished swap, which change nothing this seat may do.
    if (!(OTHERS_QUIET.has(e.kind) && 'seat' in e && e.seat !== s.seat))
        s.prompt = null;
    if (e.kind === 'hand_started') {
        const players = Math.max(s.seats.length, s.scores.length);
        s.hand = newHand(players, e.dealer, e.round_wind, [...e.dice], e.wall);
        return;
    }
    const h = s.hand;
    if (!h)
        return;
    if (h.dealing && !DEAL_EVENTS.has(e.kind) && !(e.kind === 'drew' && e.replacement))
        h.dealing = false;
    EVENTS[e.kind](s, h, e);
}
const EVENTS = {
    hand_started: () => { },
    wild_turned: (_s, h, e) => {
        h.wild = e.wild;
        h.indicator = e.indicator;
        h.wall = e.wall ?? h.wall;
    },
    bonus_turned: (_s, h, e) => {
        // From the tiles set aside, not from the wall.
        h.bonus.push(e.tile);
    },
    ready_declared: (_s, h, e) => {
        const p = h.players[e.seat];
        if (p)
            p.ready = true;
    },
    seabed_started: (_s, h, e) => {
        h.seabed = e.seat;
        h.wall = 0;
    },
    swap_marked: (s, h, e) => {
        if (e.seat === s.seat)
            h.swapMarked.push(e.tile);
    },
    swapped: (s, h, e) => {
        if (e.seat !== s.seat)
            return;
        h.hand = sortTiles([...removeTiles(h.hand, e.out), ...e.received]);
        h.swapMarked = [];
        h.drawn = null;
    },
    swapped_hidden: () => { },
    dealt: (s, h, e) => {
        if (e.seat === s.seat)
            h.hand = sortTiles(e.tiles);
        const p = h.players[e.seat];
        if (p)
            p.concealed = e.tiles.length;
    },
    dealt_hidden: (_s, h, e) => {
        const p = h.players[e.seat];
        if (p)
            p.concealed = e.count;
    },
    flower_replaced: (s, h, e) => {
        const p = h.players[e.seat];
        if (!p)
            return;
        p.flowers.push(e.flower);
        // In play a flower is set aside as it is drawn, in its seat's turn (its replacement
        // `drew` keeps the turn there).
        if (!h.dealing)
            h.turn = e.seat;
        // A dealt flower leaves the concealed tiles; a drawn one never entered them.
        if (e.dealt) {
            p.concealed = Math.max(0, p.concealed - 1);
            if (e.seat === s.seat)
                h.hand = removeTiles(h.hand, [e.flower]);
        }
    },
    drew: (s, h, e) => {
        const p = h.players[e.seat];
        if (!p)
            return;
        h.wall = e.wall ?? h.wall;
        p.concealed += 1;
        if (e.seat === s.seat && e.tile) {
            h.hand = sortTiles([...h.hand, e.tile]);
            h.drawn = e.tile;
        }
        // A replacement (补花, or after a kong) keeps the turn where it is.
        if (!e.replacement)
            h.turn = e.seat;
        h.offered = null;
        h.kongOffer = null;
    },
    void_chosen: (s, h, e) => {
        if (e.seat === s.seat)
            h.ownVoid = e.suit;
    },
    voids_revealed: (_s, h, e) => {
        e.voids.forEach((v, i) => {
            const p = h.players[i];
            if (p)
                p.void = v;
        });
    },
    discarded: (s, h, e) => {
        const p = h.players[e.seat];
        if (!p)
            return;
        p.river.push({ tile: e.tile, claimed: false });
        p.concealed = Math.max(0, p.concealed - 1);
        if (e.seat === s.seat)
            h.hand = removeTiles(h.hand, [e.tile]);
        h.drawn = null;
        h.lastDiscard = e.seat;
        h.offered = e.tile;
        h.turn = null;
    },
    passed: () => { },
    claim_entered: () => { },
    last_offered: (_s, h) => {
        // 海底: the seat due to draw the last tile is asked first; nothing is on offer.
        h.offered = null;
        h.turn = null;
    },
    last_declined: (_s, h, e) => {
        h.declinedBy = e.seat;
        h.turn = null;
    },
    kong_offered: (s, h, e) => {
        // 抢杠: an added kong's tile is on offer; a concealed kong's stays hidden.
        h.kongOffer = { seat: e.seat, tile: e.tile ?? null, robbed: false };
        if (e.tile)
            h.offered = e.tile;
        if (e.seat === s.seat)
            h.drawn = null;
        h.turn = null;
    },
    melded: (s, h, e) => meld(s, h, e.seat, e.meld),
    won: (s, h, e) => {
        const w = e.win;
        const winner = h.players[w.seat];
        if (!winner)
            return;
        winner.won = { ...w };
        winner.shown = sortTiles(e.concealed);
        winner.concealed = e.concealed.length;
        if (w.seat === s.seat)
            h.hand = sortTiles(e.concealed);
        const from = w.from === null || w.from === undefined ? undefined : h.players[w.from];
        const offer = h.kongOffer;
        if (from && offer && offer.seat === w.from) {
            // Robbing a kong (抢杠): its tile leaves the declarer's hand, once for every winner.
            if (!offer.robbed) {
                offer.robbed = true;
                from.concealed = Math.max(0, from.concealed - 1);
                if (w.from === s.seat)
                    h.hand = removeTiles(h.hand, [w.tile]);
            }
        }
        else if (from) {
            markClaimed(from);
        }
        h.drawn = null;
        h.offered = null;
        h.turn = null;
    },
    hand_ended: (_s, h, e) => {
        h.over = true;
        h.wall = e.wall ?? h.wall;
        h.ending = { exhausted: e.exhausted, hands: e.hands.map((t) => [...t]), settlement: e.settlement };
        h.offered = null;
        h.kongOffer = null;
        h.drawn = null;
        h.turn = null;
    },
};
/** A discard taken (by a meld or a win) is the discarder's newest one. */
function markClaimed(p) {
    const last = p.river[p.river.length - 1];
    if (last)
        last.claimed = true;
}
/** `tiles` less one copy of each of `gone`. */
function removeTiles(tiles, gone) {
    const left = [...tiles];
    for (const t of gone) {
        const i = left.lastIndexOf(t);
        if (i >= 0)
            left.splice(i, 1);
    }
    return left;
}
function meld(s, h, seat, m) {
    const p = h.players[seat];
    if (!p)
        return;
    const own = seat === s.seat;
    h.turn = seat;
    if (own)
        h.drawn = null;
    h.offered = null;
    h.kongOffer = null;
    if (m.kind === 'hidden_kong') {
        // Another seat's concealed kong: four tiles face down.
        p.melds.push({ ...m });
        p.concealed = Math.max(0, p.concealed - 4);
        return;
    }
    let fromHand;
    if (m.shape === 'added_kong') {
        // The fourth tile joins the seat's pung, and the kong is listed last.
        const i = p.melds.findIndex((x) => x.kind === 'open' && x.shape === 'pung' && x.tiles[0] === m.tiles[0]);
        if (i >= 0)
            p.melds.splice(i, 1);
        fromHand = m.tiles.slice(0, 1);
    }
    else if (m.shape === 'concealed_kong') {
        fromHand = [...m.tiles];
    }
    else {
        // 吃, 碰 or 明杠 on a discard: the claimed tile leaves the discarder's river.
        const from = m.from === null || m.from === undefined ? undefined : h.players[m.from];
        if (from)
            markClaimed(from);
        fromHand = m.claimed ? removeTiles(m.tiles, [m.claimed]) : [...m.tiles];
    }
    p.melds.push({ ...m });
    p.concealed = Math.max(0, p.concealed - fromHand.length);
    if (own)
        h.hand = removeTiles(h.hand, fromHand);
}
/**
 * What a snapshot states of a table, from a state: the fields a snapshot carries, in one
 * canonical form (flowers sorted: a snapshot lists them in no particular order). Two states
 * that agree here draw the same table; the transcript test compares exactly this.
 */
export function snapshotFacts(s) {
    const h = s.hand;
    return {
        table: s.table,
        ruleset: s.ruleset,
        seat: s.seat,
        seats: s.seats,
        scores: s.scores,
        handNo: s.handNo,
        seedSha256: s.seedSha256,
        drawBonus: s.drawBonus,
        code: s.code,
        hands: s.hands,
        actionSeconds: s.actionSeconds,
        timeBankSeconds: s.timeBankSeconds,
        claimWindowMs: s.claimWindowMs,
        prompt: s.prompt,
        hand: h && {
            dealer: h.dealer,
            roundWind: h.roundWind,
            dice: h.dice,
            wall: h.wall,
            wild: h.wild,
            bonus: h.bonus,
            seabed: h.seabed,
            hand: h.hand,
            drawn: h.drawn,
            ownVoid: h.ownVoid,
            swapMarked: h.swapMarked,
            offered: h.offered,
            over: h.over,
            turn: h.turn,
            lastDiscard: h.lastDiscard,
            players: h.players.map((p) => ({
                melds: p.melds.map(canonicalMeld),
                river: p.river,
                flowers: sortTiles(p.flowers),
                concealed: p.concealed,
                void: p.void,
                won: p.won && { seat: p.won.seat, tile: p.won.tile, from: p.won.from ?? null },
                ready: p.ready,
            })),
        },
    };
}
function canonicalMeld(m) {
    if (m.kind === 'hidden_kong')
        return { kind: m.kind };
    return { kind: m.kind, shape: m.shape, tiles: m.tiles, from: m.from ?? null, claimed: m.claimed ?? null };
}
