// Battle of the Four Gods, the designer's layout (../shared/notes/battle-of-the-four-gods-online
// .md): every god's energy, one attack and one defend toggle per opponent, a submit button, and
// last round's results. Colours always come with their names, never alone.
import {fill, h} from '../dom.js';

let choice = {round: null, atk: new Set(), def: new Set(), reveal: false};

const letter = (colour) => colour.charAt(0);

function colourTag(colour, extra = '') {
  return h('span', {class: `god god-${colour.toLowerCase()} ${extra}`}, colour);
}

/** The action text for the toggles: `pass`, or `atk:RG def:O` in seat order. */
export function selectionText(colours, atk, def, reveal) {
  const pick = (set) => colours.filter((_, seat) => set.has(seat)).map(letter).join('');
  const parts = [];
  if (atk.size) parts.push(`atk:${pick(atk)}`);
  if (def.size) parts.push(`def:${pick(def)}`);
  let text = parts.length ? parts.join(' ') : 'pass';
  if (reveal) text += ' reveal';
  return text;
}

function energyPanel(view, ctx) {
  const start = Number(ctx.params.start_energy) || 100;
  const pending = new Set(view.to_act || []);
  const submitted = new Set(view.submitted || []);
  return h('ul', {class: 'gods-energy', 'aria-label': 'Energy'}, view.colours.map((colour, seat) => {
    const alive = view.alive[seat];
    let status = '';
    if (!alive) status = `out since round ${view.eliminated_round[seat]}`;
    else if (submitted.has(seat)) status = 'submitted';
    else if (pending.has(seat)) status = 'choosing';
    const energy = view.energy[seat];
    const width = Math.max(0, Math.min(100, (100 * energy) / start));
    return h('li', {class: `god-card god-${colour.toLowerCase()}${alive ? '' : ' out'}` +
        `${seat === ctx.mySeat ? ' mine' : ''}`, dataset: {seat: String(seat)}},
      h('div', {class: 'god-name'}, colour, seat === ctx.mySeat ? ' (you)' : ''),
      h('div', {class: 'god-player'}, ctx.playerName(seat)),
      h('div', {class: 'god-energy', 'aria-label': `${colour} energy ${energy}`},
        h('span', {class: 'energy-value'}, String(energy)), ' energy'),
      h('div', {class: 'energy-bar', role: 'presentation'},
        h('div', {class: 'energy-fill', style: `width: ${width}%`})),
      h('div', {class: `god-status status-${status.split(' ')[0] || 'none'}`}, status || ' '));
  }));
}

/** Whether `attacker`'s attack on `target` was defended in a round's `picks` (the target
 * defended against the attacker, B4G-8), and the energy it moved: `defended (+refund)` for the
 * target, or `hit (-damage)`, as the terminal words it. */
export function attackOutcome(picks, attacker, target, params) {
  const defended = Boolean(picks[target] && picks[target][1].includes(attacker));
  const amount = defended ? `+${params.defend_refund ?? 0}` : `-${params.damage ?? 3}`;
  return {defended, text: `${defended ? 'defended' : 'hit'} (${amount})`};
}

function lastRound(view, ctx) {
  const history = view.history || [];
  if (!history.length) return h('p', {class: 'hint'}, 'No round has been played yet.');
  const [round, picks, deltas, drain] = history[history.length - 1];
  const names = (seats) => (seats.length ? seats.map((s) => colourTag(view.colours[s], 'small'))
    : [h('span', {class: 'hint'}, 'nobody')]);
  // each attack with its outcome: "BLUE defended (+0)", "GREEN hit (-3)"
  const attacks = (attacker, seats) => (seats.length ? h('ul', {class: 'attack-outcomes'},
    seats.map((target) => {
      const outcome = attackOutcome(picks, attacker, target, ctx.params);
      return h('li', {}, colourTag(view.colours[target], 'small'), ' ',
        h('span', {class: `outcome ${outcome.defended ? 'defended' : 'hit'}`}, outcome.text));
    })) : names(seats));
  return h('div', {class: 'last-round'},
    h('h3', {}, `Round ${round} results`),
    h('table', {class: 'view-table results'},
      h('thead', {}, h('tr', {}, h('th', {}, 'God'), h('th', {}, 'Attacked: outcome (target\'s energy)'),
        h('th', {}, 'Defended against'), h('th', {}, 'Energy change'))),
      h('tbody', {}, view.colours.map((colour, seat) => {
        const pick = picks[seat];
        return h('tr', {class: seat === ctx.mySeat ? 'mine' : ''},
          h('th', {scope: 'row'}, colourTag(colour)),
          pick ? [h('td', {}, attacks(seat, pick[0])), h('td', {}, names(pick[1])),
            h('td', {class: deltas[seat] < 0 ? 'loss' : ''}, deltas[seat] > 0 ? `+${deltas[seat]}` : String(deltas[seat]))]
            : h('td', {colspan: 3, class: 'hint'}, 'out'));
      }))),
    drain ? h('p', {class: 'hint'}, `Stall drain: every god lost ${drain} more.`) : null);
}

