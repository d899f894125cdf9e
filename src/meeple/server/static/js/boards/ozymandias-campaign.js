// Ozymandias (campaign edition): the sector map as an SVG graph (tiles, points, colony stacks,
// standing workers, open ports), every seat's tableau (cards with cubes, tap state, laid-down
// and harvest workers), the seat's hand, the war and exploration panels. Played by clicking:
// a point, a tableau card, a hand card, an incoming or migrating cube then a card (or Out), a
// port of the drawn tile; the turn panel holds the mode choice and the step closers (pass,
// done, end, keep). Colours always come with a letter or digit (suit G/R/B, seat number) and
// points differ by shape (colony square, intersection circle, hazard triangle).
// Layout and interaction choices: docs/rules/ozymandias-campaign.md, "Web board".
import {fill, h} from '../dom.js';

/** This board has its own stylesheet, static/boards/ozymandias-campaign.css (boards/README.md). */
export const stylesheet = true;
/** What the result table calls the score (the game's `score_name`). */
export const scoreName = 'VP';

const SVG = 'http://www.w3.org/2000/svg';
const SUITS = ['GOLD', 'RED', 'BLUE'];
const LETTER = {GOLD: 'G', RED: 'R', BLUE: 'B'};
const SUIT_OF = {G: 'GOLD', R: 'RED', B: 'BLUE'};
const TILE = 280;   // a tile's side in map units
const GAP = 60;     // between tiles
const STEP_LABEL = {
  intake: 'Intake', migrate: 'Migration', campaign: 'Campaign', pass: 'Pass the rest on',
  done: 'Done recovering', end: 'End the campaign', keep: 'Keep the rest here',
};
const MODE_HINT = {
  intake: 'place incoming cubes, collapse tapped cards, draw up to the hand size',
  migrate: 'move cubes right-wards, lower unrest, take back standing workers',
  campaign: 'place workers: stand, colonise, lay down, harvest',
};

// what the person is building (a cube to place, a map port to explore from), per decision
let ui = {key: null, sel: null};

/** An SVG element: attributes, listeners (`onclick`), children (strings become text nodes). */
function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const cardSuit = (name) => SUIT_OF[name.charAt(0)];
const cardRank = (name) => Number(name.slice(1));
const pointTile = (point) => point.split(':')[0];
const pointId = (point) => point.split(':')[1];

/** The legal action texts sorted by where they are played on the board. */
export function indexLegal(legal) {
  const ix = {point: new Map(), card: new Map(), hand: new Map(), cube: new Map(),
    attach: new Map(), step: [], other: []};
  for (const text of legal) {
    const w = text.split(' ');
    const verb = w[0];
    if ((verb === 'stand' || verb === 'colony') && w.length === 2) ix.point.set(w[1], {text, verb});
    else if (verb === 'recover' && w[1] === 'card') ix.card.set(Number(w[2]), {text, verb: 'recover'});
    else if (verb === 'recover' && w.length === 2) ix.point.set(w[1], {text, verb});
    else if ((verb === 'lay' || verb === 'harvest') && w.length === 2) ix.card.set(Number(w[1]), {text, verb});
    else if ((verb === 'fight' || verb === 'play') && w.length === 2) ix.hand.set(w[1], {text, verb});
    else if ((verb === 'cube' || verb === 'move') && w.length === 3) {
      const suit = SUIT_OF[w[1]] || w[1];
      if (!ix.cube.has(suit)) ix.cube.set(suit, new Map());
      ix.cube.get(suit).set(w[2], {text, verb});
    } else if (verb === 'attach' && w.length === 3) {
      if (!ix.attach.has(w[1])) ix.attach.set(w[1], new Map());
      ix.attach.get(w[1]).set(w[2], {text, verb});
    } else if (STEP_LABEL[verb] && w.length === 1) ix.step.push(text);
    else ix.other.push(text);
  }
  return ix;
}

/** Mark every control as sent and play `text` (the server's next state redraws the board). */
function sender(act) {
  return (text) => {
    for (const node of document.querySelectorAll('.oz-board [data-action], .oz-board [data-select],' +
      ' .oz-turn [data-action], .oz-turn [data-select]')) {
      if (node.tagName === 'BUTTON') node.disabled = true;
      else { node.removeAttribute('tabindex'); node.setAttribute('aria-disabled', 'true'); }
      node.classList.toggle('sent', node.dataset.action === text);
    }
    ui.sel = null;
    act(text);
  };
}

/** An SVG group that behaves as a button (tabindex, role, label, Enter/Space). */
function svgButton(label, onAct, attrs, ...children) {
  const press = (e) => { e.preventDefault(); onAct(); };
  return s('g', {...attrs, class: `hit ${attrs.class || ''}`, tabindex: 0, role: 'button', 'aria-label': label,
    onclick: press, onkeydown: (e) => { if (e.key === 'Enter' || e.key === ' ') press(e); }}, ...children);
}

/** How this board names a seat: as the page does (its person), set by `render`. */
let nameOf = (seat) => `seat ${seat + 1}`;

