// Tournaments: the list and the form that creates one (#/tournaments), and a tournament's page
// (#/tournament/{id}): registration by code, the organiser's code and round button, each
// round's tables (bots marked), live standings, and the exports.

import * as api from './api.js';
import { el, replace, signed, when } from './dom.js';

/** How often a tournament's page asks again while it is open (standings are live). */
const REFRESH_MS = 3000;

/** The list of tournaments and the form that creates one. */
export async function renderTournaments(root, { session, onError }) {
  replace(root, el('div', { class: 'card wide' }, el('h2', {}, 'Tournaments 比赛'), el('p', { class: 'muted' }, 'Loading…')));
  let list;
  let rulesets;
  let ranking;
  try {
    [list, rulesets, ranking] = await Promise.all([api.tournaments(), api.rulesets(), api.tournamentRanking()]);
  } catch (err) {
    onError(err);
    return;
  }
  const rows = list.length
    ? el('table', { dataset: { testid: 'tournament-list' } },
      el('thead', {}, el('tr', {}, el('th', {}, 'Name'), el('th', {}, 'Rules'), el('th', {}, 'Status'), el('th', { class: 'num' }, 'Rounds'))),
      el('tbody', {}, list.map((t) => el('tr', {},
        el('td', {}, el('a', { href: `#/tournament/${t.id}` }, t.name)),
        el('td', {}, rulesets.find((r) => r.id === t.ruleset) ? api.rulesetName(rulesets.find((r) => r.id === t.ruleset)) : t.ruleset),
        el('td', {}, statusText(t.status)),
        el('td', { class: 'num' }, `${t.rounds_started} / ${t.rounds}`)))))
    : el('p', { class: 'muted' }, 'No tournament yet.');
  const best = ranking.length
    ? el('table', { dataset: { testid: 'tournament-ranking' } },
      el('thead', {}, el('tr', {}, el('th', {}, '#'), el('th', {}, 'Player'), el('th', { class: 'num' }, 'Tournaments'),
        el('th', { class: 'num' }, 'Wins'), el('th', { class: 'num' }, 'Podiums'), el('th', { class: 'num' }, 'Mean placing'))),
      el('tbody', {}, ranking.slice(0, 50).map((r) => el('tr', {},
        el('td', {}, String(r.rank)),
        el('td', {}, el('a', { href: `#/player/${r.player}` }, r.display_name)),
        el('td', { class: 'num' }, String(r.tournaments)),
        el('td', { class: 'num' }, String(r.wins)),
        el('td', { class: 'num' }, String(r.podiums)),
        el('td', { class: 'num' }, `${Math.round(r.mean_placing * 100)}%`)))))
    : el('p', { class: 'muted' }, 'No tournament has finished yet.');
  replace(root, el('div', { class: 'card wide' }, el('h2', {}, 'Tournaments 比赛'), rows),
    el('div', { class: 'card wide' }, el('h3', {}, 'Across tournaments'), best),
    session ? createForm(rulesets, onError) : null);
}

function statusText(status) {
  return { registering: 'registering 报名中', playing: 'playing 比赛中', finished: 'finished 已结束' }[status] ?? status;
}

/** The form that creates a tournament; its organiser lands on its page. */
function createForm(rulesets, onError) {
  const field = (label, input) => el('label', {}, label, input);
  const name = el('input', { type: 'text', maxlength: 80, required: true, dataset: { testid: 'tournament-name' } });
  const ruleset = el('select', { dataset: { testid: 'tournament-ruleset' } }, rulesets.map((r) => el('option', { value: r.id }, api.rulesetName(r))));
  const rounds = el('input', { type: 'number', min: 1, max: 20, value: 4, dataset: { testid: 'tournament-rounds' } });
  const hands = el('input', { type: 'number', min: 1, max: 64, placeholder: 'the rules’ match', dataset: { testid: 'tournament-hands' } });
  const scoring = el('select', { dataset: { testid: 'tournament-scoring' } },
    el('option', { value: 'places' }, 'Places 4/2/1/0 (ties share)'), el('option', { value: 'raw' }, 'Raw score'));
  const pairing = el('select', {}, el('option', { value: 'fewest_repeats' }, 'Fewest repeat meetings'), el('option', { value: 'swiss' }, 'Swiss 瑞士制'));
  const duplicate = el('input', { type: 'checkbox', dataset: { testid: 'tournament-duplicate' } });
  const submit = el('button', { type: 'submit', dataset: { testid: 'tournament-create' } }, 'Create the tournament');
  const form = el('form', {
    class: 'card wide',
    onsubmit: async (e) => {
      e.preventDefault();
      submit.disabled = true;
      try {
        const body = { name: name.value, ruleset: ruleset.value, rounds: Number(rounds.value), pairing: pairing.value, duplicate: duplicate.checked };
        if (hands.value) body.hands = Number(hands.value);
        if (scoring.value === 'raw') body.scoring = { kind: 'raw' };
        const t = await api.createTournament(body);
        location.hash = `#/tournament/${t.id}`;
      } catch (err) {
        onError(err);
      } finally {
        submit.disabled = false;
      }
    },
  },
  el('h3', {}, 'Organise one'),
  field('Name ', name), field('Rules ', ruleset), field('Rounds ', rounds), field('Hands per round ', hands),
  field('Scoring ', scoring), field('Pairing ', pairing), field('Duplicate deals 复式 ', duplicate),
  el('div', { class: 'buttons' }, submit));
  return form;
}

/**
 * A tournament's page, asked again every few seconds while it is shown. Returns a function that
 * stops the refreshing (called when the route changes).
 */
