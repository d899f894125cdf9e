// Ozymandias (market edition): the hex map of sectors with their disk stacks, the four empires
// (faction value, supply, market count), the seats (VP, hand size, secret plan face down, then
// the revealed card), the market, and the seat's hand. Played by clicking: a hand card to plan,
// a sector to expand or place an event, a hand card then a market card (or the deck) to trade.
// Every control is a real <button> whose click sends an exact legal action text (data-act) or
// selects a part of one (data-pick); colours always come with their initial and name.
import {fill, h} from '../dom.js';

/** This board has its own stylesheet, static/boards/ozymandias-market.css (boards/README.md). */
export const stylesheet = true;
/** What the result table calls the score (the game's `score_name`). */
export const scoreName = 'VP';

const COLOURS = ['RED', 'WHITE', 'BLUE', 'BLACK'];
const INITIALS = {RED: 'R', WHITE: 'W', BLUE: 'B', BLACK: 'K'};
const HEX_KINDS = ['expand', 'explore', 'raze', 'coup', 'surge', 'diaspora'];
const SIMPLE_EVENTS = ['tribute', 'augury'];
const VERB = {
  expand: 'Expand', explore: 'Explore', raze: 'Raze', coup: 'Coup', surge: 'Surge',
  diaspora: 'Diaspora', march: 'March', bazaar: 'Bazaar', embargo: 'Embargo',
};
const S = 48;                      // hex circumradius in px (pointy top)
const HW = Math.sqrt(3) * S;       // hex width
const HH = 2 * S;                  // hex height
const SVGNS = 'http://www.w3.org/2000/svg';

// the selection being built (reset when the decision changes)
let sel = {key: null, mode: null, given: null, taken: null, first: null, order: [], sentAt: 0};

const title = (c) => c.charAt(0).toUpperCase() + c.slice(1).toLowerCase();
const cls = (c) => `c-${c.toLowerCase()}`;

function cardInfo(id, ctx) {
  const info = (ctx.content && ctx.content.cards && ctx.content.cards[id]) || {};
  const colour = info.colour || COLOURS['RWBK'.indexOf(id.charAt(0))] || 'RED';
  return {id, colour, rank: info.rank ?? Number(id.slice(1)), event: info.event || '', text: info.text || ''};
}

function svg(tag, attrs, ...kids) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const kid of kids) node.appendChild(kid);
  return node;
}

function hexShape(kind) {
  return svg('svg', {class: `ozm-hex-shape ${kind}`, viewBox: '0 0 100 100', preserveAspectRatio: 'none',
    'aria-hidden': 'true', focusable: 'false'},
  svg('polygon', {points: '50,1 99,25.5 99,74.5 50,99 1,74.5 1,25.5', 'vector-effect': 'non-scaling-stroke'}));
}

/** A colour chip: its initial in a disk and its name. */
function chip(colour, withName = true) {
  return h('span', {class: `ozm-chip ${cls(colour)}`},
    h('span', {class: 'ozm-dot', 'aria-hidden': 'true'}, INITIALS[colour]), withName ? ` ${title(colour)}` : null);
}

// ------------------------------------------------------------------ the legal actions, parsed
function parseLegal(legal) {
  const p = {plan: new Map(), hex: {}, pairs: {}, trade: [], bazaar: [], embargo: new Map(),
    orders: new Set(), simple: [], modes: []};
  for (const text of legal) {
    const w = text.split(' ');
    const kind = w[0];
    if (kind === 'plan' && w.length === 2) p.plan.set(w[1], text);
    else if (kind === 'expand' && w.length === 4 && w[2] === 'from') (p.pairs.expand ||= []).push([w[1], w[3], text]);
    else if (HEX_KINDS.includes(kind) && w.length === 2) (p.hex[kind] ||= new Map()).set(w[1], text);
    else if (kind === 'march' && w.length === 3) (p.pairs.march ||= []).push([w[1], w[2], text]);
    else if (kind === 'trade' && w.length === 3) p.trade.push([w[1], w[2], text]);
    else if (kind === 'bazaar' && w.length === 3) p.bazaar.push([w[1], w[2], text]);
    else if (kind === 'embargo' && w.length === 2) p.embargo.set(w[1], text);
    else if (kind === 'order') p.orders.add(text);
    else p.simple.push(text);
  }
  const add = (m) => { if (!p.modes.includes(m)) p.modes.push(m); };
  for (const k of HEX_KINDS) if (p.hex[k] || (k === 'expand' && p.pairs.expand)) add(k);
  if (p.pairs.march) add('march');
  if (p.bazaar.length) add('bazaar');
  if (p.embargo.size) add('embargo');
  return p;
}