/** A seat's worker token: its colour and its number, counted from 1 (seat 1 is the first). */
function seatTok(seat, extra = '') {
  return h('span', {class: `oz-tok s${seat} ${extra}`, title: nameOf(seat)}, String(seat + 1));
}

function cubeChip(suit, count, extra = '') {
  return h('span', {class: `oz-cube c-${suit} ${extra}`, title: `${count} ${suit} cube${count === 1 ? '' : 's'}`},
    `${LETTER[suit]}${count > 1 ? `×${count}` : ''}`);
}

// ------------------------------------------------------------------------------------ map
/** Grid cells for the placed tiles: the first at (0, 0), each joined tile next to the tile it
 * joined, on the side of the exploring point. */
function mapCells(view, content) {
  const cells = new Map();
  const taken = new Set();
  const free = (c, r) => !taken.has(`${c},${r}`);
  const put = (tile, c, r) => { cells.set(tile, [c, r]); taken.add(`${c},${r}`); };
  for (const placement of view.map) {
    if (!placement.join) {
      let c = 0;
      while (!free(c, 0)) c += 1;
      put(placement.tile, c, 0);
      continue;
    }
    const at = placement.join[0];
    const parent = cells.get(pointTile(at)) || [0, 0];
    const p = content.tiles[pointTile(at)].points[pointId(at)];
    const angle = Math.atan2(p.y - 0.5, p.x - 0.5);
    let best = null;
    for (let ring = 1; ring < 6 && !best; ring += 1) {
      const options = [];
      for (let dc = -ring; dc <= ring; dc += 1) {
        for (let dr = -ring; dr <= ring; dr += 1) {
          if (Math.max(Math.abs(dc), Math.abs(dr)) !== ring || !free(parent[0] + dc, parent[1] + dr)) continue;
          let diff = Math.abs(Math.atan2(dr, dc) - angle);
          if (diff > Math.PI) diff = 2 * Math.PI - diff;
          options.push([diff + (dc && dr ? 0.9 : 0), dc, dr]);
        }
      }
      options.sort((a, b) => a[0] - b[0]);
      if (options.length) best = [parent[0] + options[0][1], parent[1] + options[0][2]];
    }
    put(placement.tile, ...(best || [cells.size, 0]));
  }
  return cells;
}

function drawMap(view, ctx, ix, send) {
  const content = ctx.content;
  const cells = mapCells(view, content);
  const cols = [...cells.values()].map((c) => c[0]);
  const rows = [...cells.values()].map((c) => c[1]);
  const minC = Math.min(...cols);
  const minR = Math.min(...rows);
  const width = (Math.max(...cols) - minC + 1) * (TILE + GAP) + GAP;
  const height = (Math.max(...rows) - minR + 1) * (TILE + GAP) + GAP;
  const origin = (tile) => {
    const [c, r] = cells.get(tile);
    return [GAP + (c - minC) * (TILE + GAP), GAP + (r - minR) * (TILE + GAP)];
  };
  const at = (point) => {
    const tile = pointTile(point);
    const [x0, y0] = origin(tile);
    const p = content.tiles[tile].points[pointId(point)];
    return [x0 + p.x * TILE, y0 + p.y * TILE];
  };
  const tilesLayer = s('g', {class: 'tiles'});
  const linesLayer = s('g', {class: 'lines'});
  const portsLayer = s('g', {class: 'ports'});
  const pointsLayer = s('g', {class: 'points'});
  const exploringAt = view.explore ? view.explore.at : null;
  const warAt = view.war ? view.war.point : null;
  for (const placement of view.map) {
    const tile = content.tiles[placement.tile];
    const [x0, y0] = origin(placement.tile);
    tilesLayer.append(s('rect', {class: `tile t-${tile.suit}`, x: x0, y: y0, width: TILE, height: TILE, rx: 14}),
      s('text', {class: 'tile-name', x: x0 + 10, y: y0 + 22},
        `${placement.tile} · ${LETTER[tile.suit]} ${tile.suit}`));
    for (const [a, b] of tile.lines) {
      const [x1, y1] = at(`${placement.tile}:${a}`);
      const [x2, y2] = at(`${placement.tile}:${b}`);
      linesLayer.append(s('line', {x1, y1, x2, y2}));
    }
    if (placement.join) {
      const [from, , tilePort] = placement.join;
      const [x1, y1] = at(from);
      const [x2, y2] = at(`${placement.tile}:${tile.ports[tilePort]}`);
      linesLayer.append(s('line', {class: 'join', x1, y1, x2, y2}));
    }
  }
  for (const [point, port] of view.open_ports) {
    const tile = content.tiles[pointTile(point)];
    const [x, y] = at(point);
    const [x0, y0] = origin(pointTile(point));
    const p = tile.points[pointId(point)];
    let dx = p.x - 0.5;
    let dy = p.y - 0.5;
    const len = Math.hypot(dx, dy) || 1;
    // several ports of one point fan out a little
    const ports = Object.entries(tile.ports).filter(([, pt]) => pt === pointId(point)).map(([name]) => name);
    const turn = (ports.indexOf(port) - (ports.length - 1) / 2) * 0.5;
    [dx, dy] = [dx / len, dy / len];
    [dx, dy] = [dx * Math.cos(turn) - dy * Math.sin(turn), dx * Math.sin(turn) + dy * Math.cos(turn)];
    const ex = Math.min(x0 + TILE + GAP * 0.3, Math.max(x0 - GAP * 0.3, x + dx * 40));
    const ey = Math.min(y0 + TILE + GAP * 0.3, Math.max(y0 - GAP * 0.3, y + dy * 40));
    const live = point === exploringAt;
    portsLayer.append(s('g', {class: `port${live ? ' live' : ''}`},
      s('line', {x1: x, y1: y, x2: ex, y2: ey}),
      s('text', {x: ex + dx * 8, y: ey + dy * 8 + 4, 'text-anchor': 'middle'}, port)));
  }
  for (const placement of view.map) {
    const tile = content.tiles[placement.tile];
    for (const [id, p] of Object.entries(tile.points)) {
      const point = `${placement.tile}:${id}`;
      pointsLayer.append(drawPoint(point, p.kind, at(point), view, ix, send, {war: point === warAt,
        exploring: point === exploringAt, side: p.x > 0.6 ? -1 : 1}));
    }
  }
  const svg = s('svg', {class: 'oz-map', viewBox: `0 0 ${width} ${height}`, role: 'group',
    'aria-label': `Sector map: ${view.map.length} tile${view.map.length === 1 ? '' : 's'}`,
    style: `width: ${width}px; min-width: ${Math.round(Math.min(width, Math.max(300, width * 0.7)))}px`},
  tilesLayer, linesLayer, portsLayer, pointsLayer);
  // a map wider than its box scrolls sideways: a hint and a shadow on the side with more
  // (markScroll turns them on once the box is laid out)
  return h('div', {class: 'oz-map-wrap'},
    h('p', {class: 'oz-scroll-hint', id: 'oz-scroll-hint'}, '⇆ The map is wider than the screen: swipe or scroll it sideways.'),
    h('div', {class: 'oz-map-frame'}, h('div', {class: 'oz-map-box', tabindex: 0, role: 'region',
      'aria-label': 'Sector map (scrolls sideways when wider than the screen)', 'aria-describedby': 'oz-scroll-hint'}, svg)));
}

