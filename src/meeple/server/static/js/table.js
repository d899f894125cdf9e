// The table page: one websocket (connection.js) with the seat's stored token (a spectator
// without one); draws the seat's own view (with the game's board module, boards/GAME.js, where
// there is one; otherwise the generic view), the legal actions, whose turn it is, the timer,
// the log, the talk and the result.
import {api, forgetSeat, heldSeat, keepSeat, playerName, seatLabel} from './api.js';
import {TableConnection} from './connection.js';
import {addBoardStyles, fill, h, showError} from './dom.js';
import {enableActions, renderActions, renderView} from './generic.js';
import {surveyForm} from './survey.js';
import {TalkPanel} from './talk.js';

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(window.location.pathname.split('/').filter(Boolean).pop());

const page = {
  table: null, seat: null, frame: null, receivedAt: 0, rematch: null,
  log: [], logKeys: new Set(), events: [], timeUpLogged: null,
  board: null, content: {}, boardReady: false, boardLoading: null,
};

const seatName = (seat) => (page.table && page.table.seat_names[seat]) || `Seat ${seat}`;
function playerName_(seat) {
  const info = page.table && page.table.seats[seat];
  if (!info) return '';
  if (info.kind === 'open') return 'open seat';
  return info.kind === 'bot' ? `bot ${info.name}` : info.name;
}

const held = heldSeat(tableId);
const connection = new TableConnection(tableId, held ? held.token : null, {
  onFrame, onStatus, onRefused,
});
const talk = new TalkPanel($('talk'), {
  send: (frame) => connection.send(frame), seatName, playerName: playerName_,
});

function onStatus(status, attempt, delay) {
  const box = $('connection');
  box.dataset.status = status;
  if (status === 'connected') box.textContent = 'connected';
  else if (status === 'connecting') box.textContent = attempt ? 'reconnecting…' : 'connecting…';
  else box.textContent = `connection lost; retrying in ${Math.ceil(delay / 1000)} s`;
  if (page.table) renderSeats();
}

function onRefused(code) {
  if (code === 4404) {
    $('connection').textContent = 'no such table';
    fill($('board'), h('p', {}, 'This table does not exist. ', h('a', {href: '/'}, 'Back to the lobby')));
    return;
  }
  forgetSeat(tableId);
  showError('Your seat token is not valid at this table any more: watching instead.');
  connection.restart(null);
}

function addLog(key, text, kind = '') {
  if (page.logKeys.has(key)) return;
  page.logKeys.add(key);
  const list = $('log');
  list.appendChild(h('li', {class: kind}, text));
  while (list.children.length > 200) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
}

function logEvents(view) {
  if (!page.boardReady) return;  // loadBoard logs the latest view once the board is in
  if (page.board && page.board.logLines) {
    for (const line of page.board.logLines(view, boardContext())) addLog(line.key, line.text);
    return;
  }
  const fresh = (view.events || []).map((e) => JSON.stringify(e));
  // the view keeps the last few events: append what follows the overlap with what we have
  let overlap = Math.min(fresh.length, page.events.length);
  while (overlap > 0 && page.events.slice(-overlap).join('\n') !== fresh.slice(0, overlap).join('\n')) {
    overlap -= 1;
  }
  for (const raw of fresh.slice(overlap)) {
    page.events.push(raw);
    const [when, seat, text] = JSON.parse(raw);
    const who = seat < 0 ? 'Table' : `${seatName(seat)}${seat === page.seat ? ' (you)' : ''}`;
    addLog(`event-${page.events.length}`, `[${when}] ${who}: ${text}`);
  }
}

function onFrame(frame) {
  switch (frame.type) {
    case 'welcome':
      page.table = frame.table;
      page.seat = frame.seat;
      if (held && frame.seat !== null) keepSeat(tableId, frame.seat, held.token);
      talk.setTable(frame.table, frame.seat);
      break;
    case 'table':
      page.table = frame.table;
      talk.setTable(frame.table, page.seat);
      break;
    case 'state':
      page.frame = frame;
      page.receivedAt = performance.now();
      logEvents(frame.view);
      break;
    case 'history':
      talk.history(frame.messages);
      return;
    case 'talk':
      talk.add(frame.message);
      return;
    case 'said':
      talk.said(frame.id);
      return;
    case 'accepted':
      addLog(`accepted-${frame.id}-${Date.now()}`, `You played ${frame.action}.`, 'mine');
      return;
    case 'rematch':
      page.rematch = frame.table;
      break;
    case 'error':
      showError(`${frame.message} (${frame.code})`);
      enableActions($('actions'));
      break;
    default:
      return;
  }
  render();
}