// ------------------------------------------------------------------ what each click does
/** Sector targets in the current mode: Map(hex text -> {act} | {pick}). */
function hexTargets(p) {
  const out = new Map();
  const mode = sel.mode;
  if (!mode) return out;
  const single = p.hex[mode];
  const pairs = p.pairs[mode];
  if (sel.first) {  // the second sector of a two-sector move
    for (const [a, b, text] of pairs || []) if (a === sel.first) out.set(b, {act: text});
    return out;
  }
  if (single) for (const [hx, text] of single) out.set(hx, {act: text});
  for (const [a] of pairs || []) if (!out.has(a)) out.set(a, {pick: a});
  return out;
}

/** The trade or Bazaar list in play now (the trade phase, or the Bazaar mode). */
function swapList(view, p) {
  if (view.phase === 'trade') return {kind: 'trade', list: p.trade};
  if (sel.mode === 'bazaar') return {kind: 'bazaar', list: p.bazaar};
  return null;
}

function givenChoices(swap) {
  return [...new Set(swap.list.filter(([, t]) => !sel.taken || t === sel.taken).map(([g]) => g))];
}

function takenTarget(swap, id) {
  const row = swap.list.find(([g, t]) => g === sel.given && t === id);
  if (row) return {act: row[2]};
  if (!sel.given && swap.list.some(([, t]) => t === id)) return {pick: id};
  return null;
}

function givenTarget(swap, id) {
  if (sel.taken) {
    const row = swap.list.find(([g, t]) => g === id && t === sel.taken);
    return row ? {act: row[2]} : null;
  }
  return swap.list.some(([g]) => g === id) ? {pick: id} : null;
}

// ------------------------------------------------------------------ controls
function control(target, attrs, ...children) {
  // a button sending `target.act`, or selecting `target.pick` (via attrs.onpick)
  const {onpick, label, className, disabled} = attrs;
  if (!target) return h('div', {class: className, role: 'group', 'aria-label': label}, ...children);
  const base = {class: `${className} ozm-live${target.act ? ' ozm-act' : ' ozm-pick'}`,
    'aria-label': label, title: label, disabled: disabled || false};
  if (target.act) {
    return h('button', {...base, dataset: {act: target.act}, onclick: () => send(target.act)}, ...children);
  }
  return h('button', {...base, dataset: {pick: String(target.pick)}, 'aria-pressed': 'false', onclick: onpick}, ...children);
}

let redraw = () => {};
let play = () => {};
/** Send a legal action text; the board's controls stay disabled until the next state. */
function send(text) {
  sel.sentAt = Date.now();
  redraw();
  setTimeout(() => redraw(), 3100);  // an error frame leaves the decision open: enable again
  play(text);
}
const sending = () => Date.now() - sel.sentAt < 3000;