const KIND_NAME = {COLONY: 'colony', INTERSECTION: 'intersection', HAZARD: 'hazard'};

function drawPoint(point, kind, [x, y], view, ix, send, flags) {
  // a colony's stack goes on the side facing the tile's centre (flags.side: 1 right, -1 left)
  const parts = [];
  const label = [`${point} (${KIND_NAME[kind]})`];
  if (kind === 'COLONY') {
    parts.push(s('rect', {class: 'pt colony', x: x - 13, y: y - 13, width: 26, height: 26, rx: 4}),
      s('text', {class: 'pt-mark', x, y: y + 5, 'text-anchor': 'middle'}, 'C'));
    const stack = view.stacks[point] || [];
    if (stack.length) {
      label.push(`stack bottom to top: ${stack.map((seat) => nameOf(seat)).join(', ')}`);
      const shown = stack.slice(-5);
      shown.forEach((seat, i) => {
        const cx = flags.side > 0 ? x + 24 + i * 13 : x - 24 - (shown.length - 1 - i) * 13;
        const top = i === shown.length - 1;
        parts.push(s('g', {class: `worker lying s${seat}${top ? ' top' : ''}`},
          s('rect', {x: cx - 7, y: y - 9, width: 14, height: 18, rx: 3}),
          s('text', {x: cx, y: y + 4, 'text-anchor': 'middle'}, String(seat + 1))));
      });
      if (stack.length > shown.length) {
        parts.push(s('text', {class: 'more', x: x - 20, y: y + 36}, `+${stack.length - shown.length} below`));
      }
    }
  } else if (kind === 'HAZARD') {
    parts.push(s('path', {class: 'pt hazard', d: `M ${x} ${y - 11} L ${x + 10} ${y + 7} L ${x - 10} ${y + 7} Z`}));
  } else {
    parts.push(s('circle', {class: 'pt intersection', cx: x, cy: y, r: 8}));
  }
  const stander = view.standing[point];
  if (stander !== undefined) {
    label.push(`${nameOf(stander)} stands here`);
    parts.push(s('g', {class: `worker standing s${stander}`},
      s('circle', {cx: x, cy: y - 4, r: 11}),
      s('text', {x, y: y, 'text-anchor': 'middle'}, String(stander + 1))));
  }
  parts.push(s('text', {class: 'pt-name', x: x - 12, y: y + 24}, pointId(point)));
  if (flags.war) parts.push(s('text', {class: 'war-mark', x: x - 30, y: y - 14}, '⚔ war'));
  if (flags.exploring) parts.push(s('text', {class: 'war-mark', x: x - 30, y: y - 16}, 'exploring'));
  const move = ix.point.get(point);
  const title = s('title', {}, label.join('; '));
  if (!move) return s('g', {class: 'point'}, title, ...parts);
  const verbs = {stand: 'Stand a worker on', colony: 'Lay a colony worker on', recover: 'Take back your worker from'};
  const ring = kind === 'COLONY'
    ? s('rect', {class: 'ring', x: x - 19, y: y - 19, width: 38, height: 38, rx: 8})
    : s('circle', {class: 'ring', cx: x, cy: y, r: 18});
  return svgButton(`${verbs[move.verb]} ${point} (${KIND_NAME[kind]})`, () => send(move.text),
    {class: `point clickable v-${move.verb}`, 'data-action': move.text}, title, ring, ...parts);
}

