// The lobby page: the open and running tables and the recent games, pushed by the server
// (server-sent events from /api/lobby/events, no polling), a form built from each game's
// parameter schema to create a table, joining a seat with a display name, watching as a
// spectator.
import {api, heldSeat, joinAndGo, playerName, setPlayerName} from './api.js';
import {fill, h, label, showError} from './dom.js';

/** The table lists as the server last sent them: `first` is the pushed first page, `extra`
 * the tables loaded with "Show more" (offset 50 on), `total` the open and running tables in
 * all. */
const lists = {first: [], extra: [], total: 0, loading: 0};
let games = [];

const $ = (id) => document.getElementById(id);

// ------------------------------------------------------------------------------ seat labels

/** A seat as people count it: the game's own name (Four Gods: RED, BLUE...), or for the
 * engine's default "Seat N" names "seat N+1" (counted from 1). In: the seat names of the
 * table or game and the seat index; out: the label. */
function seatTitle(names, seat) {
  const name = names && names[seat];
  const number = /^Seat (\d+)$/.exec(name || `Seat ${seat}`);
  return number ? `seat ${Number(number[1]) + 1}` : name;
}

/** The label with a capital first letter, for the start of a line ("Seat 1"). */
function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A small colour chip for a seat (its colour is never the only signal: the seat's label is
 * written next to it). In: a CSS colour name or undefined; out: a span, or null. */
function chip(colour) {
  if (!colour) return null;
  const node = h('span', {class: 'seat-chip', 'aria-hidden': 'true'});
  node.style.background = colour;
  return node;
}

/** Who sits at a seat in words: the person's name, "bot heuristic", or "open". */
function occupant(seat) {
  if (!seat || seat.kind === 'open' || !seat.kind) return 'open';
  return seat.kind === 'bot' ? `bot ${seat.name}` : seat.name;
}

/** "8 rounds", "1 turn", "5 days": a game length in the game's own unit. */
function lengthText(length, unit) {
  const word = unit || 'steps';
  return `${length} ${length === 1 ? word.replace(/s$/, '') : word}`;
}

// ------------------------------------------------------------------------------ the lists

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
    showError(`Could not join ${table.id}: ${error.words || error.message}`);
  }
}

/** One table of the list: its id (and what it is the rematch of), game and variant, status
 * and how many watch, timer, seats (a Join button per open seat), Watch. */
function tableRow(table) {
  const held = heldSeat(table.id);
  const page = `/table/${encodeURIComponent(table.id)}`;
  const colours = table.seat_colours || [];
  const seats = table.seats.map((s) => {
    const title = seatTitle(table.seat_names, s.seat);
    if (s.kind === 'open') {
      return h('li', {class: 'open-seat'}, chip(colours[s.seat]), h('button', {
        class: 'join', type: 'button', onclick: () => join(table, s.seat),
        'aria-label': `Join ${table.id} as ${title}`,
      }, `Join as ${title}`));
    }
    const presence = s.kind === 'person'
      ? h('span', {class: `presence ${s.connected ? 'on' : 'off'}`},
        s.connected ? ' (online)' : ' (away)') : null;
    return h('li', {}, chip(colours[s.seat]), h('span', {class: 'seat-title'}, `${title}: `),
      occupant(s), presence);
  });
  const actions = [];
  if (held) actions.push(h('a', {class: 'button', href: page}, 'Back to your seat'));
  actions.push(h('a', {class: 'button secondary', href: page, 'aria-label': `Watch ${table.id}`},
    'Watch'));
  const timer = table.timer_seconds ? `${table.timer_seconds} s` : 'untimed';
  const watching = table.spectators === 1 ? '1 watching' : `${table.spectators || 0} watching`;
  return h('tr', {dataset: {table: table.id}},
    h('td', {}, h('a', {href: page}, table.id),
      table.rematch_of ? h('div', {class: 'hint rematch-of'}, `rematch of ${table.rematch_of}`)
        : null),
    h('td', {}, table.title,
      h('div', {class: 'hint'}, `${table.variant}, ${table.players} players`)),
    h('td', {class: 'status-cell'}, h('span', {class: `status status-${table.status}`}, table.status),
      h('div', {class: 'hint watching'}, watching)),
    h('td', {class: 'timer-cell', dataset: {label: 'Decision timer'}}, timer),
    h('td', {class: 'seats-cell'}, h('ul', {class: 'seats'}, seats)),
    h('td', {class: 'row-actions'}, actions));
}

