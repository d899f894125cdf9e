// Damocles (docs/rules/damocles.md, "Web board"): the circle of seven god tokens as a ring of
// buttons, the bank, the seat's hand of codices drawn on seven slots, every seat's tableau and
// score. What can be clicked comes from the legal action texts only: a token is a button when a
// legal swap or placement names its slot, a codex when a legal action names its id. Two-part
// actions (a swap, a placement, a pair) and picks (setup discard, Oracle keep) are built by
// clicking their parts; the text being built is shown with a Cancel. Every god is drawn with its
// initial and name beside its colour; a matching codex says so in words and with a mark.
import {fill, h} from '../dom.js';

/** This board has its own stylesheet, static/boards/damocles.css (boards/README.md). */
export const stylesheet = true;
/** What the result table calls the score (the game's `score_name`). */
export const scoreName = 'points';

const GODS = ['HADES', 'POSEIDON', 'ARTEMIS', 'DEMETER', 'NYX'];
const SLOTS = 7;

// The selection being built: reset whenever the legal actions change.
let sel = {key: '', slot: null, god: null, codex: null, picks: new Set()};
// After an action is sent from the board, focus goes to the turn panel's prompt on the next
// drawing (the control that had it is gone), so Tab goes on from the top of the board.
let refocus = false;

const title = (word) => word.charAt(0) + word.slice(1).toLowerCase();
const strip = (id) => id.replace(/\*$/, '');

function resetSelection(key) {
  sel = {key, slot: null, god: null, codex: null, picks: new Set()};
}

// ---------------------------------------------------------------- the legal actions, by kind
function parseLegal(legal) {
  const m = {
    all: new Set(legal), discard: [], place: [], haste: new Map(), swaps: new Set(), stop: null,
    play: new Map(), pair: [], keep: [], destroy: new Map(), end: null, other: [],
  };
  for (const text of legal) {
    const w = text.split(' ');
    switch (w[0]) {
      case 'discard': m.discard.push(text); break;
      case 'keep': m.keep.push(text); break;
      case 'place': m.place.push({god: w[1], slot: Number(w[2]), text}); break;
      case 'haste': m.haste.set(w[1], text); break;
      case 'swap': m.swaps.add(text); break;
      case 'stop': m.stop = text; break;
      case 'play': m.play.set(strip(w[1]), text); break;
      case 'pair': m.pair.push({p: strip(w[1]), n: strip(w[2]), text}); break;
      case 'destroy': m.destroy.set(w[1], text); break;
      case 'end': m.end = text; break;
      default: m.other.push(text);
    }
  }
  return m;
}

// Every id a pick action (discard, keep) can name.
const pickIds = (texts) => new Set(texts.flatMap((t) => t.split(' ').slice(1)));
const pickText = (word, picks) => [word, ...[...picks].sort()].join(' ');

// ------------------------------------------------------------------------ pattern matching
// The rules' matcher (matching.py) again: a pattern [[position, GOD], ...] matches the circle at
// rotation r when slot (r + position - 1) mod 7 holds its god, for every pip.
function rotationsMatch(circle, offsets, rotational) {
  for (let r = 0; r < (rotational ? SLOTS : 1); r += 1) {
    if (offsets.every(([o, g]) => circle[(r + o) % SLOTS] === g)) return true;
  }
  return false;
}

function relaxedVariants(offsets) {
  let out = [[offsets[0]]];
  for (let i = 1; i < offsets.length; i += 1) {
    const gap = offsets[i][0] - offsets[i - 1][0] - 1;
    const next = [];
    for (const variant of out) {
      const last = variant[variant.length - 1][0];
      for (let g = 0; g <= gap; g += 1) next.push([...variant, [last + g + 1, offsets[i][1]]]);
    }
    out = next;
  }
  return out;
}