function act(text) {
  if (connection.send({type: 'act', action: text}) === null) {
    showError('Not connected; the action was not sent. Reconnecting…');
    render();
  }
}

/** What a board module gets beside the view (boards/README.md). */
function boardContext() {
  const table = page.table;
  const frame = page.frame;
  return {
    mySeat: page.seat, status: frame ? frame.status : 'open', params: table.params,
    players: table.players, game: table.game, variant: table.variant, content: page.content,
    seatName, playerName: playerName_, redraw: render,
  };
}

/**
 * Load the table's board: `boards/GAME.js` and the game's board content
 * (`GET /api/tables/ID/board`), once; a game without a board module is drawn by the generic
 * view. Resolves when both are in (or known to be missing).
 */
function loadBoard(table) {
  if (page.boardLoading) return page.boardLoading;
  page.boardLoading = Promise.all([
    import(`./boards/${table.game}.js`).catch(() => null),
    fetch(`/api/tables/${encodeURIComponent(table.id)}/board`)
      .then((r) => (r.ok ? r.json() : {})).catch(() => ({})),
  ]).then(([module, content]) => {
    addBoardStyles(module, table.game);
    page.board = module;
    page.content = content;
    page.boardReady = true;
    page.events = [];
    page.logKeys = new Set();
    fill($('log'));
    if (page.frame) logEvents(page.frame.view);
    render();
  });
  return page.boardLoading;
}

function render() {
  const table = page.table;
  if (!table) return;
  if (!page.boardReady) {
    loadBoard(table);
    return;
  }
  document.title = `meeple: ${table.title} (${table.id})`;
  fill($('table-title'), h('span', {class: 'game-title'}, table.title), ` · table ${table.id} · ${table.variant} · `,
    page.seat === null ? h('b', {}, 'watching')
      : h('b', {class: 'you'}, `you: ${seatLabel(table, page.seat)}`));
  renderSeats();
  const frame = page.frame;
  if (!frame) return;
  renderTurn(frame);
  renderTimer();
  const view = frame.view;
  const ctx = boardContext();
  const board = page.board;
  $('board').parentElement.classList.toggle('actions-first', !board || Boolean(board.actionsFirst));
  if (board) {
    board.render($('board'), $('actions'), view, frame.legal, ctx, act);
  } else {
    renderView($('board'), view, ctx);
    let note = page.seat === null ? 'You are watching.' : 'Not your turn.';
    if (frame.status === 'open') note = 'The game starts when every seat is taken.';
    if (frame.status === 'finished') note = 'The game is over.';
    if (view.my_submission !== undefined && view.my_submission !== null) note = 'Submitted; waiting for the others.';
    renderActions($('actions'), frame.legal, act, note);
  }
  renderResult(frame);
}

function renderSeats() {
  const table = page.table;
  const view = page.frame && page.frame.view;
  const toAct = new Set((view && view.to_act) || []);
  const submitted = new Set((view && view.submitted) || []);
  fill($('seat-list'), table.seats.map((s) => {
    const name = seatName(s.seat);
    let mark = '';
    if (page.frame && page.frame.status === 'running') {
      if (submitted.has(s.seat)) mark = 'submitted';
      else if (toAct.has(s.seat)) mark = 'to act';
    }
    return h('li', {class: `seat${s.seat === page.seat ? ' mine' : ''}`},
      h('span', {class: `seat-name god-text-${name.toLowerCase().replace(/\s+/g, '-')}`}, name),
      ` ${playerName_(s.seat)}`, s.seat === page.seat ? ' (you)' : '',
      s.kind === 'person' ? presence(s) : null,
      mark ? h('span', {class: `mark mark-${mark.replace(' ', '-')}`}, mark) : null);
  }));
}

function presence(s) {
  // this browser knows its own connection better than the last table summary it got
  const on = s.seat === page.seat ? $('connection').dataset.status === 'connected' : s.connected;
  return h('span', {class: `presence ${on ? 'on' : 'off'}`}, on ? ' online' : ' away');
}