/** Draw the tables (the pushed first page and any loaded with "Show more"), keeping the
 * keyboard focus on the same button or link when it is drawn again. */
function drawTables() {
  const focused = document.activeElement;
  const focusKey = focused && $('tables').contains(focused)
    ? focused.getAttribute('aria-label') || focused.textContent : null;
  const seen = new Set();
  const tables = [...lists.first, ...lists.extra].filter((t) => !seen.has(t.id) && seen.add(t.id));
  fill($('tables').tBodies[0], tables.map(tableRow));
  $('no-tables').hidden = tables.length > 0;
  const more = $('more-tables');
  const left = lists.total - tables.length;
  more.hidden = left <= 0;
  more.textContent = `Show more (${left} more)`;
  if (focusKey) {
    const again = [...$('tables').querySelectorAll('a, button')].find(
      (el) => (el.getAttribute('aria-label') || el.textContent) === focusKey);
    if (again) again.focus();
  }
}

/** The tables from `offset` on, `count` of them (page by page): a list of TableInfo. */
async function loadTables(offset, count) {
  const out = [];
  while (out.length < count) {
    const page = await api.tables(offset + out.length);
    lists.total = page.total;
    out.push(...page.tables);
    if (!page.tables.length) break;
  }
  return out;
}

/** "Show more": the next page after the tables shown. */
async function showMore() {
  const button = $('more-tables');
  button.disabled = true;
  try {
    const shown = lists.first.length + lists.extra.length;
    lists.extra.push(...await loadTables(shown, 1));
    drawTables();
  } catch (error) {
    showError(`Could not list more tables: ${error.words || error.message}`);
  } finally {
    button.disabled = false;
  }
}

/** A pushed first page (`tables` event). Tables loaded with "Show more" are loaded again
 * (only when some were) so the longer list stays current too. */
async function onTables(page) {
  lists.first = page.tables;
  lists.total = page.total;
  drawTables();
  if (!lists.extra.length) return;
  const generation = ++lists.loading;
  try {
    const extra = await loadTables(lists.first.length, lists.extra.length);
    if (generation === lists.loading) {
      lists.extra = extra;
      drawTables();
    }
  } catch (error) {
    showError(`Could not list more tables: ${error.words || error.message}`);
  }
}

/** One finished game: id, game, variant and length ("8 rounds"), seats, winners, Replay. */
function recentRow(game) {
  const colours = game.seat_colours || [];
  const who = (seat) => {
    const info = game.seats[seat];
    const name = occupant(info);
    return [chip(colours[seat]), `${seatTitle(game.seat_names, seat)}`,
      name === 'open' ? '' : ` (${name})`];
  };
  const winners = game.winners.length
    ? h('ul', {class: 'seats'}, game.winners.map((s) => h('li', {}, who(s)))) : 'none';
  const length = game.length === null || game.length === undefined ? ''
    : `, ${lengthText(game.length, game.length_unit)}`;
  return h('tr', {dataset: {table: game.id}},
    h('td', {}, game.id),
    h('td', {}, game.title, h('div', {class: 'hint'}, `${game.variant}${length}`)),
    h('td', {}, h('ul', {class: 'seats'}, game.seats.map((s) => h('li', {}, who(s.seat))))),
    h('td', {dataset: {label: 'Winners'}}, winners),
    h('td', {class: 'row-actions'}, h('a', {class: 'button', href: `/replay/${encodeURIComponent(game.id)}`,
      'aria-label': `Replay ${game.id}`}, 'Replay')));
}

async function refreshRecent() {
  try {
    const recent = await api.recent();
    fill($('recent').tBodies[0], recent.map(recentRow));
    $('no-recent').hidden = recent.length > 0;
  } catch (error) {
    showError(`Could not list the recent games: ${error.words || error.message}`);
  }
}

/** Listen to the lobby's pushed updates: `tables` redraws the list, `recent` (a game
 * finished; also sent on connecting) lists the recent games again. EventSource reconnects by
 * itself; a refused stream (the server is busy) falls back to one listing and says so. */