// ------------------------------------------------------------------ the map
function mapPanel(view, p, ctx, mine) {
  const sectors = new Map(view.map.map(([q, r, stack]) => [`${q},${r}`, {q, r, stack}]));
  const targets = mine ? hexTargets(p) : new Map();
  const cells = [...sectors.values()];
  for (const hx of targets.keys()) {
    if (!sectors.has(hx)) {
      const [q, r] = hx.split(',').map(Number);
      cells.push({q, r, stack: null});
    }
  }
  const pos = (c) => [S * Math.sqrt(3) * (c.q + c.r / 2), S * 1.5 * c.r];
  const xs = cells.map((c) => pos(c)[0]);
  const ys = cells.map((c) => pos(c)[1]);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  const width = Math.max(...xs) - minX + HW;
  const height = Math.max(...ys) - minY + HH;
  const verb = VERB[sel.mode] || '';
  const nodes = cells.map((c) => {
    const hx = `${c.q},${c.r}`;
    const [x, y] = pos(c);
    const style = `left:${(x - minX).toFixed(1)}px;top:${(y - minY).toFixed(1)}px;width:${HW.toFixed(1)}px;height:${HH}px`;
    const target = targets.get(hx);
    const isNew = c.stack === null;
    const stack = c.stack || [];
    const top = stack.length ? stack[stack.length - 1] : null;
    let desc;
    if (isNew) desc = `New sector at ${hx}`;
    else if (!top) desc = `Sector ${hx}: empty`;
    else {
      desc = `Sector ${hx}: ${top} on top, ${stack.length} disk${stack.length > 1 ? 's' : ''}`;
      if (stack.length > 1) desc += ` (top to bottom: ${[...stack].reverse().join(', ')})`;
    }
    let label = desc;
    if (target) {
      if (target.act) label = `${target.act}: ${desc}`;
      else label = `${verb} from ${hx}: ${desc}`;
    }
    const selected = sel.first === hx;
    const below = stack.slice(0, -1).reverse();
    const body = [
      hexShape(isNew ? 'new' : top ? cls(top) : 'empty'),
      h('span', {class: 'ozm-coord'}, hx),
      isNew ? h('span', {class: 'ozm-new'}, '+ new')
        : top ? h('span', {class: `ozm-disk ${cls(top)}`}, INITIALS[top],
          stack.length > 1 ? h('span', {class: 'ozm-height', 'aria-hidden': 'true'}, String(stack.length)) : null)
          : h('span', {class: 'ozm-empty'}, 'empty'),
      below.length ? h('span', {class: 'ozm-under'}, 'under ', below.map((c) => INITIALS[c]).join(' ')) : null,
    ];
    const className = `ozm-hex${isNew ? ' is-new' : ''}${selected ? ' is-selected' : ''}`;
    const node = control(target, {
      className, label, disabled: sending(),
      onpick: () => { sel.first = hx; ctx.redraw(); },
    }, ...body);
    node.setAttribute('style', style);
    if (selected && node.tagName === 'BUTTON') node.setAttribute('aria-pressed', 'true');
    return node;
  });
  return h('section', {class: 'ozm-map-panel', 'aria-label': 'Map of sectors'},
    h('h3', {}, 'Map ', h('span', {class: 'ozm-sub'}, `${view.map.length} sectors, ${view.sectors_left} left to place`)),
    h('div', {class: 'ozm-map-scroll'},
      h('div', {class: 'ozm-map', style: `width:${width.toFixed(0)}px;height:${height.toFixed(0)}px`}, nodes)));
}

// ------------------------------------------------------------------ empires and seats
function empiresPanel(view) {
  const counts = {};
  for (const id of view.market) counts[id.charAt(0)] = (counts[id.charAt(0)] || 0) + 1;
  const most = Math.max(0, ...Object.values(counts));
  const leaders = COLOURS.filter((c) => (counts[INITIALS[c]] || 0) === most && most > 0);
  return h('section', {class: 'ozm-empires', 'aria-label': 'Empires'},
    h('h3', {}, 'Empires'),
    h('table', {class: 'ozm-table'},
      h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, 'Colour'), h('th', {scope: 'col', title: 'sectors with this colour on top'}, 'Value'),
        h('th', {scope: 'col'}, 'Supply'), h('th', {scope: 'col', title: 'cards of this colour in the market'}, 'Market'))),
      h('tbody', {}, COLOURS.map((c) => {
        const n = counts[INITIALS[c]] || 0;
        const danger = leaders.length === 1 && leaders[0] === c && view.phase !== 'over';
        return h('tr', {class: danger ? 'ozm-danger' : ''},
          h('th', {scope: 'row'}, chip(c)),
          h('td', {class: 'ozm-value'}, String(view.values[c])),
          h('td', {}, String(view.supply[c]), view.dead[c] ? h('span', {class: 'ozm-sub'}, ` (${view.dead[c]} dead)`) : null),
          h('td', {}, String(n), danger ? h('span', {class: 'ozm-warn', title: 'the colour with the most market cards after the trades collapses: its top disks are destroyed'}, ' ⚠ most: collapse risk') : null));
      }))));
}

/** A seat as the page names it (its person; `seat 2` on the replay page). */
const labelOf = (ctx, seat) => (ctx.seatLabel || ctx.seatName)(seat);

