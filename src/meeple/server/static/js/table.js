// The table page: one websocket (connection.js) with the seat's stored token (a spectator
// without one); draws the seat's own view (with the game's board module, boards/GAME.js, where
// there is one; otherwise the generic view), the legal actions, whose turn it is, the timer,
// the log (table-log.js: the server's entries in words, merged with a board's own lines), the
// talk, the result in words, and the tools: the rules page, a sound when your turn starts, and
// leaving the table. A seat is named as people name it (seats.js): its person, with its colour.
import {api, forgetSeat, heldSeat, keepSeat, playerName as storedName} from './api.js';
import {TableConnection} from './connection.js';
import {addBoardStyles, fill, h, showError} from './dom.js';
import {actionIndex, enableActions, piecePicker, renderActions, renderView} from './generic.js';
import {playerName, seatChip, seatLabel, seatName, seatTag} from './seats.js';
import {surveyForm} from './survey.js';
import {TableLog} from './table-log.js';
import {TalkPanel} from './talk.js';

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(window.location.pathname.split('/').filter(Boolean).pop());
const SOUND_KEY = 'meeple.sound';
const TURN_MARK = '▶ Your turn — ';
const genericOnly = new URLSearchParams(window.location.search).get('board') === 'generic';

const page = {
  table: null, seat: null, frame: null, receivedAt: 0, rematch: null,
  board: null, content: {}, boardReady: false, boardLoading: null, unit: null,
  myTurn: null,        // whether this seat had legal actions at the last state (null: none yet)
  chose: false,        // this seat just sent its choice at a decision everyone takes at once
  actId: null,         // the id of this connection's last `act` frame
  notice: null,        // the timeout notice shown by the actions: its element
  leaving: false,      // the Leave table confirmation is open
  left: false,         // this browser's person left this table (now watching)
};

