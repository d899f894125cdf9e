// The generic board: a game's component layout (`GET /api/games`, each game's `layout`, from
// `Game.board_layout()`, src/meeple/engine/board.py) drawn from one seat's view with no game
// code. Zones are rows of cards: face up where the view shows the pieces, a face-down stack of
// the count where it does not; a per-seat zone is one row per seat, in a panel per seat with
// that seat's counters; marks are tags on the cards they name; the other values a view shows are
// counters. A card that a legal action names is a button: one action plays it, several filter
// the action list. Everything drawn comes from the view: the layout names view keys only.
import {h, label} from './dom.js';

const isScalar = (v) => v === null || typeof v !== 'object';

/** The value at a dotted view key (`turn.keep_size`), or undefined. */
export function viewAt(view, key) {
  let node = view;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object' || !(part in node)) return undefined;
    node = node[part];
  }
  return node;
}

function scalarText(value) {
  if (value === null || value === undefined) return '—';
  if (value === true) return 'yes';
  if (value === false) return 'no';
  return String(value);
}

/** The words of an action text, to find the pieces it names (`play 8H` -> play, 8H). */
const words = (text) => text.split(/[\s,;:()[\]{}=]+/).filter(Boolean);

function seatTitle(seat, ctx) {
  const name = (ctx.seatLabel || ctx.seatName)(seat);
  return [ctx.seatChip ? ctx.seatChip(seat) : null, seat === ctx.mySeat ? `${name} (you)` : name];
}

/** What is known of a card (the zone's `notes`, Hanabi's hints) as a line on it. */
const noteOn = (note) => (note === null || note === undefined || note === ''
  ? null : h('span', {class: 'note'}, String(note)));

/** A card's position in a zone whose cards carry notes (positions matter there: Hanabi's
 *  actions name them), counted as the actions count, from 0. */
const posOn = (at) => (at === undefined ? null
  : h('span', {class: 'pos', title: `position ${at} in this hand`}, String(at)));

/** One piece as a card: a button when legal actions name it (ctx.pickPiece decides what a
 *  click does), with a tag for each mark that names it, what is known of it (`note`) and,
 *  where notes are kept, its position `at`. */
function card(piece, ctx, marks, note, at) {
  const name = String(piece);
  const tags = [posOn(at), ...(marks.get(name) || []).map((m) => h('span', {class: 'tag'}, m)),
    noteOn(note)];
  const acts = ctx.actionsNaming ? ctx.actionsNaming(name) : [];
  if (acts.length && ctx.pickPiece) {
    return h('button', {type: 'button', class: 'card actionable', dataset: {piece: name},
      title: acts.length === 1 ? acts[0] : `${acts.length} actions name ${name}`,
      'aria-label': acts.length === 1 ? acts[0] : `${name}: ${acts.length} actions`,
      onclick: () => ctx.pickPiece(name, acts)}, name, tags);
  }
  return h('span', {class: 'card', dataset: {piece: name}}, name, tags);
}

/** A zone's contents for one holder: its pieces face up, or a face-down stack of `count`;
 *  with `notes` (one per position), each card with what is known of it, face down too. */
function zoneRow(pieces, count, zone, ctx, marks, notes) {
  const known = Array.isArray(notes) ? notes : [];
  if (Array.isArray(pieces)) {
    if (!pieces.length) return h('span', {class: 'empty'}, 'empty');
    const from = zone.draw_pile || pieces.length <= 30 ? 0 : pieces.length - 30;
    const shown = pieces.slice(from);
    return h('span', {class: 'cards'}, from
      ? h('span', {class: 'more'}, `${from} more under`) : null,
    shown.map((p, i) => card(p, ctx, marks, known[from + i], known.length ? from + i : undefined)),
    zone.sorted ? h('span', {class: 'order', title: 'The view does not tell their order'}, 'sorted') : null);
  }
  if (pieces !== null && pieces !== undefined && !Array.isArray(pieces)) {
    return h('span', {class: 'cards'}, card(pieces, ctx, marks));  // a slot's one piece
  }
  if (typeof count === 'number' && known.length && count <= 30) {  // each face-down card
    return h('span', {class: 'cards'}, Array.from({length: count}, (_, i) =>
      h('span', {class: 'card back', title: 'face down'}, posOn(i), '?', noteOn(known[i]))));
  }
  if (typeof count === 'number') {
    return count ? h('span', {class: 'card back', title: `${count} face down`}, `${count} face down`)
      : h('span', {class: 'empty'}, 'empty');
  }
  return null;
}