/** 'now', 'reflex' (matches only with a Reflex token spent on it) or '' for a codex id. */
function matchState(id, view, ctx) {
  const codex = ctx.content.codices && ctx.content.codices[id];
  if (!codex || !view.circle || view.circle.some((g) => g === null)) return '';
  const offsets = codex.pattern.map(([p, g]) => [p - 1, g]);
  const rotational = (ctx.params.match || 'rotational') !== 'absolute';
  const mirror = ctx.params.mirror === true || ctx.params.mirror === 'true';
  const test = (pattern) => rotationsMatch(view.circle, pattern, rotational) ||
    (mirror && rotationsMatch(view.circle, pattern.map(([o, g]) => [(SLOTS - o) % SLOTS, g]), rotational));
  if (test(offsets)) return 'now';
  if (view.turn && view.turn.relax_tokens > 0 && relaxedVariants(offsets).some(test)) return 'reflex';
  return '';
}

// ------------------------------------------------------------------------------ the pieces
function tokenFace(god, big = true) {
  if (!god) return h('span', {class: 'dmc-token dmc-empty', 'aria-hidden': 'true'}, '·');
  return h('span', {class: `dmc-token dmc-god-${god.toLowerCase()}${big ? '' : ' small'}`, 'aria-hidden': 'true'},
    h('span', {class: 'dmc-letter'}, god.charAt(0)));
}

function godName(god) {
  return h('span', {class: `dmc-godname dmc-text-${god.toLowerCase()}`}, title(god));
}

/** The codex's pattern on seven slots from its first pip (blank slots as dots). */
function patternStrip(codex) {
  const slots = new Array(SLOTS).fill(null);
  for (const [p, g] of codex.pattern) slots[p - 1] = g;
  return h('span', {class: 'dmc-strip', role: 'img', 'aria-label': `pattern ${codex.text}`},
    slots.map((g, i) => h('span', {class: `dmc-pip${g ? ` dmc-god-${g.toLowerCase()}` : ' dmc-blank'}`,
      title: g ? `position ${i + 1}: ${title(g)}` : `position ${i + 1}: blank`}, g ? g.charAt(0) : '·')));
}

/**
 * A codex card; a `button` when `onclick` is given. opts: {onclick, verb, selected, match,
 * small, tag, fkey}.
 */
function codexCard(id, ctx, opts = {}) {
  const codex = (ctx.content.codices || {})[id];
  const types = ctx.content.types || {};
  const info = codex ? types[codex.type] || {} : {};
  const name = info.name || (codex ? title(codex.type) : 'codex');
  const match = opts.match || '';
  const cls = ['dmc-card', `dmc-class-${(info.class || '').toLowerCase()}`, opts.small ? 'small' : '',
    match ? `dmc-match-${match}` : '', opts.selected ? 'selected' : '', opts.onclick ? 'dmc-live' : ''];
  const matchText = match === 'now' ? '✓ matches now' : match === 'reflex' ? '≈ matches with Reflex' : '';
  const parts = [
    h('span', {class: 'dmc-card-head'},
      h('span', {class: 'dmc-type-letter', 'aria-hidden': 'true'}, info.letter || '?'),
      h('span', {class: 'dmc-type'}, name),
      opts.small ? h('span', {class: 'dmc-id'}, id) : null),
    codex ? patternStrip(codex) : null,
    opts.small ? null : h('span', {class: 'dmc-card-foot'}, h('span', {class: 'dmc-id'}, id),
      ` · ${info.points ?? '?'} ${info.points === 1 ? 'pt' : 'pts'} · ${info.class || ''}${info.permanent === false ? ', consumed' : ''}`),
    matchText ? h('span', {class: 'dmc-match-badge'}, matchText) : null,
    opts.selected ? h('span', {class: 'dmc-selected-badge'}, 'selected') : null,
    opts.tag ? h('span', {class: 'dmc-tag'}, opts.tag) : null,
    opts.onclick && opts.verb ? h('span', {class: 'dmc-verb', 'aria-hidden': 'true'}, `▸ ${opts.verb.replace(/:$/, '')}`) : null,
  ];
  const label = `${opts.verb ? `${opts.verb} ` : ''}${id} ${name}${codex ? ` (${codex.text})` : ''}` +
    `${matchText ? `, ${matchText.slice(2)}` : ''}${opts.selected ? ', selected' : ''}`;
  if (!opts.onclick) {
    return h('div', {class: cls.join(' '), role: 'group', 'aria-label': label, dataset: {codex: id}}, parts);
  }
  return h('button', {class: `${cls.join(' ')} action`, 'aria-label': label, title: label,
    'aria-pressed': opts.pressable ? String(Boolean(opts.selected)) : null,
    dataset: {codex: id, fkey: opts.fkey || `codex-${id}`}, onclick: opts.onclick}, parts);
}

