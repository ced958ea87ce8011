// Leaderboards per ruleset and period (`GET /api/leaderboards/{ruleset}`), a player's hands
// (`GET /api/players/{player}/history`) and a table's hands (`GET /api/tables/{table}/hands`),
// each hand linking to its replay.

import * as api from './api.js';
import { el, replace, signed, when } from './dom.js';

const PAGE = 50;

/** The leaderboards view; `state` keeps the chosen ruleset, period and ranking. */
export async function renderBoards(root, { onError, state }) {
  replace(root, el('div', { class: 'card wide' }, el('h2', {}, 'Leaderboards'), el('p', { class: 'muted' }, 'Loading…')));
  let rulesets;
  try {
    rulesets = await api.rulesets();
  } catch (err) {
    onError(err);
    return;
  }
  const ruleset = el('select', { id: 'board-ruleset', dataset: { testid: 'board-ruleset' } },
    rulesets.map((r) => el('option', { value: r.id }, api.rulesetName(r))));
  const period = el('select', { id: 'board-period', dataset: { testid: 'board-period' } },
    el('option', { value: 'all' }, 'All time'), el('option', { value: 'month' }, 'This month'),
    el('option', { value: 'week' }, 'This week'));
  const by = el('select', { id: 'board-by' },
    el('option', { value: 'score' }, 'By score'), el('option', { value: 'rating' }, 'By rating'));
  ruleset.value = state.ruleset ?? 'sichuan-xuezhan';
  if (!ruleset.value && rulesets.length) ruleset.value = rulesets[0].id;
  period.value = state.period ?? 'all';
  by.value = state.by ?? 'score';
  const list = el('div', { class: 'board', dataset: { testid: 'board' } });
  let offset = 0;
  const more = el('div', { class: 'buttons' });
  const load = async () => {
    Object.assign(state, { ruleset: ruleset.value, period: period.value, by: by.value });
    let rows;
    try {
      rows = await api.leaderboard(ruleset.value, period.value, by.value, offset, PAGE);
    } catch (err) {
      onError(err);
      return;
    }
    if (!rows.length && offset === 0) {
      replace(list, el('p', { class: 'muted' }, 'Nobody has finished a hand of these rules in this period yet.'));
      replace(more);
      return;
    }
    replace(list, el('table', {},
      el('thead', {}, el('tr', {}, el('th', {}, '#'), el('th', {}, 'Player'), el('th', { class: 'num' }, 'Score'),
        el('th', { class: 'num' }, 'Hands'), el('th', { class: 'num' }, 'Rating'))),
      el('tbody', {}, rows.map((r) => el('tr', {},
        el('td', {}, String(r.rank)),
        el('td', {}, el('a', { href: `#/player/${r.player}` }, r.display_name)),
        el('td', { class: 'num' }, String(r.score)),
        el('td', { class: 'num' }, String(r.hands)),
        el('td', { class: 'num' }, String(Math.round(r.rating))))))));
    replace(more,
      offset > 0 ? el('button', { type: 'button', onclick: () => { offset = Math.max(0, offset - PAGE); load(); } }, 'Previous') : null,
      rows.length === PAGE ? el('button', { type: 'button', onclick: () => { offset += PAGE; load(); } }, 'Next') : null);
  };
  for (const s of [ruleset, period, by]) s.addEventListener('change', () => { offset = 0; load(); });
  replace(root, el('div', { class: 'card wide' },
    el('h2', {}, 'Leaderboards'),
    el('div', { class: 'filters' }, ruleset, period, by),
    list, more));
  load();
}

/** How a stored hand ended (`HandOut.ending`), in words. */
export function endingText(ending) {
  switch (ending) {
    case 'self_draw':
      return '自摸 won on a self-draw';
    case 'discard':
      return '点炮 won on a discard';
    case 'multi_win':
      return '一炮多响 several winners';
    case 'drawn':
      return '荒庄 drawn: nobody won';
    default:
      return ending ?? '';
  }
}

/** What a hand meant for one player, in words: won, paid, or even. */
function outcomeText(delta) {
  if (delta > 0) return `won ${delta}`;
  if (delta < 0) return `paid ${-delta}`;
  return 'even';
}

/** A player's hands, newest first, each linking to its replay; the player named. */
export async function renderHistory(root, { player, session, onError }) {
  const mine = player === session?.player;
  replace(root, el('div', { class: 'card wide' }, el('h2', {}, mine ? 'Your hands' : 'A player’s hands'), el('p', { class: 'muted' }, 'Loading…')));
  let rows;
  let who;
  try {
    [rows, who] = await Promise.all([api.history(player, 0, 100), api.player(player)]);
  } catch (err) {
    onError(err);
    replace(root, el('div', { class: 'card wide' }, el('p', {}, `These hands cannot be shown: ${err.message}`)));
    return;
  }
  const labels = await Promise.all(rows.map((r) => api.rulesetLabel(r.ruleset)));
  const title = mine ? `Your hands, ${who.display_name}` : `${who.display_name}’s hands`;
  const body = rows.length
    ? el('table', {},
      el('thead', {}, el('tr', {}, el('th', {}, 'When'), el('th', {}, 'Rules'), el('th', {}, 'Hand'),
        el('th', {}, 'How it ended'), el('th', { class: 'num' }, 'Points'), el('th', {}, ''))),
      el('tbody', {}, rows.map((r, i) => el('tr', { dataset: { testid: 'history-row' } },
        el('td', {}, when(r.finished_ms)),
        el('td', {}, labels[i]),
        el('td', {}, el('a', { href: `#/hands/${r.table}` }, `${r.hand_no + 1}`)),
        el('td', { dataset: { testid: 'history-ending' } }, `${endingText(r.ending)} — ${mine ? 'you' : who.display_name} ${outcomeText(r.delta)}`),
        el('td', { class: ['num', r.delta > 0 ? 'plus' : r.delta < 0 ? 'minus' : ''] }, signed(r.delta)),
        el('td', {}, el('a', { href: `#/replay/${r.table}/${r.hand_no}` }, 'Replay'))))))
    : el('p', { class: 'muted' }, 'No finished hands yet.');
  replace(root, el('div', { class: 'card wide' }, el('h2', { dataset: { testid: 'history-title' } }, title), body));
}

/** A table's finished hands. */
export async function renderTableHands(root, { table, onError }) {
  replace(root, el('div', { class: 'card wide' }, el('h2', {}, 'The table’s hands'), el('p', { class: 'muted' }, 'Loading…')));
  let hands;
  try {
    hands = await api.tableHands(table);
  } catch (err) {
    onError(err);
    return;
  }
  const body = hands.length
    ? el('table', {},
      el('thead', {}, el('tr', {}, el('th', {}, 'Hand'), el('th', {}, 'Ending'), el('th', {}, 'Deltas'), el('th', {}, ''))),
      el('tbody', {}, hands.map((h) => el('tr', {},
        el('td', {}, `${h.hand_no + 1}`),
        el('td', {}, endingText(h.ending)),
        el('td', {}, h.seats.map((s) => signed(s.delta)).join(' / ')),
        el('td', {}, el('a', { href: `#/replay/${h.table}/${h.hand_no}` }, 'Replay'))))))
    : el('p', { class: 'muted' }, 'No finished hands yet.');
  const label = hands.length ? await api.rulesetLabel(hands[0].ruleset) : '';
  replace(root, el('div', { class: 'card wide' }, el('h2', {}, `The table’s hands${label ? ` (${label})` : ''}`), body));
}