/** The pieces and count of per-seat `zone` for `seat`, as this view shows them. */
function seatPart(view, zone, seat, ctx) {
  const shown = zone.show ? viewAt(view, zone.show) : undefined;
  const counts = zone.count ? viewAt(view, zone.count) : undefined;
  let pieces;
  if (shown !== undefined) {
    if (zone.visibility === 'owner') pieces = seat === ctx.mySeat ? shown : undefined;
    else if (Array.isArray(shown)) pieces = shown[seat];
  }
  if (zone.slot && pieces === null) pieces = [];
  const notes = zone.notes ? viewAt(view, zone.notes) : undefined;
  return [pieces, Array.isArray(counts) ? counts[seat] : undefined,
    Array.isArray(notes) ? notes[seat] : undefined];
}

/** `view` without the (possibly dotted) keys in `used`; a record left empty goes too. */
export function viewWithout(view, used) {
  const rest = {...view};
  for (const key of used) {
    const parts = key.split('.');
    let node = rest;
    for (const part of parts.slice(0, -1)) {
      if (node[part] === null || typeof node[part] !== 'object' || Array.isArray(node[part])) { node = null; break; }
      node[part] = {...node[part]};
      node = node[part];
    }
    if (node) delete node[parts[parts.length - 1]];
  }
  for (const key of new Set([...used].filter((k) => k.includes('.')).map((k) => k.split('.')[0]))) {
    const value = rest[key];
    if (value && typeof value === 'object' && !Array.isArray(value) && !Object.keys(value).length) delete rest[key];
  }
  return rest;
}

/**
 * Draw `view` with `ctx.layout`: returns [node, used] where `used` holds the view keys (dotted
 * for keys inside records) the board drew; the rest is left to the generic sections.
 */
export function renderLayout(view, ctx) {
  const layout = ctx.layout;
  const used = new Set();
  const take = (key) => { if (key) used.add(key); };
  const marks = new Map();
  for (const mark of layout.marks) {
    const named = mark.show ? viewAt(view, mark.show) : undefined;
    if (!Array.isArray(named)) continue;
    take(mark.show);
    for (const piece of named) {
      const key = String(piece);
      if (!marks.has(key)) marks.set(key, []);
      marks.get(key).push(mark.label);
    }
  }
  const shared = [];
  for (const zone of layout.zones.filter((z) => !z.per_seat)) {
    const pieces = zone.show ? viewAt(view, zone.show) : undefined;
    const count = zone.count ? viewAt(view, zone.count) : undefined;
    const row = zoneRow(pieces, count, zone, ctx, marks, zone.notes ? viewAt(view, zone.notes) : null);
    if (!row) continue;
    take(zone.show);
    take(zone.count);
    take(zone.notes);
    shared.push(h('div', {class: 'zone', dataset: {zone: zone.name}},
      h('h4', {}, zone.label, zone.visibility !== 'public' ? h('span', {class: 'vis'}, ` (${zone.visibility})`) : null), row));
  }
  const seatZones = layout.zones.filter((z) => z.per_seat && (z.show || z.count));
  const seatValues = layout.values.filter((v) => v.per_seat && Array.isArray(viewAt(view, v.key))
    && viewAt(view, v.key).every(isScalar));
  const panels = [];
  if (seatZones.length || seatValues.length) {
    for (let seat = 0; seat < ctx.players; seat += 1) {
      const rows = [];
      for (const zone of seatZones) {
        const [pieces, count, notes] = seatPart(view, zone, seat, ctx);
        const row = zoneRow(pieces, count, zone, ctx, marks, notes);
        if (row) rows.push(h('div', {class: 'zone', dataset: {zone: zone.name}}, h('h4', {}, zone.label), row));
      }
      const counters = seatValues.map((v) => h('li', {}, h('span', {class: 'key'}, v.label), ' ',
        h('b', {}, scalarText(viewAt(view, v.key)[seat]))));
      panels.push(h('section', {class: `seat-panel${seat === ctx.mySeat ? ' mine' : ''}`, dataset: {seat}},
        h('h3', {}, seatTitle(seat, ctx)), counters.length ? h('ul', {class: 'pairs'}, counters) : null, rows));
    }
    for (const zone of seatZones) { take(zone.show); take(zone.count); take(zone.notes); }
    for (const v of seatValues) take(v.key);
  }
  const facts = [];
  for (const v of layout.values.filter((x) => !x.per_seat)) {
    const value = viewAt(view, v.key);
    if (value === undefined || !isScalar(value) || used.has(v.key)) continue;
    const text = v.seat && typeof value === 'number' ? (ctx.seatLabel || ctx.seatName)(value) : scalarText(value);
    facts.push(h('div', {class: 'fact'}, h('dt', {}, v.label || label(v.key)), h('dd', {}, text)));
    take(v.key);
  }
  const node = h('div', {class: 'generic-board'},
    facts.length ? h('dl', {class: 'facts'}, facts) : null,
    shared.length ? h('div', {class: 'zones'}, shared) : null,
    panels.length ? h('div', {class: 'seat-panels'}, panels) : null);
  return [node, used];
}