function listen() {
  const live = $('live');
  const events = new EventSource('/api/lobby/events');
  events.addEventListener('tables', (event) => {
    live.textContent = '';
    onTables(JSON.parse(event.data));
  });
  events.addEventListener('recent', () => refreshRecent());
  events.addEventListener('error', async () => {
    if (events.readyState === EventSource.CLOSED) {
      live.textContent = 'Live updates stopped: reload the page to see changes.';
      try {
        const page = await api.tables(0);
        onTables(page);
      } catch (error) {
        showError(`Could not list the tables: ${error.words || error.message}`);
      }
      refreshRecent();
    } else {
      live.textContent = 'Connection lost: reconnecting…';
    }
  });
}

// ------------------------------------------------------------------------------ the form

function currentGame() {
  return games.find((g) => g.name === $('game').value);
}

function currentVariant() {
  const game = currentGame();
  return game.variants.find((v) => v.name === $('variant').value) || game.variants[0];
}

/** The game's parameter values under the chosen variant: its `params` over the defaults. */
function variantParams() {
  const variant = currentVariant();
  return {...currentGame().params, ...(variant ? variant.params : {})};
}

/** What a number parameter accepts, in words: "a whole number from 1 to 100". */
function rangeText(parameter) {
  const {minimum: lo, maximum: hi} = parameter;
  if (lo !== null && lo !== undefined && hi !== null && hi !== undefined) {
    return `a whole number from ${lo} to ${hi}`;
  }
  if (lo !== null && lo !== undefined) return `a whole number of at least ${lo}`;
  if (hi !== null && hi !== undefined) return `a whole number of at most ${hi}`;
  return 'a whole number';
}

/** A file parameter's control: a select of "packaged (default)" and the content ids the
 * server offers, and an upload that adds (and selects) the uploaded file's id. */
function fileInput(game, parameter, id, value, describedBy) {
  const select = h('select', {id, 'aria-describedby': describedBy},
    h('option', {value: ''}, 'packaged (default)'),
    (game.content[parameter.name] || []).map((c) => h('option', {value: c}, c)));
  select.value = value || '';
  const status = h('p', {class: 'hint upload-status', id: `${id}-upload-status`, role: 'status'});
  const upload = h('input', {
    type: 'file', accept: '.json,application/json', id: `${id}-upload`,
    'aria-describedby': status.id,
    onchange: async () => {
      const file = upload.files[0];
      if (!file) return;
      status.className = 'hint upload-status';
      status.textContent = `Uploading ${file.name}…`;
      try {
        const result = await api.upload(game.name, parameter.name, file);
        const offered = game.content[parameter.name] || (game.content[parameter.name] = []);
        if (!offered.includes(result.id)) offered.push(result.id);
        if (![...select.options].some((o) => o.value === result.id)) {
          select.append(h('option', {value: result.id}, result.id));
        }
        select.value = result.id;
        status.textContent = `Uploaded ${file.name} as ${result.id}: selected.`;
      } catch (error) {
        status.className = 'problem upload-status';
        status.textContent = `Not uploaded: ${error.message}`;
      } finally {
        upload.value = '';
      }
    },
  });
  return [select, h('label', {class: 'upload'}, 'Upload a JSON file… ', upload), status];
}

/** One parameter's field from its schema (`parameters` of GET /api/games): a checkbox
 * (bool), a number input with min/max (int), a select (str with choices; file: the content
 * offered), or a text input (free str); its `doc` as the hint, a place for its problem. */
