// The replay page: a finished game (`/replay/ID`, a server table) or a record file
// (`/replay/local/KEY`, `meeple replay FILE --web`), step by step, from any seat's perspective or
// the spectator's. Frames come from `GET /api/tables/ID/replay?seat=P` (with this browser's seat
// token, so private talk it sent or received is included) or `GET /api/replays/KEY?seat=P`;
// the board is drawn by the game's board module (boards/GAME.js) with no legal actions, else by
// the generic view. The perspective and step are kept in the address (?seat=P&step=N).
import {heldSeat, seatLabel} from './api.js';
import {addBoardStyles, fill, h, showError} from './dom.js';
import {renderView} from './generic.js';

const $ = (id) => document.getElementById(id);
const parts = window.location.pathname.split('/').filter(Boolean).map(decodeURIComponent);
const local = parts[1] === 'local';
const key = parts[parts.length - 1];
const base = local ? `/api/replays/${encodeURIComponent(key)}` : `/api/tables/${encodeURIComponent(key)}/replay`;
const boardUrl = local ? `/api/replays/${encodeURIComponent(key)}/board` : `/api/tables/${encodeURIComponent(key)}/board`;
const held = local ? null : heldSeat(key);

const page = {
  table: null, seat: null, step: 0, data: null, frames: new Map(), board: null, content: {},
};

const seatName = (seat) => (page.table && page.table.seat_names[seat]) || `Seat ${seat}`;
function playerName(seat) {
  const info = page.table && page.table.seats[seat];
  if (!info || !info.name) return '';
  return info.kind === 'bot' ? `bot ${info.name}` : info.name;
}

/** Frames of perspective `seat` (null: the spectator), fetched once per perspective. */
async function load(seat) {
  if (page.frames.has(seat)) return page.frames.get(seat);
  const url = seat === null ? base : `${base}?seat=${seat}`;
  const headers = held ? {Authorization: `Bearer ${held.token}`} : {};
  const response = await fetch(url, {headers});
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const detail = data && data.detail;
    throw new Error(detail && detail.message ? detail.message : `${response.status} ${response.statusText}`);
  }
  page.frames.set(seat, data);
  return data;
}

async function loadBoard(game) {
  const generic = new URLSearchParams(window.location.search).get('board') === 'generic';
  const [module, content, games] = await Promise.all([
    generic ? null : import(`./boards/${game}.js`).catch(() => null),
    fetch(boardUrl).then((r) => (r.ok ? r.json() : {})).catch(() => ({})),
    fetch('/api/games').then((r) => (r.ok ? r.json() : [])).catch(() => []),
  ]);
  addBoardStyles(module, game);
  page.board = module;
  page.content = content;
  const info = (Array.isArray(games) ? games : []).find((g) => g.name === game);
  page.layout = info ? info.layout : null;  // the generic board's layout (layout.js)
}

function context() {
  const data = page.data;
  const table = page.table;
  return {
    mySeat: page.seat, status: page.step === data.steps ? 'finished' : 'running',
    params: table.params, players: table.players, game: table.game, variant: table.variant,
    content: page.content, layout: page.layout, seatName, playerName, redraw: render, replay: true,
  };
}

function actionText(step) {
  if (step === 0) return 'The start, before any action.';
  const acts = page.data.actions[step - 1];
  return acts.map((a) => `${seatName(a.seat)}: ${a.text}`).join('; ');
}

function go(step) {
  if (!page.data) return;
  page.step = Math.max(0, Math.min(page.data.steps, step));
  keepAddress();
  render();
}

function keepAddress() {
  const query = new URLSearchParams();
  if (page.seat !== null) query.set('seat', String(page.seat));
  query.set('step', String(page.step));
  window.history.replaceState(null, '', `${window.location.pathname}?${query}`);
}

async function choose(seat) {
  try {
    page.data = await load(seat);
    page.seat = seat;
    keepAddress();
    render();
  } catch (error) {
    showError(`Could not load this perspective: ${error.message}`);
    $('perspective').value = page.seat === null ? '' : String(page.seat);
  }
}

function render() {
  const data = page.data;
  const table = page.table;
  if (!data || !table) return;
  const step = page.step;
  const view = data.views[step];
  document.title = `meeple replay: ${table.title} (${table.id})`;
  fill($('table-title'), h('span', {class: 'game-title'}, table.title), ` · ${local ? 'record' : 'table'} ${table.id} · ${table.variant} · `,
    h('b', {class: 'you'}, page.seat === null ? 'spectator' : `as ${seatLabel(table, page.seat)}`));
  const slider = $('slider');
  slider.max = String(data.steps);
  slider.value = String(step);
  slider.setAttribute('aria-valuetext', `step ${step} of ${data.steps}`);
  $('step').textContent = `Step ${step} of ${data.steps}`;
  $('first').disabled = $('back').disabled = step === 0;
  $('forward').disabled = $('last').disabled = step === data.steps;
  fill($('now'), step === 0 ? actionText(0) : [h('span', {class: 'hint'}, `Step ${step}: `), actionText(step)]);
  const ctx = context();
  $('board').parentElement.classList.toggle('actions-first', false);
  if (page.board) {
    page.board.render($('board'), $('actions'), view, [], ctx, () => {});
  } else {
    renderView($('board'), view, ctx);
    fill($('actions'));
  }
  renderSeats(view);
  renderTalk();
  renderLog();
  renderResult();
}