// ------------------------------------------------------------------------- explore, war
function drawTile(tileId, content, ix, send, selPort) {
  const tile = content.tiles[tileId];
  const size = 200;
  const pad = 34;
  const at = (id) => [pad + tile.points[id].x * size, pad + tile.points[id].y * size];
  const layer = [];
  layer.push(s('rect', {class: `tile t-${tile.suit}`, x: pad, y: pad, width: size, height: size, rx: 12}));
  for (const [a, b] of tile.lines) {
    const [x1, y1] = at(a);
    const [x2, y2] = at(b);
    layer.push(s('line', {class: 'edge', x1, y1, x2, y2}));
  }
  for (const [id, p] of Object.entries(tile.points)) {
    const [x, y] = at(id);
    if (p.kind === 'COLONY') layer.push(s('rect', {class: 'pt colony', x: x - 11, y: y - 11, width: 22, height: 22, rx: 4}));
    else if (p.kind === 'HAZARD') layer.push(s('path', {class: 'pt hazard', d: `M ${x} ${y - 9} L ${x + 8} ${y + 6} L ${x - 8} ${y + 6} Z`}));
    else layer.push(s('circle', {class: 'pt intersection', cx: x, cy: y, r: 7}));
    layer.push(s('text', {class: 'pt-name', x: x + 9, y: y + 16}, id));
  }
  const choices = selPort !== null ? ix.attach.get(selPort) : null;
  for (const [port, id] of Object.entries(tile.ports)) {
    const [x, y] = at(id);
    let dx = tile.points[id].x - 0.5;
    let dy = tile.points[id].y - 0.5;
    const len = Math.hypot(dx, dy) || 1;
    const same = Object.entries(tile.ports).filter(([, pt]) => pt === id).map(([n]) => n);
    const turn = (same.indexOf(port) - (same.length - 1) / 2) * 0.6;
    [dx, dy] = [dx / len, dy / len];
    [dx, dy] = [dx * Math.cos(turn) - dy * Math.sin(turn), dx * Math.sin(turn) + dy * Math.cos(turn)];
    const ex = Math.min(pad + size + 22, Math.max(pad - 22, x + dx * 60));
    const ey = Math.min(pad + size + 22, Math.max(pad - 22, y + dy * 60));
    const stub = [s('line', {x1: x, y1: y, x2: ex, y2: ey}), s('circle', {class: 'port-end', cx: ex, cy: ey, r: 12}),
      s('text', {x: ex, y: ey + 5, 'text-anchor': 'middle'}, port)];
    const move = choices && choices.get(port);
    if (move) {
      layer.push(svgButton(`Join the drawn tile ${tileId} by its port ${port} (${KIND_NAME[tile.points[id].kind]} ${id})`,
        () => send(move.text), {class: 'port live clickable', 'data-action': move.text}, ...stub));
    } else {
      layer.push(s('g', {class: 'port'}, ...stub));
    }
  }
  return s('svg', {class: 'oz-tile', viewBox: `0 0 ${size + 2 * pad} ${size + 2 * pad}`, role: 'group',
    'aria-label': `Drawn tile ${tileId}`}, ...layer);
}

function explorePanel(view, ctx, ix, send) {
  const ex = view.explore;
  if (!ex) return null;
  const mapPorts = [...ix.attach.keys()];
  let selPort = null;
  if (mapPorts.length === 1) selPort = mapPorts[0];
  else if (ui.sel && ui.sel.kind === 'port' && ix.attach.has(ui.sel.port)) selPort = ui.sel.port;
  const who = nameOf(view.active);
  return h('section', {class: 'oz-explore', 'aria-label': 'Exploration'},
    h('h3', {}, `Exploring from ${ex.at}: ${who} drew tile ${ex.tile} (${LETTER[ex.suit]} ${ex.suit})`),
    mapPorts.length > 1 ? h('div', {class: 'oz-row'}, h('span', {}, 'Map port: '), mapPorts.map((port) =>
      h('button', {class: `oz-choice${selPort === port ? ' selected' : ''}`, 'aria-pressed': String(selPort === port),
        'data-select': `port ${port}`, onclick: () => { ui.sel = {kind: 'port', port}; ctx.redraw(); }},
      `Port ${port} of ${ex.at}`))) : null,
    ix.attach.size ? h('p', {class: 'hint'}, selPort === null ? 'Choose the map port first, then a port of the drawn tile.'
      : `Click the port of ${ex.tile} to join to port ${selPort} of ${ex.at} (which way the tile faces).`) : null,
    drawTile(ex.tile, ctx.content, ix, send, selPort));
}

