// The lobby page: the open and running tables (polled), a form to create a table, joining a
// seat with a display name, watching as a spectator.
import {api, heldSeat, joinAndGo, playerName, setPlayerName} from './api.js';
import {fill, h, label, showError} from './dom.js';

const POLL_MS = 2000;
let games = [];

const $ = (id) => document.getElementById(id);

function nameOrAsk() {
  const input = $('player-name');
  const name = input.value.trim();
  if (!name) {
    showError('Type your name first (top right): it is shown to the other players.');
    input.focus();
    return null;
  }
  setPlayerName(name);
  return name;
}

async function join(table, seat) {
  const name = nameOrAsk();
  if (!name) return;
  try {
    await joinAndGo(table.id, name, seat);
  } catch (error) {
    showError(`Could not join: ${error.message}`);
    refresh();
  }
}

function tableRow(table) {
  const held = heldSeat(table.id);
  const page = `/table/${encodeURIComponent(table.id)}`;
  const seats = table.seats.map((s) => {
    const name = table.seat_names[s.seat] || `Seat ${s.seat}`;
    if (s.kind === 'open') {
      return h('li', {}, h('button', {
        class: 'join', onclick: () => join(table, s.seat),
        'aria-label': `Join ${table.id} as ${name}`,
      }, `Join as ${name}`));
    }
    const who = s.kind === 'bot' ? `bot ${s.name}` : s.name;
    const online = s.kind === 'person' ? (s.connected ? ' (online)' : ' (away)') : '';
    return h('li', {}, `${name}: ${who}${online}`);
  });
  const actions = [];
  if (held) actions.push(h('a', {class: 'button', href: page}, `Back to your seat`));
  actions.push(h('a', {class: 'button secondary', href: page, 'aria-label': `Watch ${table.id}`},
    'Watch'));
  const timer = table.timer_seconds ? `${table.timer_seconds} s` : 'untimed';
  return h('tr', {dataset: {table: table.id}},
    h('td', {}, h('a', {href: page}, table.id)),
    h('td', {}, table.title, h('div', {class: 'hint'}, `${table.variant}, ${table.players} players`)),
    h('td', {}, h('span', {class: `status status-${table.status}`}, table.status)),
    h('td', {}, timer),
    h('td', {}, h('ul', {class: 'seats'}, seats)),
    h('td', {class: 'row-actions'}, actions));
}

function recentRow(game) {
  const seats = game.seats.map((s) => `${game.seat_names[s.seat] || `Seat ${s.seat}`}: ${s.kind === 'bot' ? `bot ${s.name}` : s.name}`);
  const winners = game.winners.map((s) => game.seat_names[s] || `Seat ${s}`).join(', ') || 'none';
  return h('tr', {dataset: {table: game.id}},
    h('td', {}, game.id),
    h('td', {}, game.title, h('div', {class: 'hint'}, `${game.variant}, ${game.steps} steps`)),
    h('td', {}, h('ul', {class: 'seats'}, seats.map((s) => h('li', {}, s)))),
    h('td', {}, winners),
    h('td', {class: 'row-actions'}, h('a', {class: 'button', href: `/replay/${encodeURIComponent(game.id)}`,
      'aria-label': `Replay ${game.id}`}, 'Replay')));
}

async function refreshRecent() {
  try {
    const recent = await api.recent();
    fill($('recent').tBodies[0], recent.map(recentRow));
    $('no-recent').hidden = recent.length > 0;
  } catch (error) {
    showError(`Could not list the recent games: ${error.message}`);
  }
}

async function refresh() {
  refreshRecent();
  try {
    const tables = (await api.tables()).tables;
    tables.sort((a, b) => (a.status === b.status ? 0 : a.status === 'open' ? -1 : 1));
    fill($('tables').tBodies[0], tables.map(tableRow));
    $('no-tables').hidden = tables.length > 0;
  } catch (error) {
    showError(`Could not list the tables: ${error.message}`);
  }
}

function currentGame() {
  return games.find((g) => g.name === $('game').value);
}