function renderTurn(frame) {
  const view = frame.view;
  const name = (s) => `${seatName(s)}${s === page.seat ? ' (you)' : ''}`;
  let text;
  if (frame.status === 'open') {
    const open = page.table.seats.filter((s) => s.kind === 'open').length;
    text = `Waiting for ${open} more player${open === 1 ? '' : 's'} to join.`;
  } else if (frame.status === 'finished') {
    text = 'Game over.';
  } else if (frame.status === 'broken') {
    text = 'This table could not be restored.';
  } else {
    const toAct = view.to_act || [];
    const submitted = view.submitted || [];
    if (toAct.length + submitted.length > 1) {
      text = `Everyone chooses at once. Submitted: ${submitted.map(name).join(', ') || 'nobody yet'}.` +
        ` Still choosing: ${toAct.map(name).join(', ') || 'nobody'}.`;
    } else if (toAct.includes(page.seat)) {
      text = 'Your turn.';
    } else {
      text = `${toAct.map(name).join(', ')} to play.`;
    }
  }
  const mine = frame.legal.length > 0;
  $('turn').textContent = text;
  $('turn-bar').classList.toggle('my-turn', mine);
}

function renderTimer() {
  const frame = page.frame;
  const box = $('timer');
  if (!frame || !frame.timer || frame.status !== 'running') {
    box.textContent = '';
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const {deadline, now, seconds} = frame.timer;
  const left = Math.max(0, deadline - now - (performance.now() - page.receivedAt) / 1000);
  const whole = Math.ceil(left);
  box.textContent = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')} left`;
  box.title = `${seconds} s per decision`;
  box.classList.toggle('urgent', left <= 5);
  if (left === 0 && frame.legal.length && page.timeUpLogged !== deadline) {
    page.timeUpLogged = deadline;
    addLog(`timeout-${deadline}`, 'Time is up: the server plays the timeout action for whoever has not chosen.', 'warn');
  }
}

function renderResult(frame) {
  const box = $('result');
  if (frame.status !== 'finished' || !frame.result) {
    box.hidden = true;
    return;
  }
  const result = frame.result;
  const table = page.table;
  const winners = result.winners.map((s) => seatLabel(table, s));
  let headline = winners.length === 1 ? `Winner: ${winners[0]}` : winners.length
    ? `Winners: ${winners.join(', ')}` : 'No winner.';
  if (result.outcome && 'team_win' in result.outcome) {
    headline = result.outcome.team_win ? 'The team won!' : `The team lost (${result.outcome.cause || 'no cause given'}).`;
  }
  if (page.seat !== null && result.winners.includes(page.seat)) headline += ' (you!)';
  const rematchId = (page.rematch && page.rematch.id) || table.rematch;
  box.hidden = false;
  fill(box, h('h2', {}, 'Game over'), h('p', {class: 'headline'}, headline),
    result.truncated ? h('p', {class: 'hint'}, 'The game hit its length cap.') : null,
    h('table', {class: 'view-table'}, h('thead', {}, h('tr', {}, h('th', {}, 'Seat'), h('th', {}, 'Score'),
      h('th', {}, 'Result'))), h('tbody', {}, table.seats.map((s) => h('tr', {class: s.seat === page.seat ? 'mine' : ''},
      h('th', {scope: 'row'}, seatLabel(table, s.seat)), h('td', {}, String(result.scores[s.seat] ?? '')),
      h('td', {}, String(result.returns[s.seat])))))),
    h('button', {class: 'primary rematch', onclick: rematch},
      rematchId ? 'Join the rematch' : 'Rematch'),
    ' ', h('a', {class: 'button secondary', href: `/replay/${encodeURIComponent(tableId)}`}, 'Replay'),
    ' ', h('a', {href: '/'}, 'Back to the lobby'), survey());
  addLog('game-over', `Game over. ${headline}`, 'end');
}

/** The survey for a person who held a seat here (built once: answers typed are kept). */
function survey() {
  const mine = heldSeat(tableId);
  if (page.seat === null || !mine) return null;
  if (!page.survey) page.survey = surveyForm(tableId, mine.token);
  return page.survey;
}

async function rematch() {
  try {
    const next = await api.rematch(tableId);
    const page_ = `/table/${encodeURIComponent(next.id)}`;
    if (page.seat === null) {
      window.location.assign(page_);
      return;
    }
    if (heldSeat(next.id)) {
      window.location.assign(page_);
      return;
    }
    const name = playerName() || page.table.seats[page.seat].name;
    let joined;
    try {
      joined = await api.join(next.id, name, page.seat);
    } catch (error) {
      if (error.code !== 'seat_taken') throw error;
      joined = await api.join(next.id, name);
    }
    keepSeat(next.id, joined.seat, joined.token);
    window.location.assign(page_);
  } catch (error) {
    showError(`Rematch: ${error.message}`);
  }
}

setInterval(renderTimer, 250);
connection.connect();