/** The latest resolved war in the view's events: {point, cards: [[seat, card|null]], winner}. */
export function lastWar(view) {
  for (let i = (view.events || []).length - 1; i >= 0; i -= 1) {
    const [round, , text] = view.events[i];
    const m = /^war at (\S+): Seat (\d+) (\S+(?: card)?), Seat (\d+) (\S+(?: card)?); Seat (\d+) wins$/.exec(text);
    if (m) {
      const card = (t) => (t === 'no card' ? null : t);
      return {round, point: m[1], cards: [[Number(m[2]), card(m[3])], [Number(m[4]), card(m[5])]], winner: Number(m[6])};
    }
  }
  return null;
}

function faceCard(name, extra = '') {
  if (!name) return h('span', {class: `oz-card mini none ${extra}`}, 'no card');
  const suit = cardSuit(name);
  return h('span', {class: `oz-card mini c-${suit} ${extra}`}, h('b', {}, name), h('small', {}, ` ${suit} ${cardRank(name)}`));
}

function warPanel(view, ctx) {
  const war = view.war;
  const last = lastWar(view);
  const parts = [];
  if (war) {
    const submitted = new Set(view.submitted || []);
    const state = (seat) => (submitted.has(seat) ? 'card chosen (face down)' : 'choosing a card');
    parts.push(h('div', {class: 'oz-war live'},
      h('h3', {}, `⚔ War at ${war.point} (${war.kind === 'stand' ? 'standing' : 'colony'} war)`),
      h('p', {}, `${war.sector_suit} sector: ${LETTER[war.sector_suit]} cards count double. The attacker wins ties.`),
      h('ul', {class: 'oz-fighters'},
        h('li', {}, seatTok(war.attacker), ` ${nameOf(war.attacker)} attacks: ${state(war.attacker)}`),
        h('li', {}, seatTok(war.defender), ` ${nameOf(war.defender)} defends: ${state(war.defender)}`)),
      view.my_submission ? h('p', {class: 'submitted-note'}, `Your card: ${view.my_submission.replace(/^fight /, '')}. Both cards are revealed together.`) : null));
  }
  if (last) {
    const tile = pointTile(last.point);
    const suit = ctx.content.tiles[tile] ? ctx.content.tiles[tile].suit : null;
    const strength = (card) => (card ? cardRank(card) * (cardSuit(card) === suit ? 2 : 1) : 0);
    parts.push(h('div', {class: 'oz-war revealed', 'aria-label': 'Last war revealed'},
      h('h3', {}, `Last war, round ${last.round}: ${last.point}`),
      h('div', {class: 'oz-reveal'}, last.cards.map(([seat, card]) => h('div', {class: `oz-fighter${seat === last.winner ? ' won' : ''}`},
        seatTok(seat), ` ${nameOf(seat)} `, faceCard(card),
        h('span', {class: 'strength'}, card ? ` strength ${strength(card)}${cardSuit(card) === suit ? ' (doubled)' : ''}` : ''),
        seat === last.winner ? h('b', {class: 'won-tag'}, ' ✔ wins') : null)))));
  }
  return parts.length ? h('section', {class: 'oz-wars', 'aria-label': 'War'}, parts) : null;
}

// ----------------------------------------------------------------------------- tableaus
function selectedSuit(view, ix) {
  const suits = [...ix.cube.keys()];
  if (ui.sel && ui.sel.kind === 'cube' && ix.cube.has(ui.sel.suit)) return ui.sel.suit;
  return suits.length === 1 ? suits[0] : null;
}

function tableauCard(card, pos, seat, view, ctx, ix, send, mine) {
  const n = pos + 1;
  const migrating = mine && view.migrating === pos && view.step === 'migrate';
  const cubes = SUITS.filter((suit) => card.cubes[suit]);
  const suitSel = mine ? selectedSuit(view, ix) : null;
  const body = [
    h('span', {class: 'pos'}, `#${n}`),
    h('span', {class: 'name'}, h('b', {}, card.card), h('small', {}, ` ${card.suit} ${card.rank}`)),
    h('span', {class: 'oz-cubes'}, cubes.length ? cubes.map((suit) => {
      const pick = migrating && ix.cube.has(suit);
      if (!pick) return cubeChip(suit, card.cubes[suit]);
      const on = suitSel === suit;
      return h('button', {class: `oz-cube c-${suit} pick${on ? ' selected' : ''}`, 'aria-pressed': String(on),
        'data-select': `cube ${LETTER[suit]}`, 'aria-label': `Select a ${suit} cube of card ${n} to move`,
        onclick: (e) => { e.stopPropagation(); ui.sel = {kind: 'cube', suit}; ctx.redraw(); }},
      `${LETTER[suit]}${card.cubes[suit] > 1 ? `×${card.cubes[suit]}` : ''}`);
    }) : h('span', {class: 'empty'}, 'no cubes')),
    h('span', {class: 'marks'},
      card.tapped ? h('span', {class: 'tag tapped'}, '↻ tapped') : null,
      card.laid ? h('span', {class: `oz-tok lying s${seat}`, title: 'laid-down worker'}, `${seat} laid`) : null,
      card.harvest ? h('span', {class: `oz-tok s${seat}`, title: 'harvest worker'}, `${seat} harvest`) : null,
      migrating ? h('span', {class: 'tag migrating'}, 'migrating') : null),
  ];
  const cls = `oz-card c-${card.suit}${card.tapped ? ' tapped' : ''}${migrating ? ' migrating' : ''}`;
  let move = mine ? ix.card.get(n) : null;
  let label = '';
  let verb = '';
  if (move) {
    label = {lay: `Lay a worker down on card ${n} (${card.card})`, harvest: `Put a harvest worker on tapped card ${n} (${card.card})`,
      recover: `Take back the harvest worker from card ${n} (${card.card})`}[move.verb];
    verb = {lay: '+ lay a worker down', harvest: '+ harvest worker', recover: '↩ take back worker'}[move.verb];
  } else if (mine && suitSel && ix.cube.get(suitSel).has(String(n))) {
    move = ix.cube.get(suitSel).get(String(n));
    label = `${move.verb === 'cube' ? 'Put' : 'Move'} a ${suitSel} cube on card ${n} (${card.card})`;
    verb = `+ ${LETTER[suitSel]} cube here`;
  }
  if (move && !migrating) {
    return h('li', {}, h('button', {class: `${cls} clickable v-${move.verb}`, 'data-action': move.text, 'aria-label': label,
      onclick: () => send(move.text)}, body, h('span', {class: 'verb'}, verb)));
  }
  return h('li', {}, h('div', {class: cls, 'aria-label': `Card ${n}: ${card.card}${card.tapped ? ', tapped' : ''}`}, body));
}