function paramInput(key, value) {
  const id = `param-${key}`;
  let input;
  if (typeof value === 'boolean') {
    input = h('input', {id, type: 'checkbox', checked: value});
  } else if (typeof value === 'number') {
    input = h('input', {id, type: 'number', step: 'any', value: String(value)});
  } else {
    input = h('input', {id, type: 'text', value: String(value)});
  }
  input.dataset.param = key;
  input.dataset.kind = typeof value;
  return h('label', {class: typeof value === 'boolean' ? 'check' : ''},
    typeof value === 'boolean' ? [input, ` ${label(key)}`] : [label(key), input]);
}

function seatRows() {
  const game = currentGame();
  const players = Number($('players').value) || game.default_players;
  const old = [...$('seats').querySelectorAll('select')].map((s) => s.value);
  const rows = [];
  for (let seat = 0; seat < players; seat++) {
    const name = game.name === 'battle-of-the-four-gods'
      ? ['RED', 'BLUE', 'GREEN', 'ORANGE'][seat] : `Seat ${seat}`;
    const select = h('select', {id: `seat-${seat}`, 'aria-label': `${name}: who plays`},
      h('option', {value: ''}, 'open: a person'),
      game.bots.map((b) => h('option', {value: b}, `bot: ${b}`)));
    if (old[seat] !== undefined) select.value = old[seat];
    rows.push(h('label', {class: 'seat-row'}, h('span', {}, name), select));
  }
  fill($('seats'), h('legend', {}, 'Seats'), rows);
}

function showGame() {
  const game = currentGame();
  $('game-summary').textContent = game.summary;
  fill($('variant'), game.variants.map((v) => h('option', {value: v.name}, v.name)));
  showVariant();
  const players = $('players');
  players.min = game.min_players;
  players.max = game.max_players;
  players.value = game.default_players;
  $('timer').value = game.timer_seconds || '';
  fill($('params'), Object.entries(game.params)
    .filter(([key]) => key !== 'timer_seconds')
    .map(([key, value]) => paramInput(key, value)));
  fill($('seats'));
  seatRows();
}

function showVariant() {
  const game = currentGame();
  const variant = game.variants.find((v) => v.name === $('variant').value);
  $('variant-description').textContent = variant ? variant.description : '';
}

async function create(event) {
  event.preventDefault();
  const game = currentGame();
  const sit = $('sit').checked;
  const name = sit ? nameOrAsk() : null;
  if (sit && !name) return;
  const params = {};
  for (const input of $('params').querySelectorAll('input')) {
    const key = input.dataset.param;
    let value = input.value;
    if (input.dataset.kind === 'boolean') value = input.checked;
    else if (input.dataset.kind === 'number') value = Number(input.value);
    if (value !== game.params[key]) params[key] = value;
  }
  const seats = [...$('seats').querySelectorAll('select')].map((s) => (s.value ? {bot: s.value} : {}));
  const timer = $('timer').value.trim();
  const body = {
    game: game.name, variant: $('variant').value, players: seats.length, params, seats,
    timer_seconds: timer ? Number(timer) : null,
  };
  try {
    const table = await api.create(body);
    if (sit && table.seats.some((s) => s.kind === 'open')) {
      await joinAndGo(table.id, name);
    } else if (sit || table.status === 'running') {
      window.location.assign(`/table/${encodeURIComponent(table.id)}`);
    } else {
      refresh();
    }
  } catch (error) {
    showError(`Could not create the table: ${error.message}`);
  }
}

async function main() {
  const input = $('player-name');
  input.value = playerName();
  input.addEventListener('change', () => setPlayerName(input.value.trim()));
  try {
    games = await api.games();
  } catch (error) {
    showError(`Could not load the games: ${error.message}`);
    return;
  }
  fill($('game'), games.map((g) => h('option', {value: g.name}, g.title)));
  $('game').addEventListener('change', showGame);
  $('variant').addEventListener('change', showVariant);
  $('players').addEventListener('change', seatRows);
  $('create-form').addEventListener('submit', create);
  showGame();
  refresh();
  setInterval(refresh, POLL_MS);
}

main();
