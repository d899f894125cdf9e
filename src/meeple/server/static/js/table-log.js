// The table page's log: one ordered list, in words, of what happened at the table. Its entries
// come from the server (`log` frames: the game's narration, your own secret choices, timeouts,
// departures, the end; `reset: true` on every (re)connection replaces them all, so a reload
// shows the same log), merged with the lines a board module writes itself (`logLines`, e.g.
// Four Gods' rounds from the view's history) by the game's length (`step`) when they happened.
import {fill, h} from './dom.js';
import {seatLabel, seatTag} from './seats.js';

const SEAT_REF = /\{seat:(\d+)\}/g;
const UNIT = {rounds: 'Round', turns: 'Turn', days: 'Day'};
/** At most this many lines are drawn (the newest). */
const MAX_LINES = 500;

/**
 * Server entries and board lines in one order: the server's entries keep their own order, and
 * a board line of step s goes after every server entry of a step below s and before the
 * server's entries of step s and later (Four Gods: round r's line has step r; the timeouts
 * and your choice of round r happened at step r - 1, the game's end at step r).
 *
 * @param {Array<{step: number}>} entries the server's entries, oldest first
 * @param {Array<{key: string, step: number|undefined, text: string}>} lines a board's lines
 * @returns {Array<{entry?: object, line?: object}>}
 */
export function mergeByStep(entries, lines) {
  const pending = lines.map((line, order) => ({line, order}))
    .sort((a, b) => (a.line.step ?? Infinity) - (b.line.step ?? Infinity) || a.order - b.order);
  const out = [];
  let next = 0;
  for (const entry of entries) {
    while (next < pending.length && (pending[next].line.step ?? Infinity) <= entry.step) {
      out.push({line: pending[next].line});
      next += 1;
    }
    out.push({entry});
  }
  for (; next < pending.length; next += 1) out.push({line: pending[next].line});
  return out;
}

/** `text` with each `{seat:N}` as that seat's chip and label (an array of strings and nodes). */
export function withSeats(text, table, mySeat) {
  const parts = [];
  let last = 0;
  for (const match of text.matchAll(SEAT_REF)) {
    parts.push(text.slice(last, match.index));
    const seat = Number(match[1]);
    parts.push(table && table.seats && table.seats[seat] ? seatTag(table, seat, mySeat) : `seat ${seat + 1}`);
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return parts.filter((p) => p !== '');
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const sentence = (text) => (/[.!?)]$/.test(text) ? text : `${text}.`);

export class TableLog {
  /**
   * @param {HTMLOListElement} list the log's `<ol>`
   * @param {{table: Function, mySeat: Function, unit: Function}} ctx the table's summary, this
   *   connection's seat (null: watching) and the game's length unit (`rounds`, `turns`, `days`)
   */
  constructor(list, ctx) {
    this.list = list;
    this.ctx = ctx;
    this.entries = [];
    this.lines = new Map();  // a board's lines by key
  }

  /** A `log` frame's entries: with `reset`, all of them so far (replacing what is shown). */
  receive(entries, reset) {
    if (reset) this.entries = [];
    this.entries.push(...entries);
    this.render();
  }

  /** A board's own lines of the current view ([{key, step, text}]); a key is kept once. */
  boardLines(lines) {
    let changed = false;
    for (const line of lines || []) {
      if (this.lines.has(line.key)) continue;
      this.lines.set(line.key, line);
      changed = true;
    }
    if (changed) this.render();
  }

  /**
   * The log's lines as `{key, draw}` pairs, oldest first: `key` says what a line shows (the
   * same key, the same line), `draw()` makes its `<li>`.
   */
  items() {
    const table = this.ctx.table();
    const mySeat = this.ctx.mySeat();
    const unit = UNIT[this.ctx.unit()] || null;
    const items = [];
    let when = null;
    const merged = mergeByStep(this.entries, [...this.lines.values()]);
    merged.forEach((item, i) => {
      if (item.line) {
        const line = item.line;
        items.push({key: `board ${line.key}`, draw: () => h('li', {class: 'log-board'}, line.text)});
        return;
      }
      const e = item.entry;
      const next = merged[i + 1] && merged[i + 1].entry;
      // your own timeout comes twice (for everyone, then what the timer played for you): once
      if (e.kind === 'timeout' && e.seat === mySeat && next && next.kind === 'timeout' &&
          next.seat === e.seat && next.step === e.step && e.text.includes('{seat:')) return;
      if (unit && e.when !== null && e.when !== undefined && e.when !== when) {
        const heading = e.when === 0 ? 'Setup' : `${unit} ${e.when}`;
        when = e.when;
        items.push({key: `when ${heading}`, draw: () => h('li', {class: 'log-when'}, heading)});
      }
      const subject = e.kind === 'event' && e.seat !== null && e.seat !== undefined;
      // the game's narration without a subject starts a sentence ("Plans revealed: …"); other
      // entries are sentences already, and one may start with a person's name, kept as typed
      const text = sentence(e.kind === 'event' && !subject ? capital(e.text) : e.text);
      const mine = e.seat === mySeat && mySeat !== null;
      items.push({key: `entry ${i} ${JSON.stringify(e)}`,
        draw: () => h('li', {class: `log-${e.kind}${mine ? ' mine' : ''}`},
          subject ? [seatTag(table, e.seat, mySeat), ' '] : null, withSeats(text, table, mySeat))});
    });
    return items.slice(-MAX_LINES);
  }

  /** Draw the log: only the new lines when the shown ones are unchanged (a screen reader hears
   * just those), else all again (a reset, names at the table changed). */
  render() {
    const table = this.ctx.table();
    const names = JSON.stringify([this.ctx.mySeat(),
      table && table.seats ? table.seats.map((s) => seatLabel(table, s.seat)) : null,
      table && table.seat_colours]);
    const atBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 24;
    const items = this.items();
    const keys = items.map((item) => item.key);
    const shown = this.keys || [];
    const grows = names === this.names && shown.length <= keys.length &&
      shown.every((key, i) => key === keys[i]);
    if (grows) {
      for (const item of items.slice(shown.length)) this.list.appendChild(item.draw());
    } else {
      fill(this.list, items.map((item) => item.draw()));
    }
    this.keys = keys;
    this.names = names;
    if (atBottom || !this.rendered) this.list.scrollTop = this.list.scrollHeight;
    this.rendered = true;
  }
}