/** The planning limits in words (Planning; B4G-5): at most `max_actions` indicators a round,
 * and their total cost (`limit_mode` cost) or their number (count) within the god's energy. */
export function limitText(params) {
  const most = params.max_actions ?? 3;
  const fit = params.limit_mode === 'count' ? 'their number' : 'their total cost';
  return `At most ${most} indicator${most === 1 ? '' : 's'} a round; ${fit} must not exceed your energy.`;
}

function chooser(view, legal, ctx, onAct) {
  if (ctx.mySeat === null) return h('p', {class: 'hint'}, 'You are watching.');
  if (ctx.status !== 'running') return null;
  if (!view.alive[ctx.mySeat]) return h('p', {class: 'hint'}, 'Your god is out of the game.');
  if (!legal.length) {
    const mine = view.my_submission;
    return h('p', {class: 'submitted-note'}, mine
      ? ['Submitted: ', h('b', {}, mine), '. Waiting for the others.'] : 'Waiting for the others.');
  }
  if (choice.round !== view.round) choice = {round: view.round, atk: new Set(), def: new Set(), reveal: false};
  const legalSet = new Set(legal);
  const canReveal = legal.some((a) => a.endsWith(' reveal'));
  const p = ctx.params;
  const rows = view.colours.map((colour, seat) => {
    if (seat === ctx.mySeat || !view.alive[seat]) return null;
    const toggle = (kind, word) => h('button', {
      class: `toggle ${kind}`, 'aria-pressed': String(choice[kind].has(seat)),
      'aria-label': `${word} ${colour}`,
      onclick: () => {
        if (choice[kind].has(seat)) choice[kind].delete(seat); else choice[kind].add(seat);
        ctx.redraw();
      }}, kind === 'atk' ? 'Attack' : 'Defend');
    return h('tr', {}, h('th', {scope: 'row'}, colourTag(colour), h('span', {class: 'god-player'}, ` ${ctx.playerName(seat)}`)),
      h('td', {}, toggle('atk', 'Attack')), h('td', {}, toggle('def', 'Defend')));
  });
  const text = selectionText(view.colours, choice.atk, choice.def, choice.reveal);
  const ok = legalSet.has(text);
  const cost = choice.atk.size * (p.attack_cost ?? 1) + choice.def.size * (p.defend_cost ?? 1);
  return h('div', {class: 'chooser'},
    h('h2', {}, `Round ${view.round}: your choice`),
    h('table', {class: 'toggles'}, h('tbody', {}, rows)),
    canReveal ? h('label', {class: 'check'}, h('input', {type: 'checkbox', checked: choice.reveal,
      onchange: (e) => { choice.reveal = e.target.checked; ctx.redraw(); }}), ' Reveal my choice face up') : null,
    h('p', {class: 'cost'}, `Cost: ${cost} energy (attack ${p.attack_cost ?? 1}, defend ` +
      `${p.defend_cost ?? 1} each). ${limitText(p)}`),
    ok ? null : h('p', {class: 'warning'}, `${text} is not legal now (too many, or not enough energy).`),
    h('button', {class: 'submit primary', disabled: !ok, onclick: (e) => {
      e.currentTarget.disabled = true;
      onAct(text);
    }}, `Submit: ${text}`));
}

/** What the result table calls the score (the game's `score_name`). */
export const scoreName = 'final energy';

/** Draw the board and the chooser (the board interface: boards/README.md). */
export function render(board, actions, view, legal, ctx, onAct) {
  fill(board, energyPanel(view, ctx), lastRound(view, ctx),
    view.stall ? h('p', {class: 'hint'}, `Rounds without any energy change: ${view.stall}`) : null);
  fill(actions, chooser(view, legal, ctx, onAct));
}

/** The log lines of the finished rounds, one a round (`step`: the round's number, the game's
 * length once it is resolved, so the page puts it after that round's timeouts and choices): who
 * attacked whom and whether each attack was defended or hit, who defended against whom, and
 * the energy changes (this view keeps no event list: it keeps every round whole). */
export function logLines(view, ctx) {
  const params = (ctx && ctx.params) || {};
  return (view.history || []).map(([round, picks, deltas, drain]) => {
    const parts = view.colours.map((colour, seat) => {
      const pick = picks[seat];
      if (!pick) return null;
      const names = (seats) => seats.map((s) => view.colours[s]).join(', ');
      const hits = (seats) => seats.map((s) =>
        `${view.colours[s]}: ${attackOutcome(picks, seat, s, params).text}`).join(', ');
      const did = [];
      if (pick[0].length) did.push(`attacks ${hits(pick[0])}`);
      if (pick[1].length) did.push(`defends ${names(pick[1])}`);
      const delta = deltas[seat] > 0 ? `+${deltas[seat]}` : String(deltas[seat]);
      return `${colour} ${did.length ? did.join(' and ') : 'passes'}, energy ${delta}`;
    }).filter(Boolean);
    return {key: `round-${round}`, step: round, text: `Round ${round}: ${parts.join('; ')}${drain ? `; drain ${drain}` : ''}.`};
  });
}
