// Epoch Ellipse: the day's phases as a stepper (WAKE UP, PLAN, EXPLORE, HUNGER, REST with the
// night card), what the open step asks of whom, the team's Recovered VP against the target, the
// locations (tokens, event deck, Recovered, explore buttons), the exploration being resolved,
// every survivor (status, danger, deck, discard, hunger, the open hand with one button per legal
// use of each card), the survivor pool and the shared decks. Rules page, section "Web board".
// Every button sends an action text taken from `legal`; a trade is built by two clicks (a card
// of yours, a card of the partner's). Colours always come with a glyph and a word.
import {fill, h} from '../dom.js';

/** This board has its own stylesheet, static/boards/epoch-ellipse.css (boards/README.md). */
export const stylesheet = true;
/** What the result table calls the score (the game's `score_name`: the team's, every seat's). */
export const scoreName = 'Recovered VP';

const PHASES = [['wake', 'WAKE UP'], ['plan', 'PLAN'], ['explore', 'EXPLORE'], ['hunger', 'HUNGER'],
  ['rest', 'REST']];
const STEP_NAMES = {
  pick: 'take over a survivor', plan: 'plan', answer: 'answer a trade offer', treat: 'treat',
  choose: 'choose a location', flip: 'flipped cards', combat: 'combat', collapse: 'collapse',
  rescue: 'rescue', limit: 'hand limit', hunger: 'eat or starve', over: 'game over',
};
// glyph + word for every kind of card: colour is never alone
const KIND_MARK = {
  FOOD: '● FOOD', WEAPON: '▲ WEAPON', MEDICAL: '✚ MEDICAL', ALLY: '◆ ALLY', CHARM: '★ CHARM',
  COMBAT: '⚔ COMBAT', COLLAPSE: '⚠ COLLAPSE', CURSE: '☇ CURSE', SURVIVOR: '☺ SURVIVOR',
  NIGHT: '☾ NIGHT',
};
const STATUS = {alive: '♥ alive', mournful: '☂ Mournful Sacrifice', dead: '✝ dead'};
const DEADLY = 3;

// the local part of a trade being built: {key, give, seat, get}
let sel = {key: '', give: null, seat: null, get: null};
// the containers of the last render, to disable every control once an action is sent
let boxes = [];
// the legal texts drawn as controls in this render (the rest go to "Other moves")
let shown = new Set();