function paramField(game, parameter, value) {
  const id = `param-${parameter.name}`;
  const hint = h('p', {class: 'hint', id: `${id}-hint`}, parameter.doc || '');
  const problem = h('p', {class: 'problem', id: `${id}-problem`, hidden: true});
  const describedBy = `${hint.id} ${problem.id}`;
  const name = label(parameter.name);
  let input;
  let control;
  let extra = null;
  if (parameter.type === 'bool') {
    input = h('input', {id, type: 'checkbox', checked: Boolean(value), 'aria-describedby': describedBy});
    control = h('label', {class: 'check'}, input, ` ${name}`);
  } else if (parameter.type === 'int') {
    input = h('input', {
      id, type: 'number', step: '1', inputmode: 'numeric', required: true, value: String(value),
      min: parameter.minimum ?? undefined, max: parameter.maximum ?? undefined,
      'aria-describedby': describedBy,
    });
    input.dataset.range = rangeText(parameter);
    control = h('label', {}, name, input);
  } else if (parameter.type === 'file') {
    const [select, upload, status] = fileInput(game, parameter, id, value, describedBy);
    input = select;
    control = h('label', {}, name, select);
    extra = [upload, status];
  } else if (parameter.choices && parameter.choices.length) {
    input = h('select', {id, 'aria-describedby': describedBy},
      parameter.choices.map((c) => h('option', {value: c}, c)));
    input.value = String(value);
    control = h('label', {}, name, input);
  } else {
    input = h('input', {id, type: 'text', value: String(value ?? ''), 'aria-describedby': describedBy});
    control = h('label', {}, name, input);
  }
  input.dataset.param = parameter.name;
  input.dataset.type = parameter.type;
  return h('div', {class: `field param param-${parameter.type}`}, control, hint, extra, problem);
}

/** The value a parameter's input holds, as the schema's type. */
function paramValue(input) {
  if (input.dataset.type === 'bool') return input.checked;
  if (input.dataset.type === 'int') return Number(input.value);
  return input.value;
}

/** The parameter fields, reset to the variant's values over the defaults (the decision
 * timer is its own field above, so its parameter is not repeated here). */
function showParams() {
  const game = currentGame();
  const values = variantParams();
  const fields = game.parameters.filter((p) => p.name !== 'timer_seconds')
    .map((p) => paramField(game, p, values[p.name]));
  fill($('params'), fields);
  $('params-box').querySelector('summary').textContent = `Parameters (${fields.length})`;
  const timer = values.timer_seconds;
  $('timer').value = timer ? String(timer) : '';
  clearProblems();
}

/** A seat row per seat of the chosen player count, named as people count them ("Seat 1",
 * or the game's own names: RED...), each open for a person or a bot; choices kept. */
function seatRows() {
  const game = currentGame();
  const players = Number($('players').value) || game.default_players;
  const names = game.seat_names[players - game.min_players] || [];
  const old = [...$('seats').querySelectorAll('select')].map((s) => s.value);
  const rows = names.map((_, seat) => {
    const title = capital(seatTitle(names, seat));
    const select = h('select', {id: `seat-${seat}`, 'aria-label': `${title}: who plays`},
      h('option', {value: ''}, 'open: a person'),
      game.bots.map((b) => h('option', {value: b}, `bot: ${b}`)));
    if (old[seat] !== undefined) select.value = old[seat];
    return h('label', {class: 'seat-row'}, h('span', {}, title), select);
  });
  fill($('seats'), h('legend', {}, 'Seats'), rows);
}

function showGame() {
  const game = currentGame();
  $('game-summary').textContent = game.summary;
  fill($('variant'), game.variants.map((v) => h('option', {value: v.name}, v.name)));
  showVariant();
  const counts = [];
  for (let n = game.min_players; n <= game.max_players; n++) counts.push(n);
  fill($('players'), counts.map((n) => h('option', {value: String(n)}, String(n))));
  $('players').value = String(game.default_players);
  const heuristic = game.bots.includes('heuristic') ? 'heuristic' : 'random';
  fill($('replace'), game.bots.map((b) => h('option', {value: b},
    `the ${b} bot plays for them`)), h('option', {value: 'timer'}, 'the timer plays for them'));
  $('replace').value = heuristic;
  const limits = game.limits;
  const timer = $('timer');
  timer.min = limits.min_timer_seconds;
  timer.max = limits.max_timer_seconds;
  $('timer-hint').textContent =
    `${limits.min_timer_seconds} to ${limits.max_timer_seconds} seconds a decision.`;
  fill($('seats'));
  seatRows();
}

function showVariant() {
  $('variant-description').textContent = currentVariant() ? currentVariant().description : '';
  showParams();
}

/** Show `text` as the problem of the field whose input is `input` (null: none). */
function setProblem(input, text) {
  const problem = $(`${input.id}-problem`);
  if (!problem) return;
  problem.textContent = text || '';
  problem.hidden = !text;
  if (text) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
}