function playerPanel(seat, view, ctx, ix, send) {
  const p = view.players[seat];
  const mine = seat === ctx.mySeat;
  const right = view.right_of[seat];
  const suitSel = mine ? selectedSuit(view, ix) : null;
  const incoming = SUITS.filter((suit) => p.incoming[suit]).map((suit) => {
    const pick = mine && view.step === 'distribute' && ix.cube.has(suit);
    if (!pick) return cubeChip(suit, p.incoming[suit]);
    const on = suitSel === suit;
    return h('button', {class: `oz-cube c-${suit} pick${on ? ' selected' : ''}`, 'aria-pressed': String(on),
      'data-select': `cube ${LETTER[suit]}`, 'aria-label': `Select an incoming ${suit} cube`,
      onclick: () => { ui.sel = {kind: 'cube', suit}; ctx.redraw(); }},
    `${LETTER[suit]}${p.incoming[suit] > 1 ? `×${p.incoming[suit]}` : ''}`);
  });
  let out = null;
  if (mine && suitSel && ix.cube.get(suitSel).has('out')) {
    const move = ix.cube.get(suitSel).get('out');
    out = h('li', {}, h('button', {class: 'oz-out clickable', 'data-action': move.text,
      'aria-label': `Move a ${suitSel} cube out to ${nameOf(right)}`, onclick: () => send(move.text)},
    `→ ${LETTER[suitSel]} out to ${nameOf(right)}`));
  }
  const active = view.active === seat && !view.winners;
  const acting = (view.acting || []).includes(seat);
  const hand = mine && view.hand ? h('div', {class: 'oz-hand', role: 'group', 'aria-label': 'Your hand'},
    h('h4', {}, `Your hand (${view.hand.length})`),
    h('ul', {class: 'oz-cards'}, view.hand.map((card) => {
      const move = ix.hand.get(card);
      const suit = cardSuit(card);
      const body = [h('b', {}, card), h('small', {}, ` ${suit} ${cardRank(card)}`)];
      if (!move) return h('li', {}, h('span', {class: `oz-card hand c-${suit}`}, body));
      let label = `Play ${card} to your tableau`;
      if (move.verb === 'fight') {
        const doubled = view.war && view.war.sector_suit === suit;
        label = `Fight with ${card} (strength ${cardRank(card) * (doubled ? 2 : 1)}${doubled ? ', doubled' : ''})`;
      }
      return h('li', {}, h('button', {class: `oz-card hand c-${suit} clickable v-${move.verb}`, 'data-action': move.text,
        'aria-label': label, onclick: () => send(move.text)}, body, h('span', {class: 'verb'}, move.verb === 'fight' ? `fight (${label.match(/strength \d+/)[0]})` : 'play')));
    }))) : null;
  return h('section', {class: `oz-player${mine ? ' mine' : ''}${active ? ' active' : ''}`, 'aria-label': `${nameOf(seat)} tableau`},
    h('header', {},
      seatTok(seat, 'big'), h('b', {}, ` ${ctx.playerName(seat)}`), ` ${ctx.seatName(seat)}${mine ? ' (you)' : ''}`,
      active ? h('span', {class: 'tag turn'}, '▶ turn') : null,
      acting && !active ? h('span', {class: 'tag turn'}, 'to act') : null,
      view.trigger === seat ? h('span', {class: 'tag'}, `reached ${ctx.content.target_vp || 21}`) : null),
    h('dl', {class: 'oz-facts'},
      h('div', {}, h('dt', {}, 'VP'), h('dd', {}, `${p.vp}`)),
      h('div', {}, h('dt', {}, 'Unrest'), h('dd', {}, String(p.unrest))),
      h('div', {}, h('dt', {}, 'Workers'), h('dd', {}, `${p.supply} supply · ${p.bag} bag`)),
      h('div', {}, h('dt', {}, 'Hand'), h('dd', {}, `${p.hand_size} card${p.hand_size === 1 ? '' : 's'}`)),
      h('div', {class: 'incoming'}, h('dt', {}, 'Incoming'), h('dd', {}, incoming.length ? incoming : h('span', {class: 'empty'}, 'none'))),
      h('div', {}, h('dt', {}, 'Passes right to'), h('dd', {}, nameOf(right)))),
    h('ol', {class: 'oz-tableau', 'aria-label': `${nameOf(seat)} tableau, left to right`},
      p.tableau.length ? p.tableau.map((card, pos) => tableauCard(card, pos, seat, view, ctx, ix, send, mine))
        : h('li', {class: 'empty'}, 'no cards in the tableau'), out),
    hand);
}