function renderSeats(view) {
  const toAct = new Set(view.to_act || []);
  const submitted = new Set(view.submitted || []);
  fill($('seat-list'), page.table.seats.map((s) => {
    let mark = '';
    if (submitted.has(s.seat)) mark = 'submitted';
    else if (toAct.has(s.seat)) mark = 'to act';
    return h('li', {class: `seat${s.seat === page.seat ? ' mine' : ''}`},
      h('span', {class: 'seat-name'}, seatName(s.seat)), ` ${playerName(s.seat)}`,
      s.seat === page.seat ? ' (this perspective)' : '',
      mark ? h('span', {class: `mark mark-${mark.replace(' ', '-')}`}, mark) : null);
  }));
}

function renderTalk() {
  const said = page.data.talk.filter((m) => m.frame <= page.step);
  $('talk-note').textContent = local
    ? 'The talk this perspective could read (a record file: everything in it).'
    : 'Public talk, and private talk only if this browser\'s seat sent or received it.';
  fill($('talk'), said.length ? said.map((m) => {
    const to = m.recipients ? ` to ${m.recipients.map(seatName).join(', ')} (private)` : '';
    return h('li', {class: `talk-message${m.recipients ? ' is-private' : ''}`},
      h('span', {class: 'at', title: `said after step ${m.frame}`}, `@${m.frame}`),
      h('span', {class: `sender god-text-${seatName(m.sender).toLowerCase().replace(/\s+/g, '-')}`}, seatName(m.sender)), to, ': ', h('span', {class: 'text'}, m.text));
  }) : h('li', {class: 'hint'}, 'Nothing said yet.'));
}

function renderLog() {
  const list = $('log');
  const data = page.data;
  if (list.children.length !== data.steps || list.dataset.seat !== String(page.seat)) {
    list.dataset.seat = String(page.seat);
    fill(list, data.actions.map((_, i) => h('li', {value: String(i + 1)},
      h('button', {class: 'link', type: 'button', onclick: () => go(i + 1),
        'aria-label': `Go to step ${i + 1}`}, actionText(i + 1)))));
  }
  [...list.children].forEach((li, i) => {
    li.classList.toggle('current', i + 1 === page.step);
    li.classList.toggle('future', i + 1 > page.step);
  });
  const current = list.children[page.step - 1];
  if (current) list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight + current.offsetHeight + 8;
}

function renderResult() {
  const box = $('result');
  const result = page.data.result;
  if (page.step !== page.data.steps || !result) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const winners = (result.winners || []).map((s) => seatLabel(page.table, s));
  fill(box, h('h2', {}, 'Game over'),
    h('p', {class: 'headline'}, winners.length ? `Winner${winners.length > 1 ? 's' : ''}: ${winners.join(', ')}` : 'No winner.'),
    h('table', {class: 'view-table'}, h('thead', {}, h('tr', {}, h('th', {}, 'Seat'), h('th', {}, 'Score'), h('th', {}, 'Result'))),
      h('tbody', {}, page.table.seats.map((s) => h('tr', {class: s.seat === page.seat ? 'mine' : ''},
        h('th', {scope: 'row'}, seatLabel(page.table, s.seat)),
        h('td', {}, String((result.scores || [])[s.seat] ?? '')),
        h('td', {}, String((result.returns || [])[s.seat] ?? '')))))));
}

function onKey(event) {
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement ||
      event.target instanceof HTMLTextAreaElement || event.altKey || event.ctrlKey || event.metaKey) return;
  const moves = {ArrowLeft: page.step - 1, ArrowRight: page.step + 1, Home: 0, End: page.data ? page.data.steps : 0};
  if (!(event.key in moves)) return;
  event.preventDefault();
  go(moves[event.key]);
}

async function main() {
  const query = new URLSearchParams(window.location.search);
  const seatParam = query.get('seat');
  const wanted = seatParam === null || seatParam === '' ? null : Number(seatParam);
  try {
    page.data = await load(Number.isInteger(wanted) ? wanted : null);
  } catch (error) {
    fill($('board'), h('p', {}, `No replay: ${error.message}. `, h('a', {href: '/'}, 'Back to the lobby')));
    return;
  }
  page.seat = page.data.seat;
  page.table = page.data.table;
  await loadBoard(page.table.game);
  const select = $('perspective');
  fill(select, h('option', {value: ''}, 'Spectator'),
    page.table.seats.map((s) => h('option', {value: String(s.seat)}, seatLabel(page.table, s.seat))));
  select.value = page.seat === null ? '' : String(page.seat);
  select.addEventListener('change', () => choose(select.value === '' ? null : Number(select.value)));
  $('first').addEventListener('click', () => go(0));
  $('back').addEventListener('click', () => go(page.step - 1));
  $('forward').addEventListener('click', () => go(page.step + 1));
  $('last').addEventListener('click', () => go(page.data.steps));
  $('slider').addEventListener('input', (event) => go(Number(event.target.value)));
  document.addEventListener('keydown', onKey);
  const step = Number(query.get('step'));
  page.step = Number.isInteger(step) && query.get('step') !== null ? Math.max(0, Math.min(page.data.steps, step)) : 0;
  keepAddress();
  render();
}

main();