function clearProblems() {
  for (const input of $('create-form').querySelectorAll('[aria-invalid]')) setProblem(input, null);
  showFormError(null);
  $('create-status').textContent = '';
}

/** The problem with one number input in words (null: none), from the browser's own
 * constraint validation. */
function problemOf(input) {
  if (input.checkValidity()) return null;
  const what = input.id === 'timer'
    ? `empty (untimed) or a number of seconds from ${input.min} to ${input.max}`
    : input.dataset.range || 'a different value';
  return `Must be ${what}.`;
}

/** Check every number field before sending: each refused one gets its message next to it
 * and the first is focused (the parameters opened if it is one of them). Out: all valid. */
function checkForm() {
  let first = null;
  for (const input of $('create-form').querySelectorAll('input[type=number]')) {
    const problem = problemOf(input);
    setProblem(input, problem);
    if (problem && !first) first = input;
  }
  if (first) {
    if ($('params').contains(first)) $('params-box').open = true;
    first.focus();
    showFormError('Some values are not allowed: see the marked fields.');
  }
  return !first;
}

/** Mark the parameter fields a server refusal names (`setup_discard = 5 must be below
 * deal = 1` marks both) with its text, and open the parameters to show them. */
function markNamedParams(text) {
  let named = false;
  for (const input of $('params').querySelectorAll('[data-param]')) {
    if (new RegExp(`\\b${input.dataset.param}\\b`).test(text)) {
      setProblem(input, text);
      named = true;
    }
  }
  if (named) $('params-box').open = true;
}

/** The form's own message above the Create button (null: none). */
function showFormError(text) {
  const box = $('create-error');
  box.textContent = text || '';
  box.hidden = !text;
}

async function create(event) {
  event.preventDefault();
  clearProblems();
  if (!checkForm()) return;
  const game = currentGame();
  const sit = $('sit').checked;
  const name = sit ? nameOrAsk() : null;
  if (sit && !name) return;
  const base = variantParams();
  const params = {};
  for (const input of $('params').querySelectorAll('[data-param]')) {
    const value = paramValue(input);
    if (value !== base[input.dataset.param]) params[input.dataset.param] = value;
  }
  const seats = [...$('seats').querySelectorAll('select')].map((s) => (s.value ? {bot: s.value} : {}));
  const timer = $('timer').value.trim();
  const body = {
    game: game.name, variant: $('variant').value, players: seats.length, params, seats,
    timer_seconds: timer ? Number(timer) : null, replace: $('replace').value,
  };
  const button = $('create');
  button.disabled = true;
  try {
    const table = await api.create(body);
    if (sit && table.seats.some((s) => s.kind === 'open')) {
      await joinAndGo(table.id, name);
    } else if (sit || table.status === 'running') {
      window.location.assign(`/table/${encodeURIComponent(table.id)}`);
    } else {
      $('create-status').textContent = `Table ${table.id} is created: it waits in the list for people.`;
    }
  } catch (error) {
    const words = error.words || error.message;
    showFormError(`Could not create the table: ${words}`);
    markNamedParams(words);
  } finally {
    button.disabled = false;
  }
}

/** The header's "New table": bring the form into view and put the focus on its first field. */
function goToForm(event) {
  event.preventDefault();
  $('create-title').scrollIntoView({block: 'start'});
  $('game').focus({preventScroll: true});
}

async function main() {
  const input = $('player-name');
  input.value = playerName();
  input.addEventListener('change', () => setPlayerName(input.value.trim()));
  $('new-table').addEventListener('click', goToForm);
  $('more-tables').addEventListener('click', showMore);
  listen();
  try {
    games = await api.games();
  } catch (error) {
    showError(`Could not load the games: ${error.words || error.message}`);
    return;
  }
  fill($('game'), games.map((g) => h('option', {value: g.name}, g.title)));
  $('game').addEventListener('change', showGame);
  $('variant').addEventListener('change', showVariant);
  $('players').addEventListener('change', seatRows);
  $('create-form').addEventListener('submit', create);
  // a marked field is checked again as it changes (a server's refusal goes once changed)
  $('create-form').addEventListener('input', (e) => {
    if (!e.target.hasAttribute('aria-invalid')) return;
    setProblem(e.target, e.target.matches('input[type=number]') ? problemOf(e.target) : null);
  });
  showGame();
}

main();