// ------------------------------------------------------------------------------ the render
/** Draw the Damocles board (the board interface: boards/README.md). */
export function render(board, actions, view, legal, ctx, act) {
  const focused = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.fkey : null;
  const me = ctx.mySeat;
  const playing = me !== null && ctx.status === 'running' && legal.length > 0;
  const key = `${view.turns_taken}|${view.phase}|${legal.join(',')}`;
  if (sel.key !== key) resetSelection(key);
  const m = parseLegal(playing ? legal : []);
  const reached = new Set();  // legal texts some board control sends

  const send = (text) => (event) => {
    refocus = board.contains(document.activeElement) || actions.contains(document.activeElement);
    for (const b of document.querySelectorAll('.dmc button, #actions button')) b.disabled = true;
    if (event && event.currentTarget) event.currentTarget.classList.add('sent');
    act(text);
  };
  const redraw = () => ctx.redraw();

  // ---- the circle: slots 1..7 clockwise from the top
  const swapText = (a, b) => `swap ${Math.min(a, b)} ${Math.max(a, b)}`;
  const slotControl = (slot) => {  // {text to send | select, label}
    const s = slot + 1;
    const god = view.circle[slot];
    if (view.phase === 'place') {
      if (god) return null;
      if (sel.god) {
        const text = `place ${sel.god} ${s}`;
        return m.all.has(text) ? {send: text, verb: `Place ${title(sel.god)} on`} : null;
      }
      if (!m.place.some((p) => p.slot === s)) return null;
      return {select: () => { sel.slot = sel.slot === s ? null : s; redraw(); },
        verb: sel.slot === s ? 'Unselect' : 'Choose'};
    }
    if (!m.swaps.size || !god) return null;
    if (sel.slot === s) return {select: () => { sel.slot = null; redraw(); }, verb: 'Unselect'};
    if (sel.slot !== null) {
      const text = swapText(sel.slot, s);
      return m.swaps.has(text) ? {send: text, verb: `Swap slot ${sel.slot} with`} : null;
    }
    if (sel.god) {
      const text = `swap ${s} ${sel.god}`;
      return m.swaps.has(text) ? {send: text, verb: `Swap ${title(sel.god)} from the bank into`} : null;
    }
    const named = [...m.swaps].some((t) => {
      const w = t.split(' ');
      return Number(w[1]) === s || w[2] === String(s);
    });
    return named ? {select: () => { sel.slot = s; redraw(); }, verb: 'Select for a swap:'} : null;
  };
  for (const p of m.place) reached.add(p.text);
  for (const t of m.swaps) reached.add(t);
  const placing = view.phase === 'place';

  const ring = h('div', {class: 'dmc-ring', role: 'group', 'aria-label': 'The circle of seven god tokens, slots 1 to 7 clockwise'},
    h('div', {class: 'dmc-ring-line', 'aria-hidden': 'true'}),
    h('div', {class: 'dmc-ring-centre'},
      view.phase === 'over' ? 'Game over' : view.phase === 'turn'
        ? [h('b', {}, `Cycle ${view.cycle}`), h('br'), `of ${ctx.params.cycles ?? 10}`]
        : view.phase === 'place' ? 'Placing tokens' : 'Setup'),
    view.circle.map((god, slot) => {
      const s = slot + 1;
      const angle = (-90 + (360 / SLOTS) * slot) * (Math.PI / 180);
      const style = `left: ${(50 + 39 * Math.cos(angle)).toFixed(2)}%; top: ${(50 + 39 * Math.sin(angle)).toFixed(2)}%`;
      const control = playing ? slotControl(slot) : null;
      // during placement the empty slots a god may go on say so in words (under rotational
      // matching only slot 1 takes the first god, DAM-10, though all seven are empty)
      const target = !god && control !== null && placing;
      const what = god ? title(god) : target ? 'empty, place here' : 'empty';
      const inner = [tokenFace(god), h('span', {class: 'dmc-slot-label'}, h('span', {class: 'dmc-slot-no'}, `${s}`), ' ',
        god ? godName(god) : h('span', {class: 'dmc-godname'}, target ? '▸ here' : 'empty'))];
      const cls = `dmc-slot${sel.slot === s ? ' selected' : ''}${control ? ' dmc-live' : ''}${target ? ' dmc-target' : ''}`;
      if (!control) {
        return h('div', {class: cls, style, role: 'img', 'aria-label': `Slot ${s}: ${what}`, dataset: {slot: String(s), god: god || ''}}, inner);
      }
      const label = `${control.verb} slot ${s}: ${what}`;
      return h('button', {class: `${cls} action`, style, 'aria-label': label, title: label,
        'aria-pressed': control.select ? String(sel.slot === s) : null,
        dataset: {slot: String(s), god: god || '', fkey: `slot-${s}`},
        onclick: control.send ? send(control.send) : control.select}, inner);
    }));

  // ---- the bank (and during placement, the supply of gods to place)
  const bankControl = (god) => {
    if (view.phase === 'place') {
      if (sel.slot !== null) {
        const text = `place ${god} ${sel.slot}`;
        return m.all.has(text) ? {send: text, verb: `Place ${title(god)} on slot ${sel.slot}`} : null;
      }
      if (!m.place.some((p) => p.god === god)) return null;
      return {select: () => { sel.god = sel.god === god ? null : god; redraw(); },
        verb: sel.god === god ? `Unselect ${title(god)}` : `Place ${title(god)}`};
    }
    if (!m.swaps.size) return null;
    if (sel.god === god) return {select: () => { sel.god = null; redraw(); }, verb: `Unselect bank ${title(god)}`};
    if (sel.slot !== null) {
      const text = `swap ${sel.slot} ${god}`;
      return m.swaps.has(text) ? {send: text, verb: `Swap slot ${sel.slot} for bank ${title(god)}`} : null;
    }
    if (sel.god) return null;
    return [...m.swaps].some((t) => t.endsWith(` ${god}`))
      ? {select: () => { sel.god = god; redraw(); }, verb: `Select bank ${title(god)} for a swap`} : null;
  };
  const bank = h('div', {class: 'dmc-bank', role: 'group', 'aria-label': placing ? 'Gods to place' : 'The bank'},
    h('h3', {}, placing ? 'Gods to place' : 'Bank'),
    h('div', {class: 'dmc-bank-row'}, GODS.map((god) => {
      const count = view.bank ? view.bank[god] : null;
      const control = playing ? bankControl(god) : null;
      const countText = placing ? '' : count === null ? '∞' : `× ${count}`;
      const inner = [tokenFace(god, false), godName(god), countText ? h('span', {class: 'dmc-count'}, countText) : null];
      const cls = `dmc-bank-god${sel.god === god ? ' selected' : ''}${control ? ' dmc-live' : ''}`;
      if (!control) {
        return h('div', {class: cls, role: 'img', 'aria-label': `${title(god)}${countText ? ` ${countText.replace('×', '')} in the bank` : ''}`, dataset: {god}}, inner);
      }
      return h('button', {class: `${cls} action`, 'aria-label': `${control.verb}${countText ? ` (${count ?? 'unlimited'} in the bank)` : ''}`,
        'aria-pressed': control.select ? String(sel.god === god) : null,
        dataset: {god, fkey: `bank-${god}`}, onclick: control.send ? send(control.send) : control.select}, inner);
    })));

  // ---- codices: what a click on one does
  const pairPartners = (id) => m.pair.filter((p) => p.p === id || p.n === id);
  const codexControl = (id, where) => {
    if (!playing) return null;
    if (view.phase === 'discard' && where === 'hand' && m.discard.length) {
      if (!pickIds(m.discard).has(id)) return null;
      return {pressable: true, verb: sel.picks.has(id) ? 'Undo discard' : 'Discard',
        onclick: () => { if (sel.picks.has(id)) sel.picks.delete(id); else sel.picks.add(id); redraw(); }};
    }
    if (where === 'pool') {
      if (!pickIds(m.keep).has(id)) return null;
      return {pressable: true, verb: sel.picks.has(id) ? 'Do not keep' : 'Keep',
        onclick: () => { if (sel.picks.has(id)) sel.picks.delete(id); else sel.picks.add(id); redraw(); }};
    }
    if (where === 'hand' && m.haste.has(id)) {
      reached.add(m.haste.get(id));
      return {verb: 'Play Haste', onclick: send(m.haste.get(id))};
    }
    if (where === 'hand' && m.play.has(id)) {
      const text = m.play.get(id);
      reached.add(text);
      return {verb: text.endsWith('*') ? 'Play, spending a Reflex token:' : 'Play', onclick: send(text)};
    }
    if (where.startsWith('tableau') && m.destroy.has(id)) {
      reached.add(m.destroy.get(id));
      return {verb: 'Destroy', onclick: send(m.destroy.get(id))};
    }
    const partners = pairPartners(id);
    if (!partners.length) return null;
    for (const p of partners) reached.add(p.text);
    if (sel.codex === id) return {verb: 'Unselect', pressable: true, onclick: () => { sel.codex = null; redraw(); }};
    if (sel.codex) {
      const pair = partners.find((p) => p.p === sel.codex || p.n === sel.codex);
      return pair ? {verb: `Pair with ${sel.codex}${pair.text.includes('*') ? ' (spends a Reflex token)' : ''}:`,
        onclick: send(pair.text)} : null;
    }
    const role = partners.some((p) => p.p === id) ? 'Production' : 'Number';
    return {verb: `Select ${role} for a pair:`, pressable: true,
      onclick: () => { sel.codex = id; redraw(); }};
  };
  const card = (id, where, extra = {}) => {
    const control = codexControl(id, where);
    const selected = sel.picks.has(id) || sel.codex === id;
    return codexCard(id, ctx, {...extra, match: extra.match ?? (view.phase === 'turn' ? matchState(id, view, ctx) : ''),
      selected, onclick: control && control.onclick, verb: control && control.verb,
      pressable: control && control.pressable, fkey: `${where}-${id}`});
  };

  // ---- the seat's hand (and an Oracle's pool)
  const granted = new Set(view.granted || []);
  const hand = view.hand
    ? h('section', {class: 'dmc-hand', 'aria-label': 'Your hand'},
      h('h3', {}, `Your hand (${view.hand.length})`,
        h('span', {class: 'dmc-legend'}, ' ✓ = matches the circle now')),
      view.hand.length ? h('div', {class: 'dmc-cards'}, (view.hand_order || view.hand).map((id) =>
        card(id, 'hand', {tag: granted.has(id) ? 'new this turn' : ''})))
        : h('p', {class: 'hint'}, 'No codices in hand.'))
    : null;
  for (const t of m.discard) reached.add(t);
  for (const t of m.keep) reached.add(t);
  const pool = view.keep_pool
    ? h('section', {class: 'dmc-pool', 'aria-label': 'Oracle: codices drawn'},
      h('h3', {}, `Oracle: keep ${view.keep_count} of these ${view.keep_pool.length}`),
      h('div', {class: 'dmc-cards'}, view.keep_pool.map((id) => card(id, 'pool', {match: ''}))))
    : null;

  // ---- every seat: score, hand size, tableau
  const turn = view.turn || {};
  const target = turn.destroy_queue && turn.destroy_queue.length ? turn.destroy_queue[0][0] : null;
  const seats = h('section', {class: 'dmc-seats', 'aria-label': 'Scores and tableaus'},
    h('h3', {}, 'Scores and tableaus'),
    h('div', {class: 'dmc-seat-grid'}, view.scores.map((score, seat) => {
      const active = view.active === seat && view.phase !== 'over';
      const winner = view.winners && view.winners.includes(seat);
      const tableau = (view.tableau_order && view.tableau_order[seat]) || view.tableaus[seat] || [];
      return h('div', {class: `dmc-seat${seat === me ? ' mine' : ''}${active ? ' active' : ''}${seat === target ? ' target' : ''}`,
        dataset: {seat: String(seat)}},
      h('div', {class: 'dmc-seat-head'},
        ctx.seatChip ? ctx.seatChip(seat) : null,
        h('span', {class: 'dmc-seat-name'}, ctx.playerName(seat), seat === me ? ' (you)' : ''),
        h('span', {class: 'dmc-seat-player'}, ctx.seatName(seat)),
        active ? h('span', {class: 'dmc-flag'}, '▶ to play') : null,
        winner ? h('span', {class: 'dmc-flag win'}, '★ winner') : null,
        seat === target ? h('span', {class: 'dmc-flag danger'}, '✕ destroy target') : null),
      h('div', {class: 'dmc-seat-facts'},
        h('span', {class: 'dmc-score'}, h('b', {}, String(score)), ' points'),
        h('span', {}, `${view.hand_sizes[seat]} in hand`)),
      tableau.length ? h('div', {class: 'dmc-cards small'}, tableau.map((id) =>
        card(id, seat === me ? 'tableau-mine' : `tableau-${seat}`, {small: true})))
        : h('p', {class: 'hint'}, 'Tableau: none yet'));
    })));

  // ---- the turn panel: whose turn, the step, the action being built, the turn's buttons
  const name = (s) => `${(ctx.seatLabel || ctx.seatName)(s)}${s === me ? ' (you)' : ''}`;
  const facts = [];
  if (view.phase === 'turn') {
    facts.push(`Turn ${view.turns_taken + 1} of ${view.turns_total}`);
    facts.push(`swaps ${turn.swaps_done}/${turn.swaps_allowed}`);
    if (turn.relax_tokens) facts.push(`Reflex tokens: ${turn.relax_tokens}`);
    if (turn.annex_available) facts.push('Annex ready');
    if (turn.pairs_used && turn.pairs_used.length) facts.push(`pairs played: ${turn.pairs_used.map((p) => p.join('+')).join(', ')}`);
    if (turn.consumed && turn.consumed.length) facts.push(`consumed this turn: ${turn.consumed.join(', ')}`);
  }
  let prompt;
  let building = null;
  const buttons = [];
  const cancel = () => h('button', {class: 'dmc-cancel', dataset: {fkey: 'cancel'},
    onclick: () => { resetSelection(sel.key); redraw(); }}, 'Cancel');
  if (view.phase === 'over') {
    prompt = 'Game over.';
  } else if (!playing) {
    const who = view.active !== null && view.active !== undefined
      ? `${name(view.active)} is playing (${stepName(view)}).` : 'Every seat discards at once.';
    if (me === null) prompt = `You are watching. ${who}`;
    else if (view.phase === 'discard') {
      prompt = view.my_submission ? `You discard ${view.my_submission.replace(/^discard /, '')}. Waiting for the others.`
        : 'Waiting for the others to discard.';
    } else prompt = who;
  } else if (m.discard.length) {
    const need = m.discard[0].split(' ').length - 1;
    prompt = `Setup: choose ${codices(need)} of your hand to discard (click them), then confirm.`;
    const text = pickText('discard', sel.picks);
    building = `${text}${sel.picks.size < need ? ' …' : ''}`;
    buttons.push(h('button', {class: 'primary action dmc-confirm', disabled: !m.all.has(text),
      dataset: {fkey: 'confirm'}, onclick: send(text)}, `Confirm: ${text}`));
  } else if (m.keep.length) {
    prompt = `Oracle: choose ${codices(view.keep_count ?? 0)} to keep (click them); the others go to the discard pile.`;
    const text = pickText('keep', sel.picks);
    building = text;
    buttons.push(h('button', {class: 'primary action dmc-confirm', disabled: !m.all.has(text),
      dataset: {fkey: 'confirm'}, onclick: send(text)}, text === 'keep' ? 'Keep nothing' : `Confirm: ${text}`));
  } else if (m.place.length) {
    // the first token's slot is fixed (DAM-10): say so, rather than "click an empty slot"
    // with seven empty slots of which one can be clicked
    const slots = [...new Set(m.place.map((p) => p.slot))];
    prompt = slots.length === 1 && view.circle.every((g) => !g)
      ? `Placement: the first god goes to slot ${slots[0]}: under rotational matching its slot does not matter. Click slot ${slots[0]} (marked “▸ here”), then a god to place there (or the god first).`
      : 'Placement: click an empty slot marked “▸ here”, then a god to place there (or the god first).';
    if (sel.slot !== null) building = `place … ${sel.slot}`;
    if (sel.god) building = `place ${sel.god} …`;
  } else if (m.destroy.size) {
    const left = turn.destroy_queue[0][1];
    prompt = `Destroy: click a codex in ${name(target)}'s tableau (marked ✕); ${codices(left)} to destroy there.`;
  } else if (m.swaps.size || m.haste.size) {
    const second = turn.step === 'swap2';
    prompt = second ? 'Second swap (Haste): click two tokens, or a token and a bank god; or stop.'
      : `Swap: click two tokens (internal swap), or a token and a bank god (external swap).${m.haste.size ? ' A matching Haste in your hand can be played first for two swaps.' : ''}`;
    if (sel.slot !== null) building = `swap ${sel.slot} …`;
    if (sel.god) building = `swap … ${sel.god}`;
  } else if (m.pair.length || m.play.size || m.end) {
    prompt = 'Play: click a Production then a Number to play a pair, or a Manipulation codex to play it; end the turn when done.';
    if (sel.codex) building = `pair ${sel.codex} …`;
  } else {
    prompt = 'Your move.';
  }
  if (m.stop) {
    reached.add(m.stop);
    buttons.push(h('button', {class: 'action dmc-stop', dataset: {fkey: 'stop'}, onclick: send(m.stop)},
      turn.swaps_done ? 'Stop: no second swap' : 'Stop: no swap this turn'));
  }
  if (m.end) {
    reached.add(m.end);
    buttons.push(h('button', {class: 'primary action dmc-end', dataset: {fkey: 'end'}, onclick: send(m.end)}, 'End turn'));
  }
  const panel = h('section', {class: `dmc-panel${playing ? ' mine' : ''}`, 'aria-live': 'polite'},
    h('p', {class: 'dmc-prompt', tabindex: '-1', dataset: {fkey: 'prompt'}}, playing ? h('b', {}, 'Your move. ') : null, prompt),
    facts.length ? h('p', {class: 'dmc-facts'}, facts.join(' · ')) : null,
    building ? h('p', {class: 'dmc-building'}, 'Building: ', h('code', {}, building), ' ',
      sel.slot !== null || sel.god || sel.codex || sel.picks.size ? cancel() : null) : null,
    buttons.length ? h('div', {class: 'dmc-buttons'}, buttons) : null);

  const extras = h('p', {class: 'dmc-piles'},
    `Deck: ${view.deck_size} · discard pile: ${view.discard_size}`,
    view.removed && view.removed.length ? ` · out of the game: ${view.removed.join(', ')}` : '');

  fill(board, h('div', {class: 'dmc'},
    panel,
    h('div', {class: 'dmc-top'}, ring, h('div', {class: 'dmc-side'}, bank, extras, pool, hand)),
    seats));

  // ---- other moves: legal actions no board control sends (should be none)
  const rest = playing ? legal.filter((t) => !reached.has(t)) : [];
  if (rest.length) {
    fill(actions, h('div', {class: 'dmc-other'}, h('h2', {}, 'Other moves'),
      h('p', {class: 'hint'}, 'Legal moves the board does not draw:'),
      h('ul', {class: 'action-list'}, rest.map((t) => h('li', {}, h('button', {class: 'action',
        dataset: {action: t, fkey: `other-${t}`}, onclick: send(t)}, t))))));
  } else {
    fill(actions);
  }
  const again = focused ? document.querySelector(`[data-fkey="${CSS.escape(focused)}"]`) : null;
  if (again && !again.disabled) again.focus();
  else if (refocus || focused) board.querySelector('.dmc-prompt').focus();
  refocus = false;
}

const codices = (n) => `${n} ${n === 1 ? 'codex' : 'codices'}`;

function stepName(view) {
  if (view.phase === 'place') return 'placing a token';
  const step = view.turn && view.turn.step;
  return {pre: 'swapping', swap2: 'second swap', play: 'playing codices', keep: 'Oracle keep',
    destroy: 'destroying'}[step] || step || '';
}