function seatsPanel(view, ctx) {
  const n = view.vp.length;
  const order = view.turn_order || [];
  const submitted = new Set(view.submitted || []);
  const toAct = new Set(view.to_act || []);
  const target = ctx.content && ctx.content.target_vp;
  return h('section', {class: 'ozm-seats', 'aria-label': 'Seats'},
    h('h3', {}, 'Seats', target && (!ctx.content.end || ctx.content.end === 'vp') ? h('span', {class: 'ozm-sub'}, ` (${target} VP ends the game)`) : null),
    h('ol', {class: 'ozm-seat-list'}, Array.from({length: n}, (_, seat) => {
      const played = view.played[seat];
      let plan;
      if (view.phase === 'plan') {
        if (seat === ctx.mySeat && view.my_submission) {
          plan = h('span', {class: 'ozm-facedown'}, `plan chosen: ${view.my_submission.split(' ')[1]} (face down)`);
        } else if (submitted.has(seat)) plan = h('span', {class: 'ozm-facedown'}, 'plan chosen (face down)');
        else if (toAct.has(seat)) plan = h('span', {class: 'ozm-sub'}, 'choosing a plan…');
      } else if (played) {
        const info = cardInfo(played, ctx);
        plan = h('span', {}, 'played ', h('span', {class: `ozm-mini ${cls(info.colour)}`}, played), ` ${title(info.colour)}, ${info.event}`);
      } else if (view.phase !== 'over' && (view.last_ranks || [])[seat]) {
        plan = h('span', {class: 'ozm-sub'}, 'played card sold');
      }
      const place = order.indexOf(seat);
      const acting = view.acting === seat;
      return h('li', {class: `ozm-seat${seat === ctx.mySeat ? ' mine' : ''}${acting ? ' acting' : ''}`},
        h('span', {class: 'ozm-seat-name'}, acting ? '▶ ' : '', ctx.seatChip ? ctx.seatChip(seat) : null,
          labelOf(ctx, seat), seat === ctx.mySeat ? ' (you)' : ''),
        h('span', {class: 'ozm-vp'}, `${view.vp[seat]} VP`),
        h('span', {class: 'ozm-sub'}, `${view.hand_sizes[seat]} in hand`),
        place >= 0 && (view.phase === 'raise' || view.phase === 'trade') ? h('span', {class: 'ozm-sub'}, `#${place + 1} to ${view.phase === 'trade' ? 'trade' : 'raise'}`) : null,
        plan ? h('div', {class: 'ozm-seat-plan'}, plan) : null);
    })));
}

// ------------------------------------------------------------------ cards
function cardBody(info, extra) {
  return [
    h('span', {class: `ozm-card-head ${cls(info.colour)}`},
      h('span', {class: 'ozm-card-id'}, info.id), h('span', {class: 'ozm-card-colour'}, title(info.colour))),
    h('span', {class: 'ozm-card-event'}, info.event || ' '),
    info.text ? h('span', {class: 'ozm-card-text'}, info.text.replace(/^[A-Za-z]+: /, '')) : null,
    extra,
  ];
}

function card(id, ctx, target, what, onpick, extra, selected = false) {
  const info = cardInfo(id, ctx);
  const label = target && target.act ? `${target.act}: ${what} ${id}, ${title(info.colour)} ${info.rank}, ${info.event}`
    : `${what} ${id}, ${title(info.colour)} ${info.rank}, ${info.event}${target ? ' (select)' : ''}`;
  const node = control(target, {className: `ozm-card ${cls(info.colour)}${selected ? ' is-selected' : ''}`,
    label, onpick, disabled: sending()}, ...cardBody(info, extra));
  if (target && target.pick !== undefined) node.setAttribute('aria-pressed', String(selected));
  return node;
}