const held = heldSeat(tableId);
const connection = new TableConnection(tableId, held ? held.token : null, {
  onFrame, onStatus, onRefused,
});
const label = (seat) => seatLabel(page.table, seat);
const tag = (seat) => seatTag(page.table, seat, page.seat);
const talk = new TalkPanel($('talk'), {
  send: (frame) => connection.send(frame), seatTag: tag, seatLabel: label,
});
const log = new TableLog($('log'), {
  table: () => page.table, mySeat: () => page.seat, unit: () => page.unit,
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
  if (!page.left) showError('Your seat token is not valid at this table any more: watching instead.');
  connection.restart(null);
}

/** A new table summary (names, seats, spectators): everything that names a seat follows.
 * `countsMe`: false for a summary made before this connection was counted among those watching
 * (`welcome`, `left`). */
function setTable(table, countsMe = true) {
  page.table = table;
  page.countsMe = countsMe;
  talk.setTable(table, page.seat);
  if (page.boardReady) log.render();
}

function onFrame(frame) {
  switch (frame.type) {
    case 'welcome':
      page.seat = frame.seat;
      if (held && frame.seat !== null) keepSeat(tableId, frame.seat, held.token);
      setTable(frame.table, false);
      break;
    case 'table':
      setTable(frame.table);
      break;
    case 'state':
      page.frame = frame;
      page.receivedAt = performance.now();
      onTurn(frame);
      if (page.boardReady && page.board && page.board.logLines) {
        log.boardLines(page.board.logLines(frame.view, boardContext()));
      }
      break;
    case 'log':
      log.receive(frame.entries, frame.reset);
      if (!frame.reset) noticeTimeouts(frame.entries);
      return;
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
      // the log says what happened (in words, from the server): no line of our own here
      if (frame.id === page.actId) clearNotice();
      return;
    case 'left':
      onLeft(frame.table);
      break;
    case 'rematch':
      page.rematch = frame.table;
      break;
    case 'error':
      if (frame.id !== null && frame.id !== undefined && frame.id === talk.pending) {
        talk.error(`${frame.message} (${frame.code})`);
        return;
      }
      if (frame.id !== null && frame.id !== undefined && frame.id === page.actId) {
        page.chose = false;
        showError(`${frame.message} (${frame.code})`, 'act-errors');
        enableActions($('actions'));
      } else {
        showError(`${frame.message} (${frame.code})`);
      }
      break;
    default:
      return;
  }
  render();
}

function act(text) {
  const id = connection.send({type: 'act', action: text});
  if (id === null) {
    showError('Not connected; the action was not sent. Reconnecting…', 'act-errors');
    render();
    return;
  }
  page.actId = id;
  page.chose = simultaneous();
}

// ------------------------------------------------------------------ your turn: title, sound
/** The tab's title says "your turn" while this seat has legal actions; a beep (when the sound
 * is on) when such a turn starts: after a state where it had none, or after its choice at a
 * decision everyone takes at once (the next round may come straight after the last choice). */
function onTurn(frame) {
  const mine = frame.status === 'running' && frame.legal.length > 0;
  if (mine && (page.myTurn === false || page.chose)) beep();
  page.myTurn = mine;
  page.chose = false;
}

/** Whether the latest state is a decision several seats take at once. */
function simultaneous() {
  const view = page.frame && page.frame.view;
  return Boolean(view) && ((view.to_act || []).length + (view.submitted || []).length > 1);
}

const soundOn = () => localStorage.getItem(SOUND_KEY) === 'on';
let audio = null;

/** A short beep through WebAudio (nothing when the sound is off or the browser has none). */
function beep(force = false) {
  if (!force && !soundOn()) return;
  try {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    if (audio.state === 'suspended' && audio.resume) audio.resume();
    const now = audio.currentTime;
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = 'sine';
    tone.frequency.value = 740;
    gain.gain.setValueAtTime(0.12, now);
    gain.gain.exponentialRampToValueAtTime(0.001, now + 0.22);
    tone.connect(gain);
    gain.connect(audio.destination);
    tone.start(now);
    tone.stop(now + 0.23);
  } catch {
    // no sound on this browser: the title and the turn bar still say it
  }
}

function toggleSound() {
  localStorage.setItem(SOUND_KEY, soundOn() ? 'off' : 'on');
  if (soundOn()) beep(true);  // made during the click, so the browser lets it sound
  renderTools();
}

// ------------------------------------------------------------------ timeouts
/** New log entries saying the timer played for this seat: a notice by the actions, until this
 * seat's next action is accepted (or it is dismissed). */
function noticeTimeouts(entries) {
  for (const e of entries) {
    if (e.kind === 'timeout' && e.seat === page.seat && !e.text.includes('{seat:')) {
      clearNotice();
      const item = h('div', {class: 'notice timeout-notice'}, h('span', {}, e.text),
        h('button', {type: 'button', class: 'dismiss', 'aria-label': 'Dismiss', onclick: clearNotice}, '×'));
      page.notice = item;
      $('act-notices').prepend(item);
    }
  }
}

function clearNotice() {
  if (page.notice) page.notice.remove();
  page.notice = null;
}

// ------------------------------------------------------------------ leaving
/** What becomes of this seat when its person leaves now, in words. */
function afterLeaving(table) {
  if (!table || table.status === 'open') return 'your seat is open again';
  const replace = table.replace || 'timer';
  return replace === 'timer'
    ? 'the timer plays your seat now (each of its decisions times out at once)'
    : `bot ${replace} plays your seat now`;
}

function askLeave() {
  page.leaving = true;
  render();
  const yes = $('banner').querySelector('button.leave-yes');
  if (yes) yes.focus();
}

async function leave() {
  const mine = heldSeat(tableId);
  page.leaving = false;
  if (!mine) {
    render();
    return;
  }
  const wasOpen = page.table.status === 'open';
  try {
    const table = await api.leave(tableId, mine.token);
    onLeft(table, wasOpen);
    render();
  } catch (error) {
    showError(`Could not leave: ${error.message}`);
    render();
  }
}

/** This person left (the server's `left` frame, or the leave request's answer): forget the
 * seat's token, watch from now on, and say what became of the seat. */
function onLeft(table, wasOpen) {
  if (page.left) return;
  const seat = page.seat;
  page.left = true;
  page.leaving = false;
  forgetSeat(tableId);
  connection.token = null;  // a reconnection watches
  page.seat = null;
  page.myTurn = null;
  clearNotice();
  const info = table.seats[seat];
  const open = wasOpen || (info && info.kind === 'open');
  const nobody = !table.seats.some((s) => s.kind === 'person');  // the table ends (abandoned)
  page.leftText = nobody ? 'You left this table; nobody else was seated, so it has ended.'
    : `You left this table; ${open ? 'your seat is open again' : afterLeaving(table)}.`;
  setTable(table, false);
}

// ------------------------------------------------------------------ drawing
/** What a board module gets beside the view (boards/README.md). */
function boardContext() {
  const table = page.table;
  const frame = page.frame;
  return {
    mySeat: page.seat, status: frame ? frame.status : 'open', params: table.params,
    players: table.players, game: table.game, variant: table.variant, content: page.content,
    seatName: (seat) => seatName(table, seat), playerName: (seat) => playerName(table, seat),
    seatLabel: label, seatChip: (seat) => seatChip(table, seat), seatColours: table.seat_colours || [],
    redraw: render,
  };
}

/**
 * Load the table's board: `boards/GAME.js`, the game's board content
 * (`GET /api/tables/ID/board`) and its length unit (`GET /api/games`), once; a game without a
 * board module is drawn by the generic view. Resolves when all are in (or known missing).
 */
function loadBoard(table) {
  if (page.boardLoading) return page.boardLoading;
  page.boardLoading = Promise.all([
    // ?board=generic: the generic board even where the game has its own (a designer's check)
    genericOnly ? null : import(`./boards/${table.game}.js`).catch(() => null),
    fetch(`/api/tables/${encodeURIComponent(table.id)}/board`)
      .then((r) => (r.ok ? r.json() : {})).catch(() => ({})),
    api.games().catch(() => []),
  ]).then(([module, content, games]) => {
    addBoardStyles(module, table.game);
    page.board = module;
    page.content = content;
    const game = (Array.isArray(games) ? games : []).find((g) => g.name === table.game);
    page.unit = game ? game.length_unit : null;
    page.layout = game ? game.layout : null;
    page.boardReady = true;
    if (page.frame && module && module.logLines) {
      log.boardLines(module.logLines(page.frame.view, boardContext()));
    }
    log.render();
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
  const frame = page.frame;
  const mine = Boolean(frame && frame.status === 'running' && frame.legal.length);
  document.title = `${mine ? TURN_MARK : ''}meeple: ${table.title} (${table.id})`;
  renderTitle(table);
  renderTools();
  renderBanner();
  renderSeats();
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
    const seated = page.seat !== null && frame.status === 'running';
    renderView($('board'), view, {...ctx, layout: page.layout,
      actionsNaming: seated ? actionIndex(frame.legal) : null, pickPiece: piecePicker(act, render)});
    let note = page.seat === null ? 'You are watching.' : 'Not your turn.';
    if (frame.status === 'open') note = 'The game starts when every seat is taken.';
    if (frame.status === 'finished') note = 'The game is over.';
    if (view.my_submission !== undefined && view.my_submission !== null) note = 'Submitted; waiting for the others.';
    renderActions($('actions'), frame.legal, act, note);
  }
  // the notices sit by the actions (a timeout above them, a refused action under them); at
  // the top of the board where the board keeps its choices on itself (no action panel)
  $('act-area').classList.toggle('no-actions', !$('actions').hasChildNodes());
  renderResult(frame);
}

function renderTitle(table) {
  const rematchOf = table.rematch_of
    ? [' · rematch of ', h('a', {href: `/table/${encodeURIComponent(table.rematch_of)}`}, `table ${table.rematch_of}`)]
    : null;
  fill($('table-title'), h('span', {class: 'game-title'}, table.title),
    ` · table ${table.id} · ${table.variant}`, rematchOf, ' · ',
    page.seat === null ? h('b', {class: 'watching'}, 'watching')
      : h('b', {class: 'you'}, 'you: ', seatChip(table, page.seat), label(page.seat)));
}

function renderTools() {
  const table = page.table;
  const frame = page.frame;
  const status = frame ? frame.status : table.status;
  const canLeave = page.seat !== null && heldSeat(tableId) && (status === 'open' || status === 'running');
  const sound = soundOn();
  fill($('table-tools'),
    h('a', {class: 'tool', href: `/rules/${encodeURIComponent(table.game)}`, target: '_blank', rel: 'noopener',
      'aria-label': `Rules of ${table.title} (opens in a new tab)`}, 'Rules ↗'),
    h('button', {type: 'button', class: 'tool sound', 'aria-pressed': String(sound), onclick: toggleSound,
      'aria-label': 'Sound when your turn starts', title: 'A short beep when your turn starts'},
    sound ? '♪ Sound on' : '♪ Sound off'),
    canLeave ? h('button', {type: 'button', class: 'tool leave', onclick: askLeave,
      'aria-expanded': String(page.leaving)}, 'Leave table') : null);
}

function renderBanner() {
  const box = $('banner');
  if (page.leaving && page.seat !== null) {
    box.hidden = false;
    box.className = 'banner confirm';
    fill(box, h('span', {}, `Leave this table? ${capitalise(afterLeaving(page.table))}; you can watch on.`),
      h('button', {type: 'button', class: 'primary leave-yes', onclick: leave}, 'Yes, leave the table'),
      h('button', {type: 'button', class: 'leave-no', onclick: () => {
        page.leaving = false;
        render();
        const again = $('table-tools').querySelector('.leave');
        if (again) again.focus();
      }}, 'Stay'));
    return;
  }
  if (page.left) {
    box.hidden = false;
    box.className = 'banner left';
    fill(box, h('span', {}, page.leftText), ' ', h('a', {href: '/'}, 'Back to the lobby'),
      h('span', {class: 'hint'}, ' (you are watching this table now)'));
    return;
  }
  box.hidden = true;
  fill(box);
}

const capitalise = (text) => text.charAt(0).toUpperCase() + text.slice(1);

function renderSeats() {
  const table = page.table;
  const view = page.frame && page.frame.view;
  const toAct = new Set((view && view.to_act) || []);
  const submitted = new Set((view && view.submitted) || []);
  fill($('seat-list'), table.seats.map((s) => {
    let mark = '';
    if (page.frame && page.frame.status === 'running') {
      if (submitted.has(s.seat)) mark = 'submitted';
      else if (toAct.has(s.seat)) mark = 'to act';
    }
    return h('li', {class: `seat${s.seat === page.seat ? ' mine' : ''}`, dataset: {seat: String(s.seat)}},
      h('span', {class: 'seat-name'}, tag(s.seat)),
      s.kind === 'person' ? presence(s) : null,
      mark ? h('span', {class: `mark mark-${mark.replace(' ', '-')}`}, mark) : null);
  }));
  const n = (table.spectators || 0) + (page.seat === null && !page.countsMe ? 1 : 0);
  $('watching').textContent = `${n === 0 ? 'Nobody' : n} watching${page.seat === null && n ? ' (you too)' : ''}.`;
}

function presence(s) {
  // this browser knows its own connection better than the last table summary it got
  const on = s.seat === page.seat ? $('connection').dataset.status === 'connected' : s.connected;
  return h('span', {class: `presence ${on ? 'on' : 'off'}`}, on ? ' online' : ' away');
}

/** Seats as chips and labels, comma separated; `none` when there are none. */
function seatList(seats, none) {
  if (!seats.length) return [none];
  return seats.map((s, i) => [i ? ', ' : '', tag(s)]);
}

function renderTurn(frame) {
  const view = frame.view;
  let parts;
  if (frame.status === 'open') {
    const open = page.table.seats.filter((s) => s.kind === 'open').length;
    parts = [`Waiting for ${open} more player${open === 1 ? '' : 's'} to join.`];
  } else if (frame.status === 'finished') {
    parts = ['Game over.'];
  } else if (frame.status === 'broken') {
    parts = ['This table could not be restored.'];
  } else if (frame.status === 'abandoned' || frame.status === 'expired') {
    parts = [`This table ended: ${frame.status === 'abandoned' ? 'every person left' : 'it was idle too long'}.`];
  } else {
    const toAct = view.to_act || [];
    const submitted = view.submitted || [];
    if (toAct.length + submitted.length > 1) {
      parts = ['Everyone chooses at once. Submitted: ', seatList(submitted, 'nobody yet'),
        '. Still choosing: ', seatList(toAct, 'nobody'), '.'];
    } else if (toAct.includes(page.seat)) {
      parts = ['Your turn.'];
    } else {
      parts = [seatList(toAct, 'Nobody'), ' to play.'];
    }
  }
  const mine = frame.status === 'running' && frame.legal.length > 0;
  fill($('turn'), mine ? '▶ ' : null, parts);
  $('turn-bar').classList.toggle('my-turn', mine);
}

/** The countdown, `deadline - now` from the frame's arrival, rounded to the nearest second: it
 * shows 0:00 in the last half second before the server plays the timeout. */
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
  const whole = Math.round(left);
  box.textContent = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')} left`;
  box.title = `${seconds} s per decision`;
  box.classList.toggle('urgent', left <= 5);
}

/** What the result says, in words: the board's own (`resultText`) where it has one. */
function resultWords(result, view) {
  const ctx = boardContext();
  if (page.board && page.board.resultText) {
    const words = page.board.resultText(result, view, ctx);
    if (words) return words;
  }
  const me = page.seat;
  const winners = result.winners || [];
  if (result.outcome && 'team_win' in result.outcome) {
    const cause = result.outcome.cause ? ` (${String(result.outcome.cause).replace(/_/g, ' ')})` : '';
    return {
      headline: result.outcome.team_win ? 'The team won.' : `The team lost${cause}.`,
      rows: table().seats.map(() => (result.outcome.team_win ? 'won, with the team' : 'lost, with the team')),
    };
  }
  const names = winners.map((s) => (s === me ? 'you' : label(s)));
  let headline;
  if (!winners.length) headline = 'Nobody won.';
  else if (winners.length === 1) headline = winners[0] === me ? 'You won!' : `${names[0]} won.`;
  else headline = `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} shared the win.`;
  if (winners.length > 1 && winners.includes(me)) headline = `You shared the win with ${names.filter((n) => n !== 'you').join(', ')}.`;
  const rows = table().seats.map((s) => {
    if (!winners.includes(s.seat)) return 'lost';
    return winners.length === 1 ? 'won' : 'shared the win';
  });
  return {headline, rows};
}

const table = () => page.table;

/** A score as people read it: whole numbers without a decimal point. */
const scoreText = (value) => (value === undefined || value === null ? '' : String(Math.round(value * 100) / 100));

function renderResult(frame) {
  const box = $('result');
  if (frame.status !== 'finished' || !frame.result) {
    box.hidden = true;
    return;
  }
  const result = frame.result;
  const tableInfo = page.table;
  const words = resultWords(result, frame.view);
  const scoreName = (page.board && page.board.scoreName) || 'score';
  const rematchId = (page.rematch && page.rematch.id) || tableInfo.rematch;
  box.hidden = false;
  fill(box, h('h2', {}, 'Game over'), h('p', {class: 'headline'}, words.headline),
    words.detail ? h('p', {class: 'detail'}, words.detail) : null,
    result.truncated ? h('p', {class: 'hint'}, 'The game hit its length cap.') : null,
    h('table', {class: 'view-table result-table'}, h('thead', {}, h('tr', {}, h('th', {}, 'Seat'),
      h('th', {}, capitalise(scoreName)), h('th', {}, 'Result'))),
    h('tbody', {}, tableInfo.seats.map((s) => h('tr', {class: s.seat === page.seat ? 'mine' : ''},
      h('th', {scope: 'row'}, tag(s.seat)), h('td', {class: 'score'}, scoreText(result.scores[s.seat])),
      h('td', {class: 'outcome-words'}, words.rows[s.seat]))))),
    h('button', {class: 'primary rematch', onclick: rematch},
      rematchId ? 'Join the rematch' : 'Rematch'),
    ' ', h('a', {class: 'button secondary', href: `/replay/${encodeURIComponent(tableId)}`}, 'Replay'),
    ' ', h('a', {href: '/'}, 'Back to the lobby'), survey());
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
    const name = storedName() || page.table.seats[page.seat].name;
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

/** The number watching changes without a websocket frame (a spectator's arrival tells no one
 * but the lobby): ask for it now and then, while the tab is in view. */
async function refreshSpectators() {
  if (!page.table || document.hidden) return;
  try {
    const info = await api.table(tableId);
    if (page.table && info.spectators !== page.table.spectators) {
      page.table = {...page.table, spectators: info.spectators};
      page.countsMe = true;
      renderSeats();
    }
  } catch {
    // the next websocket frame or poll brings it
  }
}

setInterval(renderTimer, 250);
setInterval(refreshSpectators, 20000);
connection.connect();
