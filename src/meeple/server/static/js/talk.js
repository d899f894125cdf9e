// Table talk: public and private messages. A message's text is always inserted as text (a
// `<script>` shows as typed). Private: tick recipients, or start with a dash, the recipients'
// initials and a space (`-rg hello` goes to RED and GREEN), as in the designer's online version
// and `meeple play`; any other line is public as typed (`- I think…`, `-3 for me`, `-ok`). As
// the person types, the box says who the message goes to, by the server's own rule.
import {fill, h, showError} from './dom.js';

/**
 * Who a line typed without ticked recipients goes to, by the server's rule
 * (`meeple.engine.talk.parse_recipients`): a leading `-`, one or more seat initials (the first
 * letters of `seatNames`, any case), a space and a message make it private to those seats;
 * anything else is public, as typed.
 *
 * @param {string} text the line as typed
 * @param {string[]} seatNames the table's seat names (`table.seat_names`)
 * @returns {{recipients: number[]|null, body: string}} recipients null: everyone
 */
export function parseRecipients(text, seatNames) {
  const line = text.trim();
  const space = line.indexOf(' ');
  const head = space < 0 ? line : line.slice(0, space);
  const body = space < 0 ? '' : line.slice(space + 1);
  const initials = new Map();
  seatNames.forEach((name, seat) => { if (name) initials.set(name.charAt(0).toLowerCase(), seat); });
  const letters = [...head.slice(1).toLowerCase()];
  if (!(line.startsWith('-') && space >= 0 && body.trim() && letters.length &&
        letters.every((ch) => initials.has(ch)))) {
    return {recipients: null, body: line};
  }
  return {recipients: [...new Set(letters.map((ch) => initials.get(ch)))], body};
}

