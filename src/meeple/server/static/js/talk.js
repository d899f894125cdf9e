// Table talk: public and private messages. A message's text is always inserted as text (a
// `<script>` shows as typed). Private: tick recipients, or start with a dash and their initials
// (`-rg hello` goes to RED and GREEN), as in the designer's online version and `meeple play`.
import {fill, h} from './dom.js';

export class TalkPanel {
  /**
   * @param {HTMLElement} root
   * @param {{send: Function, seatName: Function, playerName: Function}} ctx
   */
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.messages = [];
    this.table = null;
    this.seat = null;
    this.list = h('ol', {class: 'talk-list', 'aria-live': 'polite', 'aria-label': 'Talk history'});
    this.form = null;
    this.pending = null;
  }

  /** The table (its talk modes and seats) and this connection's seat changed. */
  setTable(table, seat) {
    const key = JSON.stringify([table.talk_modes, table.seat_names, seat]);
    this.table = table;
    this.seat = seat;
    if (key === this.key) return;
    this.key = key;
    const title = h('h2', {id: 'talk-title'}, 'Talk');
    if (!table.talk_modes.length) {
      fill(this.root, title, h('p', {class: 'hint'}, 'Table talk is off in this game.'));
      return;
    }
    this.form = seat === null ? null : this.composer(table, seat);
    fill(this.root, title, this.list,
      this.form || h('p', {class: 'hint'}, 'Spectators read the public talk.'));
  }

  composer(table, seat) {
    const privateTalk = table.talk_modes.includes('private');
    const boxes = privateTalk ? table.seat_names.map((name, s) => (s === seat ? null
      : h('label', {class: `check recipient god-text-${name.toLowerCase()}`},
        h('input', {type: 'checkbox', value: String(s), 'aria-label': `To ${name}`}), ` ${name}`)))
      : [];
    const input = h('input', {type: 'text', maxlength: 500, 'aria-label': 'Message',
      placeholder: 'Message'});
    const form = h('form', {class: 'talk-form', onsubmit: (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      const to = [...form.querySelectorAll('input[type=checkbox]:checked')].map((b) => Number(b.value));
      const frame = {type: 'say', text};
      if (to.length) frame.to = to;
      this.pending = this.ctx.send(frame);
    }},
    privateTalk ? h('fieldset', {class: 'recipients'},
      h('legend', {}, 'Private to (none ticked: everyone)'), boxes) : null,
    h('div', {class: 'talk-line'}, input, h('button', {type: 'submit'}, 'Send')),
    privateTalk ? h('p', {class: 'hint'}, 'Or start with a dash and initials: ',
      h('code', {}, '-rg hi'), ' goes to RED and GREEN only.') : null);
    this.input = input;
    return form;
  }

  /** The server stored our message: clear the box. */
  said(id) {
    if (id === this.pending && this.input) {
      this.input.value = '';
      for (const box of this.form.querySelectorAll('input[type=checkbox]')) box.checked = false;
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
    const names = this.table ? this.table.seat_names : [];
    const sender = names[message.sender] || `Seat ${message.sender}`;
    const mine = message.sender === this.seat;
    const to = message.recipients
      ? h('span', {class: 'private'}, ` to ${message.recipients.map((s) => names[s] || `Seat ${s}`).join(', ')} (private)`)
      : null;
    return h('li', {class: `talk-message${mine ? ' mine' : ''}${message.recipients ? ' is-private' : ''}`},
      h('span', {class: `sender god-text-${sender.toLowerCase().replace(/\s+/g, '-')}`},
        sender, h('span', {class: 'who'}, ` ${this.ctx.playerName(message.sender)}`)),
      to, ': ', h('span', {class: 'text'}, message.text));
  }
}