// --------------------------------------------------------------------------- turn panel
function stepPrompt(view, ctx, ix) {
  const right = ctx.mySeat === null ? null : nameOf(view.right_of[ctx.mySeat]);
  const card = view.migrating === null ? '' : ` of card ${view.migrating + 1}`;
  return {
    mode: 'Choose your mode for this turn.',
    distribute: `Intake: select an incoming cube, then a card of your tableau; or pass the rest on to ${right}.`,
    recover_colony: `Intake: take back a colony worker: click one of your colonies on the map${view.owed ? ` (${view.owed} owed)` : ''}.`,
    migrate: `Migration: move the cubes${card} right-wards: select a cube, then a card to its right or Out.`,
    recover_standing: 'Migration: take back standing workers (click them on the map, or a harvest worker on a card), or finish.',
    campaign: 'Campaign: click a ringed point to stand or colonise, a card to lay down or harvest; end when done.',
    war: `War at ${view.war ? view.war.point : ''}: choose the card to fight with from your hand.`,
    play: 'Choose the card from your hand to play to your tableau.',
    explore: 'Explore: click a port of the drawn tile to join it to the map.',
  }[view.step] || '';
}

const STEP_NAME = {
  mode: 'choosing a mode', distribute: 'intake: placing cubes', recover_colony: 'intake: recovering colony workers',
  migrate: 'migration', recover_standing: 'migration: recovering workers', campaign: 'campaign', war: 'war',
  play: 'campaign: playing a card', explore: 'exploring', over: 'game over',
};

function turnPanel(view, legal, ctx, ix, send) {
  if (ctx.mySeat === null) return h('div', {class: 'oz-turn'}, h('p', {class: 'hint'}, 'You are watching.'));
  if (ctx.status !== 'running') return null;
  if (!legal.length) {
    const waiting = (view.acting || []).map((seat) => nameOf(seat)).join(', ');
    return h('div', {class: 'oz-turn'}, view.my_submission
      ? h('p', {class: 'submitted-note'}, `Your war card is in (${view.my_submission.replace(/^fight /, '')}). Waiting for ${waiting}.`)
      : h('p', {class: 'hint'}, `Waiting for ${waiting || 'the others'} (${STEP_NAME[view.step] || view.step}).`));
  }
  const suitSel = selectedSuit(view, ix);
  const building = [];
  if (suitSel && ix.cube.size) {
    const verb = [...ix.cube.get(suitSel).values()][0].verb;
    building.push(h('p', {class: 'oz-building', 'aria-live': 'polite'}, 'Building: ', h('code', {}, `${verb} ${LETTER[suitSel]} …`),
      ` (${suitSel} cube selected: now click a ${verb === 'move' ? 'card to its right, or Out' : 'card'})`,
      ui.sel ? h('button', {class: 'oz-cancel', onclick: () => { ui.sel = null; ctx.redraw(); }}, 'Cancel') : null));
  }
  if (ui.sel && ui.sel.kind === 'port' && ix.attach.has(ui.sel.port)) {
    building.push(h('p', {class: 'oz-building'}, 'Building: ', h('code', {}, `attach ${ui.sel.port} …`), ' (now click a port of the drawn tile) ',
      h('button', {class: 'oz-cancel', onclick: () => { ui.sel = null; ctx.redraw(); }}, 'Cancel')));
  }
  return h('div', {class: 'oz-turn'},
    h('h2', {}, 'Your move'),
    h('p', {class: 'prompt'}, stepPrompt(view, ctx, ix)),
    ix.step.length ? h('div', {class: 'oz-steps', role: 'group', 'aria-label': 'Turn choices'}, ix.step.map((text) => {
      const mode = view.step === 'mode';
      let label = STEP_LABEL[text];
      if (text === 'pass') label = `Pass the rest on to ${nameOf(view.right_of[ctx.mySeat])}`;
      return h('button', {class: `oz-step${mode ? ' mode primary' : ''}`, 'data-action': text, onclick: () => send(text)},
        h('b', {}, label), mode ? h('small', {}, MODE_HINT[text]) : null);
    })) : null,
    building,
    ix.other.length ? h('div', {class: 'oz-other', role: 'group', 'aria-label': 'Other moves'},
      h('h4', {}, 'Other moves'), ix.other.map((text) => h('button', {class: 'oz-other-move', 'data-action': text,
        onclick: () => send(text)}, text))) : null);
}