export function renderTournament(root, { id, session, onError }) {
  let stopped = false;
  let timer = null;
  const card = el('div', { class: 'card wide', dataset: { testid: 'tournament' } }, el('p', { class: 'muted' }, 'Loading…'));
  replace(root, card);
  const refresh = async () => {
    if (stopped) return;
    try {
      const t = await api.tournament(id);
      if (stopped) return;
      draw(card, t, session, onError, refresh);
    } catch (err) {
      onError(err);
    }
    if (!stopped) timer = setTimeout(refresh, REFRESH_MS);
  };
  refresh();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

function draw(card, t, session, onError, refresh) {
  const me = session?.player;
  const organiser = me === t.organiser;
  const registered = t.entrants.some((e) => e.player === me);
  const act = (label, testid, run) => el('button', {
    type: 'button',
    dataset: { testid },
    onclick: async (e) => {
      e.target.disabled = true;
      try {
        await run();
        await refresh();
      } catch (err) {
        onError(err);
      } finally {
        e.target.disabled = false;
      }
    },
  }, label);

  const head = el('div', {},
    el('h2', {}, t.name),
    el('p', { class: 'muted' }, `${t.ruleset} · ${statusText(t.status)} · round ${t.rounds_started} of ${t.rounds} · ${t.hands} hand${t.hands === 1 ? '' : 's'} a round`,
      t.duplicate ? ' · duplicate deals 复式' : '',
      ` · ${t.scoring.kind === 'raw' ? 'raw score' : `places ${t.scoring.points.join('/')}`}`));

  const registration = [];
  if (t.code) registration.push(el('p', {}, 'Registration code 报名码: ', el('strong', { dataset: { testid: 'tournament-code' } }, t.code)));
  if (t.status === 'registering' && session && !registered) {
    const code = el('input', { type: 'text', placeholder: 'code', value: t.code ?? '', dataset: { testid: 'register-code' } });
    registration.push(el('div', { class: 'buttons' }, code,
      act('Register 报名', 'register', () => api.registerTournament(t.id, { code: code.value }))));
  } else if (registered) {
    registration.push(el('p', { dataset: { testid: 'registered' } }, 'You are registered.'));
  }
  if (organiser && t.rounds_started < t.rounds) {
    registration.push(el('div', { class: 'buttons' },
      act(`Start round ${t.rounds_started + 1}`, 'start-round', () => api.startRound(t.id))));
  }

  const entrants = el('details', { open: t.status === 'registering' },
    el('summary', {}, `Entrants (${t.entrants.length})`),
    el('ol', { dataset: { testid: 'entrants' } }, t.entrants.map((e) => el('li', {}, el('a', { href: `#/player/${e.player}` }, e.display_name)))));

  const rounds = t.round_list.slice().reverse().map((r) => el('section', { dataset: { testid: 'round', round: r.round } },
    el('h3', {}, `Round ${r.round}`, r.ended_ms ? ` · over ${when(r.ended_ms)}` : ' · playing'),
    el('div', { class: 'round-tables' }, r.tables.map((tb) => el('div', { class: 'round-table', dataset: { testid: 'round-table', status: tb.status } },
      el('p', {}, `Table ${tb.table_no + 1}`, t.duplicate ? ` · group ${tb.group + 1}` : '', ` · ${tb.hands_played} / ${t.hands} hands · ${tb.status}`),
      el('ul', {}, tb.seats.map((s) => el('li', { dataset: { testid: 'round-seat', bot: s.entrant === null ? 'true' : 'false' } },
        s.entrant === null ? el('em', {}, 'bot 机器人 (not ranked)') : s.display_name, ` ${signed(s.score)}`))),
      tb.status === 'playing' && tb.seats.some((s) => s.player === me)
        ? el('a', { class: 'button', href: `#/table/${tb.table}`, dataset: { testid: 'play-table' } }, 'Play 入座')
        : null,
      tb.hands_played > 0 && (!t.duplicate || r.ended_ms) ? el('a', { href: `#/hands/${tb.table}` }, 'Hands and replays') : null)))));

  const standings = t.standings.length
    ? el('table', { dataset: { testid: 'standings' } },
      el('thead', {}, el('tr', {}, el('th', {}, '#'), el('th', {}, 'Player'), el('th', { class: 'num' }, 'Points'),
        el('th', { class: 'num' }, 'Score'), el('th', { class: 'num' }, 'Firsts'), el('th', { class: 'num' }, 'Tables'), el('th', { class: 'num' }, 'Escapes'))),
      el('tbody', {}, t.standings.map((s) => el('tr', { dataset: { testid: 'standing', entrant: s.entrant } },
        el('td', {}, String(s.rank)),
        el('td', {}, el('a', { href: `#/player/${s.player}` }, s.display_name)),
        el('td', { class: 'num' }, Number.isInteger(s.points) ? String(s.points) : s.points.toFixed(2)),
        el('td', { class: 'num' }, signed(s.score)),
        el('td', { class: 'num' }, String(s.firsts)),
        el('td', { class: 'num' }, String(s.tables)),
        el('td', { class: 'num' }, String(s.escapes))))))
    : el('p', { class: 'muted' }, 'Standings appear once the first round starts.');

  const base = `/api/tournaments/${t.id}`;
  const exports = el('p', { class: 'muted' }, 'Export: ',
    el('a', { href: `${base}/standings?format=csv`, download: 'standings.csv' }, 'standings CSV'), ' · ',
    el('a', { href: `${base}/standings` }, 'JSON'), ' · ',
    el('a', { href: `${base}/hands?format=csv`, download: 'hands.csv' }, 'hands CSV'), ' · ',
    el('a', { href: `${base}/hands` }, 'JSON'));

  replace(card, head, registration, entrants, el('h3', {}, 'Standings 排名'), standings, rounds, exports);
}