function marketPanel(view, p, ctx, mine) {
  const swap = mine ? swapList(view, p) : null;
  const embargo = mine && sel.mode === 'embargo' && view.phase === 'raise';
  const givenColour = sel.given ? cardInfo(sel.given, ctx).colour : null;
  const cards = view.market.map((id) => {
    let target = null;
    if (swap) target = takenTarget(swap, id);
    else if (embargo && p.embargo.has(id)) target = {act: p.embargo.get(id)};
    const info = cardInfo(id, ctx);
    let extra = h('span', {class: 'ozm-card-value'}, `${title(info.colour)} value ${view.values[info.colour]}`);
    if (givenColour && swap && swap.kind === 'trade') {
      const gain = Math.max(0, view.values[givenColour] - view.values[info.colour]);
      extra = [extra, h('span', {class: `ozm-gain${gain ? ' plus' : ''}`}, `trade: +${gain} VP`)];
    }
    const what = embargo ? 'embargo market card' : 'market card';
    return card(id, ctx, target, what, () => { sel.taken = sel.taken === id ? null : id; ctx.redraw(); }, extra, sel.taken === id);
  });
  let deck = h('div', {class: 'ozm-deck'}, h('span', {class: 'ozm-deck-count'}, String(view.deck_size)), ' cards in the deck');
  if (swap && swap.kind === 'trade') {
    const target = takenTarget(swap, 'deck');
    if (target) {
      deck = control(target, {className: 'ozm-deck', label: target.act ? `${target.act}: trade for the deck's top card (scores nothing)` : 'the deck top (select)',
        disabled: sending(), onpick: () => { sel.taken = sel.taken === 'deck' ? null : 'deck'; ctx.redraw(); }},
      h('span', {class: 'ozm-deck-count'}, String(view.deck_size)), ' cards in the deck', h('span', {class: 'ozm-sub'}, 'take the top card: no VP'));
      if (sel.taken === 'deck') deck.classList.add('is-selected');
    }
  }
  const discard = view.discard.length ? view.discard[view.discard.length - 1] : null;
  return h('section', {class: 'ozm-market', 'aria-label': 'Market'},
    h('h3', {}, 'Market ', h('span', {class: 'ozm-sub'}, 'a trade scores the given colour\'s value minus the taken colour\'s, if positive')),
    h('div', {class: 'ozm-cards'}, cards, deck,
      h('div', {class: 'ozm-discard'}, h('span', {class: 'ozm-deck-count'}, String(view.discard.length)), ' discarded',
        discard ? h('span', {class: 'ozm-sub'}, `top: ${discard}`) : null)));
}

function handPanel(view, p, ctx, mine) {
  if (ctx.mySeat === null || !view.hand) return null;
  const swap = mine ? swapList(view, p) : null;
  const planning = mine && view.phase === 'plan';
  const cards = view.hand.map((id) => {
    let target = null;
    let what = 'hand card';
    if (planning && p.plan.has(id)) { target = {act: p.plan.get(id)}; what = 'play as your secret plan'; }
    else if (swap) { target = givenTarget(swap, id); what = swap.kind === 'trade' ? 'give hand card' : 'swap hand card'; }
    let extra = null;
    if (swap && swap.kind === 'trade' && target && sel.taken && sel.taken !== 'deck') {
      const gain = Math.max(0, view.values[cardInfo(id, ctx).colour] - view.values[cardInfo(sel.taken, ctx).colour]);
      extra = h('span', {class: `ozm-gain${gain ? ' plus' : ''}`}, `trade: +${gain} VP`);
    }
    return card(id, ctx, target, what, () => { sel.given = sel.given === id ? null : id; ctx.redraw(); }, extra, sel.given === id);
  });
  const mine_ = view.played[ctx.mySeat];
  let played = null;
  if (mine_) {
    let target = null;
    if (swap && swap.kind === 'trade') target = givenTarget(swap, mine_);
    played = h('div', {class: 'ozm-played'}, h('h4', {}, 'Your played card'),
      card(mine_, ctx, target, 'give played card', () => { sel.given = sel.given === mine_ ? null : mine_; ctx.redraw(); }, null, sel.given === mine_));
  } else if (view.phase === 'plan' && view.my_submission) {
    const id = view.my_submission.split(' ')[1];
    played = h('div', {class: 'ozm-played'}, h('h4', {}, 'Your secret plan'),
      h('div', {class: 'ozm-facedown-card', 'aria-label': `your plan ${id}, face down until everyone has chosen`},
        h('span', {}, 'face down'), h('b', {}, id)));
  }
  return h('section', {class: 'ozm-hand', 'aria-label': 'Your hand'},
    h('div', {class: 'ozm-hand-row'},
      h('div', {}, h('h4', {}, 'Your hand'), h('div', {class: 'ozm-cards'}, cards)), played));
}

function auguryPanel(view, p, ctx, mine) {
  if (!view.augury || !view.augury.length) return null;
  const left = view.augury.filter((id) => !sel.order.includes(id));
  const cards = left.map((id) => {
    const next = [...sel.order, id];
    const text = `order ${next.join(' ')}`;
    let target = null;
    if (mine && p.orders.has(text)) target = {act: text};
    else if (mine && [...p.orders].some((o) => o.startsWith(`${text} `))) target = {pick: id};
    return card(id, ctx, target, `put back ${next.length === 1 ? 'on top' : `as card ${next.length} from the top`}`,
      () => { sel.order = next; ctx.redraw(); });
  });
  return h('section', {class: 'ozm-augury', 'aria-label': 'Augury'},
    h('h3', {}, 'Augury: the deck\'s top cards (only you see them)'),
    h('p', {class: 'hint'}, 'Click them in the order to put them back, top card first.',
      sel.order.length ? ` Chosen so far (top first): ${sel.order.join(', ')}.` : ''),
    h('div', {class: 'ozm-cards'}, cards));
}