export class TalkPanel {
  /**
   * @param {HTMLElement} root the talk section
   * @param {{send: Function, seatTag: Function, seatLabel: Function}} ctx `send(frame)` returns
   *   the frame's id (null when not connected); `seatTag(seat)` a seat's chip and label (a node),
   *   `seatLabel(seat)` its label as text
   */
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.messages = [];
    this.table = null;
    this.seat = null;
    this.list = h('ol', {class: 'talk-list', 'aria-live': 'polite', 'aria-label': 'Talk history'});
    this.input = h('input', {type: 'text', maxlength: 500, 'aria-label': 'Message', placeholder: 'Message',
      oninput: () => this.preview(), 'aria-describedby': 'talk-to'});
    this.to = h('p', {class: 'talk-to', id: 'talk-to', 'aria-live': 'polite'});
    this.errors = h('div', {class: 'talk-errors', role: 'alert'});
    this.form = null;
    this.pending = null;
  }

  /** The table (its talk modes, seats and who sits there) or this connection's seat changed. */
  setTable(table, seat) {
    const ticked = new Set(this.form ? [...this.form.querySelectorAll('input[type=checkbox]:checked')]
      .map((b) => Number(b.value)) : []);
    const key = JSON.stringify([table.talk_modes, table.seat_names, seat,
      table.seats.map((s) => this.ctx.seatLabel(s.seat))]);
    this.table = table;
    this.seat = seat;
    if (key === this.key) return;
    this.key = key;
    const title = h('h2', {id: 'talk-title'}, 'Talk');
    if (!table.talk_modes.length) {
      this.form = null;
      fill(this.root, title, h('p', {class: 'hint'}, 'Table talk is off in this game.'));
      return;
    }
    this.form = seat === null ? null : this.composer(table, seat, ticked);
    fill(this.list, this.messages.map((m) => this.item(m)));
    fill(this.root, title, this.list,
      this.form || h('p', {class: 'hint'}, 'Spectators read the public talk.'));
    this.preview();
  }

  composer(table, seat, ticked) {
    const privateTalk = table.talk_modes.includes('private');
    const boxes = privateTalk ? table.seats.map((s) => (s.seat === seat ? null
      : h('label', {class: 'check recipient'},
        h('input', {type: 'checkbox', value: String(s.seat), checked: ticked.has(s.seat),
          'aria-label': `To ${this.ctx.seatLabel(s.seat)}`, onchange: () => this.preview()}),
        ' ', this.ctx.seatTag(s.seat))))
      : [];
    const form = h('form', {class: 'talk-form', onsubmit: (event) => {
      event.preventDefault();
      const text = this.input.value.trim();
      if (!text) return;
      const to = this.ticked();
      const frame = {type: 'say', text};
      if (to.length) frame.to = to;
      this.pending = this.ctx.send(frame);
      if (this.pending === null) this.error('Not connected; the message was not sent. Reconnecting…');
    }},
    privateTalk ? h('fieldset', {class: 'recipients'},
      h('legend', {}, 'Private to (none ticked: everyone)'), boxes) : null,
    h('div', {class: 'talk-line'}, this.input, h('button', {type: 'submit'}, 'Send')),
    this.to, this.errors,
    privateTalk ? h('p', {class: 'hint'}, 'Or start with a dash, initials and a space: ',
      h('code', {}, `-${this.initials(table, seat)} hi`), ` goes to ${this.example(table, seat)} only;`,
      ' any other line is for everyone.') : null);
    return form;
  }

  /** Two other seats' initials for the hint (`rg`). */
  initials(table, seat) {
    return table.seat_names.filter((_, s) => s !== seat).slice(0, 2)
      .map((n) => n.charAt(0).toLowerCase()).join('');
  }

  example(table, seat) {
    return table.seat_names.filter((_, s) => s !== seat).slice(0, 2).join(' and ');
  }

  ticked() {
    return this.form ? [...this.form.querySelectorAll('input[type=checkbox]:checked')]
      .map((b) => Number(b.value)) : [];
  }

  /** Say, as the person types, who the message goes to ("to everyone", "private to …"). */
  preview() {
    if (!this.form || !this.table) return;
    const text = this.input.value.trim();
    const ticked = this.ticked();
    const privateTalk = this.table.talk_modes.includes('private');
    let to = ticked.length ? ticked : null;
    let how = 'ticked';
    if (!to && text) {
      to = parseRecipients(text, this.table.seat_names).recipients;
      how = 'dash';
    }
    const others = to ? to.filter((s) => s !== this.seat) : null;
    const names = (seats) => seats.map((s, i) => [i ? ', ' : '', this.ctx.seatTag(s)]);
    this.to.classList.toggle('warning', Boolean(to && (!others.length || !privateTalk)));
    if (!text && !ticked.length) fill(this.to);
    else if (!to) fill(this.to, 'To everyone.');
    else if (!privateTalk) fill(this.to, 'Private talk is off at this table: this message would be refused.');
    else if (!others.length) fill(this.to, 'Addressed to nobody but you: the table refuses it.');
    else {
      fill(this.to, 'Private to ', names(others), how === 'dash' ? ' (by the dash and initials).' : '.');
    }
  }

  /** A refused or unsent message: said under the talk box, not over the log. */
  error(text) {
    showError(text, this.errors);
  }

  /** The server stored our message: clear the box. */
  said(id) {
    if (id === this.pending && this.form) {
      this.input.value = '';
      for (const box of this.form.querySelectorAll('input[type=checkbox]')) box.checked = false;
      this.preview();
    }
  }

  history(messages) {
    this.messages = messages.slice();
    fill(this.list, this.messages.map((m) => this.item(m)));
    this.list.scrollTop = this.list.scrollHeight;
  }

  add(message) {
    this.messages.push(message);
    this.list.appendChild(this.item(message));
    this.list.scrollTop = this.list.scrollHeight;
  }

  item(message) {
    const mine = message.sender === this.seat;
    const to = message.recipients
      ? h('span', {class: 'private'}, ' private to ',
        message.recipients.map((s, i) => [i ? ', ' : '', this.ctx.seatTag(s)]))
      : null;
    return h('li', {class: `talk-message${mine ? ' mine' : ''}${message.recipients ? ' is-private' : ''}`},
      h('span', {class: 'sender'}, this.ctx.seatTag(message.sender)), to, ': ',
      h('span', {class: 'text'}, message.text));
  }
}
