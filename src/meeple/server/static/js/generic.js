// A generic but readable drawing of any game's view (for the designs without a board of their
// own yet): scalars as a summary list, per-seat lists as rows named by seat, lists of records as
// tables, nested records as labelled sections; and the legal actions as buttons, grouped by
// their first word, with a filter box when there are many. A game whose state declares its
// components also gets its layout drawn first (layout.js): zones as rows of cards, seats' panels.
import {fill, h, label} from './dom.js';
import {renderLayout, viewWithout} from './layout.js';

// Keys drawn elsewhere on the page (turn bar, log, result) or only for the engine.
const SKIP = new Set(['game', 'seat', 'to_act', 'submitted', 'events', 'winners', 'truncated',
  'my_submission', 'result', 'cause']);
// Lists indexed by seat in the designs' views (each rules page, section "the view").
const PER_SEAT = new Set(['scores', 'vp', 'energy', 'hand_sizes', 'alive', 'played', 'last_ranks',
  'eliminated_round', 'tableaus', 'tableau_order', 'players', 'right_of']);
const MANY = 12;

const isScalar = (v) => v === null || typeof v !== 'object';

function scalarText(value) {
  if (value === null || value === undefined) return '—';
  if (value === true) return 'yes';
  if (value === false) return 'no';
  return String(value);
}

function perSeat(key, value, ctx) {
  return Array.isArray(value) && value.length === ctx.players && value.length > 0 &&
    (PER_SEAT.has(key) || value.every((v) => v !== null && typeof v === 'object'));
}

function seatHeader(seat, ctx) {
  const name = (ctx.seatLabel || ctx.seatName)(seat);  // the table page's label: its person
  const chip = ctx.seatChip ? ctx.seatChip(seat) : null;
  return [chip, seat === ctx.mySeat ? `${name} (you)` : name];
}

function recordTable(rows, ctx, seatRows) {
  const keys = [];
  for (const row of rows) {
    for (const key of Object.keys(row || {})) if (!keys.includes(key)) keys.push(key);
  }
  return h('table', {class: 'view-table'},
    h('thead', {}, h('tr', {}, seatRows ? h('th', {}, 'Seat') : null,
      keys.map((k) => h('th', {}, label(k))))),
    h('tbody', {}, rows.map((row, i) => h('tr', {class: seatRows && i === ctx.mySeat ? 'mine' : ''},
      seatRows ? h('th', {scope: 'row'}, seatHeader(i, ctx)) : null,
      keys.map((k) => h('td', {}, renderValue(k, row ? row[k] : null, ctx, 2)))))));
}