// ------------------------------------------------------------------ the prompt
function promptPanel(view, p, ctx, mine, legal) {
  const parts = [];
  const phase = {plan: 'Secret plans', raise: 'Raise, lowest rank first', trade: 'Trade, highest rank first', over: 'Game over'}[view.phase] || view.phase;
  parts.push(h('p', {class: 'ozm-phase'}, h('b', {}, `Round ${view.round}`), ` · ${phase}`,
    view.acting !== null && view.acting !== undefined ? [' · ', h('b', {}, `${labelOf(ctx, view.acting)}${view.acting === ctx.mySeat ? ' (you)' : ''}`), ' to act'] : null));
  if (view.winners) {
    const names = view.winners.map((s) => `${labelOf(ctx, s)}${s === ctx.mySeat ? ' (you)' : ''}`);
    parts.push(h('p', {class: 'ozm-ask'}, `${names.join(' and ')} ${names.length > 1 ? 'share the win' : 'wins'} with ${view.vp[view.winners[0]]} VP.`,
      view.truncated ? ' (round cap reached)' : ''));
    return h('div', {class: 'ozm-prompt'}, parts);
  }
  if (ctx.mySeat === null) {
    parts.push(h('p', {class: 'hint'}, 'You are watching: hands and secret plans stay hidden.'));
    return h('div', {class: 'ozm-prompt'}, parts);
  }
  if (!mine) {
    let text = ctx.status === 'running' ? 'Waiting for the other players.' : '';
    if (view.phase === 'plan' && view.my_submission) text = `Your plan ${view.my_submission.split(' ')[1]} is chosen, face down. Waiting for the others; all plans are revealed together.`;
    if (text) parts.push(h('p', {class: 'hint'}, text));
    return h('div', {class: 'ozm-prompt'}, parts);
  }
  const playedId = view.played[ctx.mySeat];
  const played = playedId ? cardInfo(playedId, ctx) : null;
  let ask = '';
  if (view.phase === 'plan') ask = 'Choose your secret plan: click a card in your hand. It stays face down until everyone has chosen.';
  else if (view.step === 'surge') ask = `Surge: ${view.surge_left ?? ''} more ${title(played.colour)} disk(s). Click a highlighted sector, or stop.`;
  else if (view.step === 'augury') ask = 'Augury: click the deck\'s top cards in the order to put them back.';
  else if (view.phase === 'raise') {
    ask = `Your ${playedId} (${title(played.colour)}): expand with a ${title(played.colour)} disk or use its event, ${played.event}.`;
  } else if (view.step === 'trade_hand') ask = 'Trade a card from your hand (required): pick it, then a market card or the deck.';
  else if (view.step === 'trade_played') ask = `You may also trade your played card ${playedId}: click a market card or the deck, or keep it.`;
  parts.push(h('p', {class: 'ozm-ask'}, ask));
  if (view.phase === 'raise' && p.modes.length > 1) {
    parts.push(h('div', {class: 'ozm-modes', role: 'group', 'aria-label': 'What to do'}, p.modes.map((m) =>
      h('button', {class: `ozm-mode${sel.mode === m ? ' is-on' : ''}`, 'aria-pressed': String(sel.mode === m), dataset: {mode: m},
        disabled: sending(), onclick: () => { sel.mode = m; sel.first = null; sel.given = null; sel.taken = null; ctx.redraw(); }},
      m === 'expand' ? `Expand (${title(played.colour)} disk)` : `Event: ${VERB[m]}`))));
  }
  if (view.phase === 'raise' && sel.mode) {
    const hint = {
      expand: p.pairs.expand ? 'Click the sector to expand to, then the sector to take the disk from.' : 'Click a highlighted sector to place the disk.',
      explore: 'Click a new sector (dashed) to attach it with your disk.',
      raze: 'Click a sector to destroy its top disk.', coup: 'Click a sector to swap its top two disks.',
      surge: 'Click a highlighted sector for the first disk.', diaspora: 'Click a sector to place your disk there.',
      march: 'Click the sector to march from, then the one to march to.',
      bazaar: 'Click a hand card and a market card to swap them (no VP).', embargo: 'Click a market card to discard it.',
    }[sel.mode];
    if (played && played.text && sel.mode !== 'expand') parts.push(h('p', {class: 'ozm-sub'}, played.text));
    parts.push(h('p', {class: 'hint'}, hint));
  }
  // the move being built, and a way out
  const building = [];
  if (sel.first) building.push(`${sel.mode} ${sel.first} …`);
  const swap = swapList(view, p);
  if (swap && (sel.given || sel.taken)) {
    const autoGiven = givenChoices(swap).length === 1 && !sel.taken;
    if (!autoGiven || sel.taken) building.push(`${swap.kind} ${sel.given || '…'} ${sel.taken || '…'}`);
  }
  if (sel.order.length) building.push(`order ${sel.order.join(' ')} …`);
  if (building.length) {
    parts.push(h('p', {class: 'ozm-building'}, 'Move so far: ', h('code', {}, building.join(' ')), ' ',
      h('button', {class: 'ozm-cancel', onclick: () => { sel.first = null; sel.given = null; sel.taken = null; sel.order = []; ctx.redraw(); }}, 'Cancel')));
  }
  const words = {done: view.step === 'surge' ? 'Stop the Surge (done)' : 'Keep my played card (done)', pass: 'Pass (nothing else is legal)'};
  for (const t of SIMPLE_EVENTS) words[t] = `Use the event: ${title(t)}${played && played.text ? ` (${played.text.replace(/^[A-Za-z]+: /, '')})` : ''}`;
  const simple = p.simple.filter((t) => words[t]);
  if (simple.length) {
    parts.push(h('div', {class: 'ozm-simple'}, simple.map((t) => h('button', {class: `ozm-live ozm-act${SIMPLE_EVENTS.includes(t) ? ' ozm-event-btn' : ''}`, dataset: {act: t},
      disabled: sending(), 'aria-label': words[t], onclick: () => send(t)}, words[t]))));
  }
  return h('div', {class: `ozm-prompt${mine ? ' my-turn' : ''}`}, parts);
}