const info = (ctx, name) => (ctx.content.cards || {})[name] || {slug: slugOf(name), kind: '', subtype: '', text: ''};
function slugOf(name) {
  return String(name).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
const kindOf = (card) => card.subtype || card.kind || 'CARD';
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
/** A seat as the page names it (its person; `seat 2` on the replay page). */
const labelOf = (ctx, seat) => (ctx.seatLabel || ctx.seatName)(seat);
const who = (ctx, seat) => `${labelOf(ctx, seat)}${seat === ctx.mySeat ? ' (you)' : ''}`;

function pointsText(ctx, points) {
  const labels = ctx.content.points || {};
  return Object.entries(points || {}).map(([p, n]) => `${n} ${labels[p] || p}`).join(', ');
}

/** A button that plays one legal action text. */
function actButton(text, label, aria, extra = '') {
  shown.add(text);
  return h('button', {class: `action ee-act ${extra}`, type: 'button', dataset: {action: text},
    'aria-label': aria || label, title: text, onclick: (e) => {
      for (const box of boxes) for (const b of box.querySelectorAll('button')) b.disabled = true;
      e.currentTarget.classList.add('sent');
      send(text);
    }}, label);
}
let send = () => {};

function cardFace(ctx, name, count = 1, extra = '') {
  const card = info(ctx, name);
  const kind = kindOf(card);
  return h('div', {class: `ee-face kind-${kind.toLowerCase()} ${extra}`},
    h('div', {class: 'ee-kind'}, KIND_MARK[kind] || kind),
    h('div', {class: 'ee-name'}, name, count > 1 ? h('span', {class: 'ee-count'}, ` ×${count}`) : null),
    card.difficulty ? h('div', {class: 'ee-diff'}, `Difficulty ${card.difficulty}`) : null,
    card.text ? h('div', {class: 'ee-text'}, card.text) : null);
}

function grouped(names) {
  const counts = new Map();
  for (const n of names) counts.set(n, (counts.get(n) || 0) + 1);
  return [...counts];
}

/** Small chips for a list of card names (discard piles, piles, flipped cards). */
function chips(ctx, names, empty = 'none') {
  if (!names.length) return h('span', {class: 'ee-empty'}, empty);
  return h('ul', {class: 'ee-chips'}, grouped(names).map(([name, n]) => {
    const kind = kindOf(info(ctx, name));
    return h('li', {class: `ee-chip kind-${kind.toLowerCase()}`, title: info(ctx, name).text || name},
      h('span', {class: 'ee-glyph', 'aria-hidden': 'true'}, (KIND_MARK[kind] || '?').charAt(0)), ' ',
      name, n > 1 ? ` ×${n}` : '');
  }));
}

// ------------------------------------------------------------------ the legal texts, parsed
function parseLegal(legal) {
  const byCard = new Map();  // slug -> [text] for the acting seat's own cards
  const ms = new Map();      // mournful seat -> [text]
  const explore = new Map(); // location number -> [text]
  const trades = [];
  const simple = new Set();
  for (const text of legal) {
    const w = text.split(' ');
    if (w[0] === 'trade') trades.push({text, seat: Number(w[1]), give: w[2], get: w[3]});
    else if (w[0] === 'explore') {
      const l = Number(w[1]);
      if (!explore.has(l)) explore.set(l, []);
      explore.get(l).push(text);
    } else if (w[1] === 'ms') {
      const s = Number(w[2]);
      if (!ms.has(s)) ms.set(s, []);
      ms.get(s).push(text);
    } else if (['use', 'eat', 'stabilize', 'treat', 'give', 'return', 'charm', 'redraw'].includes(w[0])) {
      const slug = w[0] === 'give' && w[1] === 'x' ? `x:${w[2]}` : w[1];
      if (!byCard.has(slug)) byCard.set(slug, []);
      byCard.get(slug).push(text);
    } else simple.add(text);
  }
  return {byCard, ms, explore, trades, simple};
}

/** The label of a card's legal action: what the click does, in game terms. */
function cardActionLabel(ctx, text, card, name) {
  const w = text.split(' ');
  const mode = w[w.length - 1];
  const ability = (m) => pointsText(ctx, card[m]);
  const Mode = mode === 'trash' ? 'Trash' : 'Discard';
  switch (w[0]) {
    case 'use': return [`${Mode} → ${ability(mode)}`, `Use ${name}, ${mode} mode: ${ability(mode)}`];
    case 'eat': return [`Eat: ${Mode} → ${ability(mode)}`, `Eat ${name}, ${mode} mode: ${ability(mode)}`];
    case 'stabilize': return [`Stabilize: ${Mode} → ${ability(mode)}`,
      `Stabilize with ${name}, ${mode} mode: ${ability(mode)}`];
    case 'treat': return ['Treat (trash it)', `Treat ${name}: trash it from your hand`];
    case 'give': return [w[1] === 'x' ? 'Give to survivor' : 'Give to survivor',
      `Give ${name}${w[1] === 'x' ? ' from the exploration' : ' from your hand'} to the rescued survivor`];
    case 'return': return ['Return to location', `Return ${name} to the explored location`];
    case 'charm': return ['Play charm', `Play the charm ${name}`];
    case 'redraw': return ['Redraw exploration', `Discard ${name} to redraw the exploration`];
    default: return [text, text];
  }
}

// --------------------------------------------------------------------------- the parts
function stepper(view) {
  const phase = view.phase;
  const order = PHASES.map(([k]) => k);
  const at = phase === 'over' ? -1 : order.indexOf(phase);
  const lastNight = (view.night_discard || []).slice(-1)[0];
  return h('ol', {class: 'ee-phases', 'aria-label': `Day ${view.day} phases`},
    PHASES.map(([key, label], i) => {
      const state = at < 0 ? '' : i < at ? 'done' : i === at ? 'current' : 'later';
      const mark = state === 'current' ? '▶ ' : state === 'done' ? '✓ ' : '';
      return h('li', {class: `ee-phase ${state}`, 'aria-current': state === 'current' ? 'step' : null},
        h('span', {class: 'ee-phase-name'}, h('span', {class: 'ee-phase-num'}, `${mark}${i + 1}.`), ' ', label),
        key === 'rest' ? h('span', {class: 'ee-phase-note'},
          lastNight ? `last night: ${lastNight}` : 'night card, discard, shuffle')
          : state === 'current' ? h('span', {class: 'ee-phase-note'}, STEP_NAMES[view.step] || view.step) : null);
    }));
}

function prompt(view, ctx) {
  const seat = (view.acting || [])[0];
  if (view.step === 'over' || view.result) {
    const text = view.result === 'won'
      ? `The team won on day ${view.day}: ${view.recovered_vp} VP Recovered.`
      : view.result === 'truncated' ? `The day cap is reached: the team lost (${view.recovered_vp} of ${view.target_vp} VP).`
        : `The team lost on day ${view.day} (${view.cause || 'no survivor left'}).`;
    return h('p', {class: 'ee-prompt over'}, text);
  }
  if (seat === undefined) return h('p', {class: 'ee-prompt'}, 'Nobody is to act.');
  const name = who(ctx, seat);
  const expl = view.exploration || {};
  const me = view.players[seat];
  let text;
  switch (view.step) {
    case 'pick': text = `${name} takes over a survivor: pick a pile of the pool.`; break;
    case 'plan': text = `${name} plans: trade salvage 1-for-1, use medical or draw cards, play a charm, or pass.`; break;
    case 'answer': text = `${name} answers ${who(ctx, view.offer.from)}'s trade offer.`; break;
    case 'treat': text = `${name} treats catastrophes in hand: ${plural(view.credits, 'medical point')} left.`; break;
    case 'choose': text = `${name} explores: a new location, or some cards of a location in play.`; break;
    case 'flip': text = `${name} has flipped ${plural(expl.k || 0, 'card')} of ${expl.location}: resolve them, or redraw.`; break;
    case 'combat': text = `${name} fights ${expl.current} (difficulty ${expl.difficulty}, ${expl.paid} Weapon paid): pay Weapon cards or suffer.`; break;
    case 'collapse': text = `${name} collapses: ${expl.current}. Avoid it with Medical, or suffer it.`; break;
    case 'rescue': text = `${name} rescues ${(expl.rescue || [])[0]}: give salvage, then set the pile aside.`; break;
    case 'limit': text = `${name} holds ${me.hand.length} cards, over the limit of ${ctx.content.hand_size || 5}: return cards to ${expl.location}.`; break;
    case 'hunger': text = `${name} is hungry: eat 1 Food, or starve (a catastrophe into the discard pile).`; break;
    default: text = `${name}: ${view.step}.`;
  }
  return h('p', {class: 'ee-prompt'}, h('span', {class: 'ee-step-tag'}, (STEP_NAMES[view.step] || view.step).toUpperCase()), ' ', text);
}

const STEP_BUTTONS = {
  pass: ['Pass (done planning)', 'Pass: end your planning turn'],
  starve: ['Starve (take a catastrophe)', 'Starve: take the top Catastrophe card into your discard pile'],
  skip: ['Skip (nothing to explore)', 'Skip exploring: nothing can be explored'],
};

function stepControls(view, ctx, parsed) {
  const out = [];
  for (const [text, [label, aria]] of Object.entries(STEP_BUTTONS)) {
    if (parsed.simple.has(text)) out.push(actButton(text, label, aria, 'primary'));
  }
  if (view.step === 'treat' && parsed.simple.has('done')) {
    out.push(actButton('done', 'Done treating', 'Done: drop the medical points left', 'primary'));
  }
  const building = tradeBuilder(view, ctx, parsed);
  return out.length || building ? h('div', {class: 'ee-controls'}, out, building) : null;
}

function tradeBuilder(view, ctx, parsed) {
  if (!parsed.trades.length || (sel.give === null && sel.get === null)) return null;
  const part = (x) => x === null ? '…' : x;
  const text = `trade ${part(sel.seat)} ${part(sel.give)} ${part(sel.get)}`;
  const ready = parsed.trades.find((t) => t.text === text);
  return h('div', {class: 'ee-trade-builder', role: 'group', 'aria-label': 'Trade offer being built'},
    h('span', {}, 'Trade offer: ', h('code', {class: 'ee-building'}, text)),
    ready ? actButton(text, 'Send offer', `Offer ${labelOf(ctx, sel.seat)} your ${nameOf(ctx, sel.give)} for their ${nameOf(ctx, sel.get)}`, 'primary')
      : h('span', {class: 'hint'}, sel.give === null ? ' now pick one of your salvage cards (Offer)'
        : ' now pick a partner\'s salvage card (Ask for)'),
    h('button', {type: 'button', class: 'ee-cancel', onclick: () => { clearSel(); ctx.redraw(); }}, 'Cancel'));
}

/** The card name of a slug (`tinned-ham` -> `TINNED HAM`), from the board content. */
function nameOf(ctx, slug) {
  for (const [name, card] of Object.entries(ctx.content.cards || {})) if (card.slug === slug) return name;
  return slug;
}

function clearSel() {
  sel.give = null;
  sel.seat = null;
  sel.get = null;
}

function progress(view) {
  const pct = Math.max(0, Math.min(100, (100 * view.recovered_vp) / (view.target_vp || 1)));
  return h('div', {class: 'ee-progress'},
    h('div', {class: 'ee-progress-label'}, h('b', {}, `Team: ${view.recovered_vp} of ${view.target_vp} VP Recovered`),
      ' (the team wins at the target)'),
    h('div', {class: 'ee-bar', role: 'progressbar', 'aria-valuemin': '0', 'aria-valuemax': String(view.target_vp),
      'aria-valuenow': String(view.recovered_vp), 'aria-label': 'Recovered VP'},
    h('div', {class: 'ee-bar-fill', style: `width: ${pct}%`})));
}

function offerPanel(view, ctx, parsed) {
  const offer = view.offer;
  if (!offer) return null;
  return h('section', {class: 'ee-offer', 'aria-label': 'Trade offer'},
    h('b', {}, '⇄ Trade offer: '),
    `${who(ctx, offer.from)} gives ${offer.give} for ${who(ctx, offer.to)}'s ${offer.receive}. `,
    parsed.simple.has('accept') ? actButton('accept', 'Accept', `Accept: take ${offer.give}, give ${offer.receive}`, 'primary') : null,
    ' ',
    parsed.simple.has('decline') ? actButton('decline', 'Decline', 'Decline the trade offer') : null);
}

function explorationPanel(view, ctx, parsed) {
  const expl = view.exploration;
  if (!expl) return null;
  if (!expl.location) {
    return (expl.waiting || []).length ? h('p', {class: 'hint ee-waiting'},
      `To explore today, in order: ${[expl.seat, ...expl.waiting].map((s) => who(ctx, s)).join(', ')}.`) : null;
  }
  const parts = [];
  if (expl.current) {
    const card = info(ctx, expl.current);
    const combat = card.subtype === 'COMBAT';
    parts.push(h('div', {class: 'ee-current'},
      h('h4', {}, 'Resolving now'),
      h('div', {class: 'ee-card big'}, cardFace(ctx, expl.current),
        combat ? h('div', {class: 'ee-paid'}, `Weapon paid ${expl.paid} of ${expl.difficulty}`) : null,
        parsed.simple.has('suffer') ? actButton('suffer', 'Suffer it', `Suffer ${expl.current}: it goes into your discard pile`, 'danger') : null),
      payable(parsed) ? h('p', {class: 'hint ee-pay-hint'}, combat ? 'Pay Weapon with the buttons on your cards (your hand, below).'
        : 'Avoid it with the buttons on your cards (your hand, below).') : null));
  }
  if (expl.rescue && expl.rescue.length) {
    parts.push(h('div', {class: 'ee-rescue'},
      h('h4', {}, `Rescuing ${expl.rescue[0]}`),
      h('div', {}, 'Pile: ', chips(ctx, expl.rescue.slice(1), 'no gifts yet')),
      view.step === 'rescue' && parsed.simple.has('done')
        ? actButton('done', 'Done: set the pile aside', `Set ${expl.rescue[0]} aside in the survivor pool`, 'primary') : null));
  }
  const rest = [['1. Catastrophes', expl.catastrophes || []], ['2. Survivors', expl.survivors || []]];
  parts.push(h('div', {class: 'ee-unresolved'},
    h('h4', {}, 'Still to resolve'),
    rest.map(([label, names]) => h('div', {class: 'ee-row'}, h('span', {class: 'ee-row-label'}, `${label}: `), chips(ctx, names))),
    h('div', {class: 'ee-row'}, h('span', {class: 'ee-row-label'}, '3. Salvage: '), salvageRow(ctx, expl.salvage || [], parsed))));
  const title = `${who(ctx, expl.seat)} explores ${expl.location}` + (expl.k ? ` (${plural(expl.k, 'card')} flipped)` : '');
  return h('section', {class: 'ee-exploration', 'aria-label': 'Exploration'},
    h('h3', {}, '⌕ ', title),
    parsed.simple.has('resolve') ? h('div', {class: 'ee-controls'},
      actButton('resolve', 'Resolve the flipped cards', 'Resolve the flipped cards', 'primary')) : null,
    h('div', {class: 'ee-expl-body'}, parts),
    (expl.waiting || []).length ? h('p', {class: 'hint'}, `Then: ${expl.waiting.map((s) => who(ctx, s)).join(', ')}.`) : null);
}

/** Whether some card of the hand or a Mournful card can pay now. */
function payable(parsed) {
  for (const texts of parsed.byCard.values()) if (texts.some((t) => t.startsWith('use '))) return true;
  for (const texts of parsed.ms.values()) if (texts.some((t) => t.startsWith('use '))) return true;
  return false;
}

function salvageRow(ctx, names, parsed) {
  if (!names.length) return h('span', {class: 'ee-empty'}, 'none');
  return h('ul', {class: 'ee-chips'}, grouped(names).map(([name, n]) => {
    const card = info(ctx, name);
    const texts = parsed.byCard.get(`x:${card.slug}`) || [];
    const kind = kindOf(card);
    return h('li', {class: `ee-chip kind-${kind.toLowerCase()}`, title: card.text || name},
      h('span', {class: 'ee-glyph', 'aria-hidden': 'true'}, (KIND_MARK[kind] || '?').charAt(0)), ' ',
      name, n > 1 ? ` ×${n}` : '',
      texts.map((t) => actButton(t, 'Give', `Give ${name} from the exploration to the rescued survivor`, 'small')));
  }));
}

function locationsPanel(view, ctx, parsed) {
  const expl = view.exploration;
  const tiles = view.locations.map((loc, i) => {
    const n = i + 1;
    const texts = parsed.explore.get(n) || [];
    const here = expl && expl.location === loc.name;
    const tokens = loc.tokens;
    return h('li', {class: `ee-location${loc.recovered ? ' recovered' : ''}${here ? ' here' : ''}`,
      'aria-label': `Location ${n}: ${loc.name}`},
    h('div', {class: 'ee-loc-head'}, h('span', {class: 'ee-loc-num'}, `L${n}`), ' ', h('b', {}, loc.name)),
    h('div', {class: 'ee-loc-facts'},
      h('span', {class: 'ee-vp'}, `${loc.vp} VP`),
      h('span', {class: `ee-tokens${tokens ? '' : ' none'}`, title: 'catastrophe tokens: the catastrophes in the event deck'},
        tokens ? h('span', {'aria-hidden': 'true'}, tokens > 6 ? '⚠' : '⚠'.repeat(tokens)) : null,
        ` ${plural(tokens, 'token')}`),
      h('span', {class: 'ee-cards'}, `${plural(loc.cards, 'card')} in its event deck`)),
    loc.recovered ? h('div', {class: 'ee-recovered'}, '✓ Recovered') : null,
    here ? h('div', {class: 'ee-here'}, `◀ ${who(ctx, expl.seat)} is exploring here`) : null,
    texts.length ? h('div', {class: 'ee-explore', role: 'group', 'aria-label': `Explore ${loc.name}`},
      h('span', {class: 'ee-explore-label'}, 'Explore:'),
      texts.map((t) => {
        const k = t.split(' ')[2];
        return k === 'roll' ? actButton(t, 'roll a die', `Explore ${loc.name}: a die roll of cards`)
          : actButton(t, k, `Explore ${loc.name}: flip ${plural(Number(k), 'card')}`, 'k');
      }), texts[0].endsWith('roll') ? null : h('span', {class: 'ee-explore-label'}, 'cards')) : null);
  });
  const newTile = h('li', {class: 'ee-location ee-new', 'aria-label': 'Location deck'},
    h('div', {class: 'ee-loc-head'}, h('b', {}, 'Location deck')),
    h('div', {class: 'ee-loc-facts'}, h('span', {}, `${plural(view.location_deck, 'location')} face down`)),
    parsed.simple.has('new') ? actButton('new', 'Explore a new location', 'Explore a new location from the Location deck', 'primary') : null);
  return h('section', {class: 'ee-locations', 'aria-label': 'Locations'},
    h('h3', {}, 'Locations'),
    h('ul', {class: 'ee-loc-grid'}, tiles, newTile));
}

function handCards(view, ctx, seat, parsed, mine) {
  const p = view.players[seat];
  const trading = mine && parsed.trades.length;
  const asking = !mine && parsed.trades.some((t) => t.seat === seat);
  if (!p.hand.length) return h('p', {class: 'ee-empty'}, 'empty hand');
  return h('ul', {class: 'ee-hand', 'aria-label': `${labelOf(ctx, seat)} hand`}, grouped(p.hand).map(([name, n]) => {
    const card = info(ctx, name);
    const texts = mine ? (parsed.byCard.get(card.slug) || []) : [];
    const controls = texts.map((t) => {
      const [label, aria] = cardActionLabel(ctx, t, card, name);
      return actButton(t, label, aria, 'small');
    });
    if (trading && parsed.trades.some((t) => t.give === card.slug && (sel.seat === null || t.seat === sel.seat)
        && (sel.get === null || t.get === sel.get))) {
      const on = sel.give === card.slug;
      controls.push(h('button', {type: 'button', class: 'ee-select small', 'aria-pressed': String(on),
        'aria-label': `Offer ${name} in a trade`, onclick: () => { sel.give = on ? null : card.slug; ctx.redraw(); }},
      on ? '✓ Offering' : 'Offer in trade'));
    }
    if (asking && parsed.trades.some((t) => t.seat === seat && t.get === card.slug && (sel.give === null || t.give === sel.give))) {
      const on = sel.seat === seat && sel.get === card.slug;
      controls.push(h('button', {type: 'button', class: 'ee-select small', 'aria-pressed': String(on),
        'aria-label': `Ask ${labelOf(ctx, seat)} for ${name} in a trade`, onclick: () => {
          if (on) { sel.seat = null; sel.get = null; } else { sel.seat = seat; sel.get = card.slug; }
          ctx.redraw();
        }}, on ? '✓ Asking' : 'Ask for'));
    }
    const picked = (mine && sel.give === card.slug) || (!mine && sel.seat === seat && sel.get === card.slug);
    return h('li', {class: `ee-card${picked ? ' picked' : ''}${controls.length ? ' live' : ''}`},
      cardFace(ctx, name, n), controls.length ? h('div', {class: 'ee-card-actions'}, controls) : null);
  }));
}

function danger(p) {
  const n = p.catastrophes_in_discard;
  return h('span', {class: `ee-danger d${Math.min(n, DEADLY)}`, 'aria-label': `Danger ${n} of ${DEADLY}`},
    h('span', {'aria-hidden': 'true'}, Array.from({length: DEADLY}, (_, i) => (i < n ? '☠' : '○')).join('')),
    ` danger ${n}/${DEADLY}`);
}

function foodInHand(ctx, p) {
  let food = 0;
  for (const name of p.hand) {
    const card = info(ctx, name);
    food += Math.max((card.discard || {}).food || 0, (card.trash || {}).food || 0);
  }
  return food;
}

function playerPanel(view, ctx, seat, parsed) {
  const p = view.players[seat];
  const expl = view.exploration;
  const acting = (view.acting || []).includes(seat);
  const mine = seat === ctx.mySeat && acting;
  const tags = [];
  if (seat === ctx.mySeat) tags.push(h('span', {class: 'ee-tag you'}, 'you'));
  if (acting && view.step !== 'over') tags.push(h('span', {class: 'ee-tag acting'}, '▶ to act'));
  if (view.first === seat) tags.push(h('span', {class: 'ee-tag first'}, '★ first player'));
  if (expl && expl.location && expl.seat === seat) tags.push(h('span', {class: 'ee-tag exploring'}, '⌕ exploring'));
  const hungry = (view.hungry || []).includes(seat);
  const facts = [h('span', {class: `ee-status st-${p.status}`}, STATUS[p.status] || p.status)];
  if (p.status === 'alive') {
    facts.push(danger(p), h('span', {}, `deck ${p.deck}`), h('span', {}, `discard ${p.discard.length}`),
      h('span', {}, `hand ${p.hand.length}/${ctx.content.hand_size || 5}`),
      h('span', {class: `ee-hunger${hungry ? ' hungry' : ''}`},
        view.phase === 'hunger' ? (hungry ? '! hungry: still to eat' : '✓ fed today') : `food in hand ${foodInHand(ctx, p)}`));
  } else if (p.death_cause) {
    facts.push(h('span', {}, `died of ${p.death_cause}`));
  }
  const queueAt = (view.queue || []).indexOf(seat);
  if (queueAt >= 0) facts.push(h('span', {}, `death queue #${queueAt + 1}`));
  const msTexts = parsed.ms.get(seat) || [];
  return h('section', {class: `ee-player st-${p.status}${seat === ctx.mySeat ? ' mine' : ''}${acting ? ' acting' : ''}`,
    'aria-label': `${labelOf(ctx, seat)} survivor`},
  h('h3', {}, ctx.seatChip ? ctx.seatChip(seat) : null, h('span', {class: 'ee-player-name'}, ctx.playerName(seat)),
    ' ', h('span', {class: 'ee-seat-name'}, ctx.seatName(seat)), ' ', tags),
  h('div', {class: 'ee-facts'}, facts),
  p.status === 'alive' ? [
    h('h4', {}, `Hand (${p.hand.length}, open to all)`), handCards(view, ctx, seat, parsed, mine),
    h('div', {class: 'ee-row'}, h('span', {class: 'ee-row-label'}, 'Discard pile: '), chips(ctx, p.discard, 'empty')),
    h('details', {class: 'ee-deck'}, h('summary', {}, `Deck contents (${p.deck}, order hidden)`), chips(ctx, p.deck_cards || [], 'empty')),
  ] : null,
  p.mournful_card ? h('div', {class: 'ee-mournful'},
    h('h4', {}, 'Mournful card (any survivor may use it)'),
    h('div', {class: `ee-card${msTexts.length ? ' live' : ''}`}, cardFace(ctx, p.mournful_card),
      msTexts.length ? h('div', {class: 'ee-card-actions'}, msTexts.map((t) => {
        const [label, aria] = cardActionLabel(ctx, t.replace(/ ms \d+/, ' x'), info(ctx, p.mournful_card), p.mournful_card);
        return actButton(t, label.startsWith('Play') ? 'Play charm' : label, `${aria} (${labelOf(ctx, seat)}'s Mournful card)`, 'small');
      })) : null)) : null);
}

function poolPanel(view, ctx, parsed) {
  const pool = view.pool || [];
  const queue = view.queue || [];
  if (!pool.length && !queue.length) return null;
  return h('section', {class: 'ee-pool', 'aria-label': 'Survivor pool'},
    h('h3', {}, 'Survivor pool'),
    pool.length ? h('ol', {class: 'ee-piles'}, pool.map((pile, i) => {
      const text = `pick ${i + 1}`;
      return h('li', {class: 'ee-pile'}, h('b', {}, `Pile ${i + 1}: ${pile[0]}`), ' with ',
        chips(ctx, pile.slice(1), 'no cards'),
        parsed.simple.has(text) ? actButton(text, `Take over ${pile[0]}`, `Take over survivor pile ${i + 1}, ${pile[0]}`, 'primary') : null);
    })) : h('p', {class: 'ee-empty'}, 'No survivor waits in the pool.'),
    queue.length ? h('p', {}, 'Death queue (picks in this order): ', queue.map((s) => who(ctx, s)).join(', ')) : null);
}

function decksPanel(view, ctx) {
  const d = view.decks || {};
  return h('section', {class: 'ee-decks', 'aria-label': 'Shared decks'},
    h('span', {}, `Salvage ${d.SALVAGE ?? 0}`), h('span', {}, `Survivor ${d.SURVIVOR ?? 0}`),
    h('span', {}, `Catastrophe ${d.CATASTROPHE ?? 0}`), h('span', {}, `Night ${d.NIGHT ?? 0}`),
    (view.night_discard || []).length ? h('span', {}, `Night discard: ${view.night_discard.join(', ')}`) : null);
}

/** Draw the board (the board interface: boards/README.md). */
export function render(board, actions, view, legal, ctx, act) {
  boxes = [board, actions];
  shown = new Set();
  send = act;
  const key = `${legal.join('|')}`;
  if (sel.key !== key) sel = {key, give: null, seat: null, get: null};
  const mine = ctx.mySeat !== null ? legal : [];
  const parsed = parseLegal(mine);
  const order = view.players.map((_, s) => s);
  if (ctx.mySeat !== null) order.sort((a, b) => (a === ctx.mySeat ? -1 : b === ctx.mySeat ? 1 : a - b));
  const content = h('div', {class: 'ee-board'},
    h('header', {class: 'ee-head'},
      h('div', {class: 'ee-day'}, h('b', {}, `Day ${view.day}`), ` · first player ${who(ctx, view.first)}`),
      stepper(view), prompt(view, ctx), progress(view), stepControls(view, ctx, parsed)),
    offerPanel(view, ctx, parsed),
    explorationPanel(view, ctx, parsed),
    view.step === 'pick' ? poolPanel(view, ctx, parsed) : null,  // the decision, up front
    locationsPanel(view, ctx, parsed),
    h('div', {class: 'ee-players'}, order.map((s) => playerPanel(view, ctx, s, parsed))),
    view.step === 'pick' ? null : poolPanel(view, ctx, parsed),
    decksPanel(view, ctx));
  fill(board, content);
  // legal actions the board has no place for: a small, labelled group (rules page, Web board)
  const rest = mine.filter((t) => !shown.has(t) && !(t.startsWith('trade ') && parsed.trades.length));
  const watching = ctx.mySeat === null ? h('p', {class: 'hint'}, 'You are watching.') : null;
  fill(actions, watching, rest.length ? h('div', {class: 'ee-other', role: 'group', 'aria-label': 'Other moves'},
    h('h2', {}, 'Other moves'), h('p', {class: 'hint'}, 'Legal moves the board does not show on a card or location.'),
    rest.map((t) => actButton(t, t, t))) : null);
}

export const actionsFirst = false;

/** How the team's loss reads (`outcome.cause`, rules.py `outcome`): the last death's cause. */
const LOSS = {
  starvation: 'the last survivor starved',
  combat: 'the last survivor died in a lost combat',
  collapse: 'the last survivor died of injuries (a collapse)',
  curse: 'the last survivor died of a curse',
};

/**
 * The result in words (boards/README.md, `resultText`): what happened to the team (won: the
 * Recovered VP reached the target; lost: the cause) and to each survivor. `returns[seat]` is 1
 * for a survivor alive when the team wins, else 0 (rules.py `returns`), so on a win 0 means the
 * survivor did not live to see it; on a loss the view's status says who was still alive.
 */
export function resultText(result, view, ctx) {
  const outcome = result.outcome || {};
  if (!('team_win' in outcome)) return null;
  const me = ctx.mySeat;
  const vp = outcome.recovered_vp ?? (view && view.recovered_vp);
  const target = view && view.target_vp;
  const status = (seat) => (view && view.players && view.players[seat] ? view.players[seat].status : null);
  const seats = (result.returns || []).map((_, seat) => seat);
  let headline;
  if (outcome.team_win) {
    let who = 'The team won';
    if (me !== null) who = result.returns[me] > 0 ? 'The team won and you survived' : 'The team won, but you did not survive';
    headline = `${who}: ${vp} VP Recovered${target ? ` (the target was ${target})` : ''}.`;
  } else if (outcome.cause === 'truncation' || result.truncated) {
    headline = `The team lost: the day cap came first, with ${vp} of ${target ?? '?'} VP Recovered.`;
  } else {
    headline = `The team lost: ${LOSS[outcome.cause] || `no survivor was left (${outcome.cause || 'no cause given'})`}.`;
  }
  const rows = seats.map((seat) => {
    if (outcome.team_win) return result.returns[seat] > 0 ? 'survived: won with the team' : 'did not survive (the team won)';
    return status(seat) === 'alive' ? 'survived, but the team lost' : 'did not survive: lost with the team';
  });
  return {headline, rows};
}