/** Any value of a view as DOM nodes; `depth` limits how far records open into sections. */
export function renderValue(key, value, ctx, depth = 0) {
  if (isScalar(value)) return h('span', {class: 'scalar'}, scalarText(value));
  if (Array.isArray(value)) {
    if (value.length === 0) return h('span', {class: 'empty'}, 'none');
    if (perSeat(key, value, ctx)) {
      if (value.every(isScalar)) {
        return h('table', {class: 'view-table per-seat'},
          h('tbody', {}, value.map((v, i) => h('tr', {class: i === ctx.mySeat ? 'mine' : ''},
            h('th', {scope: 'row'}, seatHeader(i, ctx)), h('td', {}, scalarText(v))))));
      }
      if (value.every((v) => v && typeof v === 'object' && !Array.isArray(v))) {
        return recordTable(value, ctx, true);
      }
      return h('table', {class: 'view-table per-seat'},
        h('tbody', {}, value.map((v, i) => h('tr', {class: i === ctx.mySeat ? 'mine' : ''},
          h('th', {scope: 'row'}, seatHeader(i, ctx)), h('td', {}, renderValue(key, v, ctx, depth + 1))))));
    }
    if (value.every(isScalar)) {
      return h('ul', {class: 'chips'}, value.map((v) => h('li', {}, scalarText(v))));
    }
    if (value.every((v) => v && typeof v === 'object' && !Array.isArray(v))) {
      return recordTable(value, ctx, false);
    }
    const flat = (x) => isScalar(x) || (Array.isArray(x) && x.every(isScalar));
    if (value.every((v) => Array.isArray(v) && v.every(flat))) {
      // short tuples (a map cell, a port and its letter): one row each, one cell per item
      return h('table', {class: 'view-table tuples'}, h('tbody', {}, value.map((row) => h('tr', {},
        row.map((x) => h('td', {}, Array.isArray(x) ? (x.length ? x.map(scalarText).join(', ') : '—')
          : scalarText(x)))))));
    }
    return h('ol', {class: 'rows'}, value.map((v) => h('li', {}, renderValue(key, v, ctx, depth + 1))));
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return h('span', {class: 'empty'}, 'none');
  if (entries.every(([, v]) => isScalar(v)) && entries.length <= 8) {
    return h('ul', {class: 'pairs'}, entries.map(([k, v]) =>
      h('li', {}, h('span', {class: 'key'}, k), ' ', h('b', {}, scalarText(v)))));
  }
  return h('dl', {class: 'record'}, entries.map(([k, v]) => [
    h('dt', {}, label(k)), h('dd', {}, renderValue(k, v, ctx, depth + 1))]));
}

/** Draw `view` into `container`: a summary of its scalars, then one section per other key. */
export function renderView(container, view, ctx) {
  const summary = [];
  const sections = [];
  const [board, used] = ctx.layout ? renderLayout(view, ctx) : [null, new Set()];
  for (const [key, value] of Object.entries(used.size ? viewWithout(view, used) : view)) {
    if (SKIP.has(key)) continue;
    if (isScalar(value)) {
      summary.push(h('div', {class: 'fact'}, h('dt', {}, label(key)), h('dd', {}, scalarText(value))));
    } else {
      const title = key === 'hand' ? 'Your hand' : label(key);
      sections.push(h('section', {class: 'view-section', dataset: {key}},
        h('h3', {}, title), renderValue(key, value, ctx)));
    }
  }
  const mine = view.my_submission !== undefined && view.my_submission !== null
    ? h('p', {class: 'my-submission'}, 'Your submission: ', h('b', {}, scalarText(view.my_submission)))
    : null;
  fill(container, board, summary.length ? h('dl', {class: 'facts'}, summary) : null, mine,
    h('div', {class: 'sections'}, sections));
}

let filterText = '';
let filterFor = '';  // the legal actions the filter was set for: a new decision clears it

/**
 * What a click on a piece of the generic board does (`pickPiece` in its ctx): the one legal
 * action naming it is played; several are shown alone in the action list (its filter set to
 * the piece's name), for the player to choose.
 */
export function piecePicker(onAct, redraw) {
  return (name, actions) => {
    if (actions.length === 1) {
      for (const b of document.querySelectorAll('button.card.actionable, button.action')) b.disabled = true;
      onAct(actions[0]);
      return;
    }
    filterText = name;
    filterFor = null;  // kept for the redraw of this same decision
    redraw();
  };
}

/** `actionsNaming(name)`: the legal action texts with `name` as one of their words. */
export function actionIndex(legal) {
  const index = new Map();
  for (const action of legal) {
    for (const word of new Set(action.split(/[\s,;:()[\]{}=]+/).filter(Boolean))) {
      if (!index.has(word)) index.set(word, []);
      index.get(word).push(action);
    }
  }
  return (name) => index.get(name) || [];
}

/** The legal actions as buttons; `onAct(text)` sends one. */
export function renderActions(container, legal, onAct, note) {
  if (!legal.length) {
    fill(container, h('p', {class: 'hint'}, note));
    return;
  }
  const key = legal.join('\n');
  if (filterFor !== null && filterFor !== key) filterText = '';
  filterFor = key;
  const list = h('div', {class: 'action-groups'});
  const draw = () => {
    const needle = filterText.trim().toLowerCase();
    const shown = needle ? legal.filter((a) => a.toLowerCase().includes(needle)) : legal;
    const groups = new Map();
    for (const action of shown) {
      const word = legal.length > MANY ? action.split(/[\s:]/)[0] : '';
      if (!groups.has(word)) groups.set(word, []);
      groups.get(word).push(action);
    }
    fill(list, shown.length ? [...groups].map(([word, actions]) => h('div', {class: 'action-group'},
      word && groups.size > 1 ? h('h4', {}, `${word} (${actions.length})`) : null,
      h('ul', {class: 'action-list'}, actions.map((action) => h('li', {},
        h('button', {class: 'action', dataset: {action}, onclick: (e) => {
          for (const b of container.querySelectorAll('button.action')) b.disabled = true;
          e.currentTarget.classList.add('sent');
          onAct(action);
        }}, action)))))) : h('p', {class: 'hint'}, 'No legal action matches the filter.'));
  };
  const filter = legal.length > MANY || filterText ? h('label', {class: 'filter'}, 'Filter actions ',
    h('input', {type: 'search', value: filterText, 'aria-label': 'Filter actions',
      oninput: (e) => { filterText = e.target.value; draw(); }})) : null;
  draw();
  fill(container, h('h2', {}, `Your move: ${legal.length} legal action${legal.length === 1 ? '' : 's'}`),
    filter, list);
}

/** Let the buttons be clicked again (after the server refused an action). */
export function enableActions(container) {
  for (const b of container.querySelectorAll('button.action')) b.disabled = false;
  for (const b of document.querySelectorAll('button.card.actionable')) b.disabled = false;
}