/** Legal texts the board cannot place (none with the packaged cards): the "other moves". */
function otherMoves(p) {
  return p.simple.filter((t) => !['done', 'pass', ...SIMPLE_EVENTS].includes(t));
}

function resetIfNew(view, legal, p) {
  const key = JSON.stringify([view.round, view.phase, view.step, view.acting, legal]);
  if (sel.key === key) {
    if (sel.mode && !p.modes.includes(sel.mode)) sel.mode = null;
  } else {
    sel = {key, mode: null, given: null, taken: null, first: null, order: [], sentAt: 0};
  }
  if (!sel.mode && p.modes.length) sel.mode = p.modes[0];
  const swap = swapList(view, p);
  if (swap && !sel.given && !sel.taken) {
    const givens = givenChoices(swap);
    if (givens.length === 1) sel.given = givens[0];
  }
}

/** Draw the board and the seat's controls (the board interface: boards/README.md). */
export function render(board, actions, view, legal, ctx, act) {
  redraw = ctx.redraw;
  play = act;
  const p = parseLegal(legal);
  resetIfNew(view, legal, p);
  const mine = ctx.mySeat !== null && legal.length > 0 && ctx.status === 'running';
  fill(board, h('div', {class: `ozm${mine ? ' ozm-mine' : ''}`},
    promptPanel(view, p, ctx, mine, legal),
    auguryPanel(view, p, ctx, mine),
    h('div', {class: 'ozm-top'}, mapPanel(view, p, ctx, mine),
      h('div', {class: 'ozm-info'}, empiresPanel(view), seatsPanel(view, ctx))),
    marketPanel(view, p, ctx, mine),
    handPanel(view, p, ctx, mine)));
  const others = mine ? otherMoves(p) : [];
  fill(actions, others.length ? h('div', {class: 'ozm-other'}, h('h3', {}, 'Other moves'),
    h('div', {class: 'ozm-simple'}, others.map((t) => h('button', {class: 'ozm-live ozm-act', dataset: {act: t},
      disabled: sending(), onclick: () => send(t)}, t)))) : null);
}
