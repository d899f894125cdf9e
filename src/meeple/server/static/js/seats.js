// How the table page names a seat, everywhere a person reads one (title, seat list, turn bar,
// log, result, talk): by who sits there ("ann", "bot heuristic", "open seat") with a small chip
// of the seat's colour (`table.seat_colours`); a game whose seats have names of their own keeps
// them first ("RED (ann)"). The engine's default names ("Seat 0") are never shown: such a seat
// is "seat 1", counted from 1 as people count.
import {h} from './dom.js';

const DEFAULT_NAME = /^Seat (\d+)$/;

/** Whether `table`'s seats have names of their own (Four Gods' colours), not `Seat N`. */
export function ownSeatNames(table) {
  return Boolean(table && table.seat_names &&
    table.seat_names.some((name, seat) => name && name !== `Seat ${seat}`));
}

/** The seat's own name as a person reads it: `RED`, or `seat 1` for the engine's `Seat 0`. */
export function seatName(table, seat) {
  const name = table && table.seat_names ? table.seat_names[seat] : null;
  const number = name && DEFAULT_NAME.exec(name);
  if (!name || number) return `seat ${(number ? Number(number[1]) : seat) + 1}`;
  return name;
}

/** Who sits at `seat`: the person's name, `bot NAME`, `the timer` (a person left and the timer
 * plays the seat) or `open seat`. */
export function playerName(table, seat) {
  const info = table && table.seats ? table.seats[seat] : null;
  if (!info || info.kind === 'open') return 'open seat';
  if (info.kind === 'bot') return info.name === 'timer' ? 'the timer' : `bot ${info.name}`;
  return info.name;
}

/**
 * The seat as one label: `RED (ann)` where seats have names of their own; else who sits there
 * (`ann`, `bot heuristic`), with the seat's number added when that alone is ambiguous at this
 * table (`bot heuristic (seat 2)`), and `seat 2 (open)` for an open seat.
 */
export function seatLabel(table, seat) {
  const player = playerName(table, seat);
  if (ownSeatNames(table)) return `${seatName(table, seat)} (${player})`;
  const info = table && table.seats ? table.seats[seat] : null;
  if (!info || info.kind === 'open') return `${seatName(table, seat)} (open)`;
  const twin = table.seats.some((s) => s.seat !== seat && s.kind !== 'open' &&
    playerName(table, s.seat) === player);
  return twin ? `${player} (${seatName(table, seat)})` : player;
}

/** The seat's colour as a CSS colour (`table.seat_colours`), or null. */
export function seatColour(table, seat) {
  return (table && table.seat_colours && table.seat_colours[seat]) || null;
}

/** A small chip of the seat's colour; decoration only (the label next to it says who). */
export function seatChip(table, seat) {
  const colour = seatColour(table, seat);
  if (!colour) return null;
  const chip = h('span', {class: 'seat-chip', 'aria-hidden': 'true', dataset: {colour}});
  // a colour the page's palette has (Four Gods' gods: --seat-red...) in the page's shade
  chip.style.background = /^[a-z]+$/.test(colour) ? `var(--seat-${colour}, ${colour})` : colour;
  return chip;
}

/** The seat as a chip and its label, `(you)` added for `mySeat`: a span. */
export function seatTag(table, seat, mySeat = null) {
  return h('span', {class: 'seat-tag', dataset: {seat: String(seat)}}, seatChip(table, seat),
    seatLabel(table, seat), seat === mySeat ? ' (you)' : '');
}