function header(view, ctx) {
  let who;
  if (view.winners) {
    who = `Game over${view.truncated ? ' (round cap)' : ''}: ${view.winners.map((s) => nameOf(s)).join(', ')} ${view.winners.length === 1 ? 'wins' : 'win'}.`;
  } else if (view.step === 'war') {
    who = `War: ${nameOf(view.war.attacker)} against ${nameOf(view.war.defender)}.`;
  } else {
    const name = `${nameOf(view.active)}${view.active === ctx.mySeat ? ' (you)' : ''}`;
    who = `${name}: ${STEP_NAME[view.step] || view.step}.`;
  }
  return h('div', {class: 'oz-head'},
    h('h2', {}, `Round ${view.round} · ${who}`),
    h('p', {class: 'hint'}, `Deck ${view.deck_size} cards · discard ${view.discard.length} · tile deck ${view.tile_deck_size}` +
      ` · ${ctx.content.target_vp || 21} VP triggers the end` +
      (view.trigger !== null && view.trigger !== undefined && !view.winners
        ? ` · ${nameOf(view.trigger)} reached it: last turn ends with ${nameOf(view.last_seat)}` : '')),
    h('p', {class: 'oz-legend', 'aria-hidden': 'true'},
      h('span', {class: 'lg colony'}, '■ colony'), h('span', {class: 'lg'}, '● intersection'), h('span', {class: 'lg'}, '▲ hazard'),
      h('span', {class: 'lg'}, 'numbered tokens: seats\' workers'), h('span', {class: 'lg'}, 'dashed ring: you can click')));
}

/** A map wider than its box says so: the hint shows, and a shadow marks each side with more
 * map beyond it (kept up to date as the person scrolls). */
function markScroll(box) {
  const frame = box && box.parentElement;
  const wrap = frame && frame.parentElement;
  if (!wrap) return;
  const update = () => {
    const scrolls = box.scrollWidth > box.clientWidth + 1;
    wrap.classList.toggle('scrolls', scrolls);
    frame.classList.toggle('more-left', scrolls && box.scrollLeft > 1);
    frame.classList.toggle('more-right', scrolls && box.scrollLeft + box.clientWidth < box.scrollWidth - 1);
  };
  box.addEventListener('scroll', update, {passive: true});
  update();
}

/** A map wider than its box scrolls inside it: keep the person's scroll position across
 * redraws, bring the first clickable point into view, and start at the opening tile. */
function keepMapInView(box, scrolled) {
  if (!box || box.scrollWidth <= box.clientWidth) return;
  if (scrolled !== null) box.scrollLeft = scrolled;
  const target = box.querySelector('g.hit') || (scrolled === null ? box.querySelector('rect.tile') : null);
  if (!target) return;
  const t = target.getBoundingClientRect();
  const r = box.getBoundingClientRect();
  if (t.left < r.left || t.right > r.right) box.scrollLeft += (t.left + t.right) / 2 - (r.left + r.right) / 2;
}

/** Draw the board and the turn panel (the board interface: boards/README.md). */
export function render(board, actions, view, legal, ctx, act) {
  const mine = ctx.mySeat !== null;
  const controls = mine && ctx.status === 'running' ? legal : [];
  const key = `${view.turns}|${view.step}|${controls.join(',')}`;
  if (ui.key !== key) ui = {key, sel: null};
  const ix = indexLegal(controls);
  const send = sender(act);
  board.classList.add('oz-board');
  const oldBox = board.querySelector('.oz-map-box');
  const scrolled = oldBox ? oldBox.scrollLeft : null;
  nameOf = (seat) => (ctx.seatLabel || ctx.seatName)(seat);
  const order = view.players.map((_, i) => (mine ? (ctx.mySeat + i) % view.players.length : i));
  // the seat's own hand and tableau right after the war and the prompt (on a phone they came
  // a screen or two below, after the map): first of the players, and on a narrow screen
  // (boards/ozymandias-campaign.css) before the map
  fill(board,
    header(view, ctx),
    warPanel(view, ctx),
    mine ? h('div', {class: 'oz-players oz-mine'}, playerPanel(ctx.mySeat, view, ctx, ix, send)) : null,
    explorePanel(view, ctx, ix, send),
    drawMap(view, ctx, ix, send),
    h('div', {class: 'oz-players oz-others'}, order.filter((seat) => !mine || seat !== ctx.mySeat)
      .map((seat) => playerPanel(seat, view, ctx, ix, send))));
  keepMapInView(board.querySelector('.oz-map-box'), scrolled);
  markScroll(board.querySelector('.oz-map-box'));
  actions.classList.add('oz-turn-box');
  fill(actions, turnPanel(view, legal, ctx, ix, send));
}

/** The turn panel (mode choice, prompts) comes first on narrow screens. */
export const actionsFirst = true;
