"""Epoch Ellipse scenarios: a position from a short description (issue 18).

Example (the rule document's EXAMPLE TURN: Alice and Bob at the start of PLAN, the Warehouse
and the Graveyard holding the cards they will flip, the Night deck's top card fixed)::

    from meeple import load_game
    game = load_game("epoch-ellipse", players=2)
    state = game.build_scenario(
        hands=[["BULLET", "BULLET", "BASEBALL BAT", "ADAM NATHAN", "CRACKED RIB"],
               ["TINNED HAM", "TINNED HAM", "TINNED HAM", "BULLET", "FIRST AID"]],
        locations={"WAREHOUSE": ["WILD DOGS", "SHOULDER INJURY", "JUSTICE LIN",
                                 "TINNED HAM", "BULLET", "TINNED HAM"],
                   "GRAVEYARD": ["MUSTARD GAS ANGELS", "BROKEN FOOT", "RAIDERS",
                                 "PIPE BOMB"]},
        next_draws={"NIGHT": ["AND THEY TOOK MY STUFF, TOO"]},
    )

Words: cards and locations by name, any case (``"tinned ham"``; ``tinned-ham`` too). A card
named for a seat is one of that seat's starter copies when one is left, else a copy from the
shared decks. Defaults: the Graveyard and the Apartment Building in play (the Apartment
Building's event deck built as at setup); a seat's deck is its starter cards not named
elsewhere plus a survivor card from the Survivor deck (unless its hand or discard pile
names one), shuffled, and its hand the top
``hand_size`` of its deck; empty discard piles; every seat alive; every other card in its
shared deck and every other location in the Location deck (shuffled by ``seed``).
Explorations shuffle an event deck before flipping, so an event deck's content is fixed
here, not its order (that comes from the state's seeded chance stream).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from meeple.engine.errors import ParameterError
from meeple.engine.rng import shuffle
from meeple.engine.scenario import seat_values, stack_on_top, validated
from meeple.games.epoch_ellipse.actions import slug
from meeple.games.epoch_ellipse.cards import CATASTROPHE, SALVAGE, SURVIVOR
from meeple.games.epoch_ellipse.rules import SHARED_DECKS

if TYPE_CHECKING:
    from meeple.games.epoch_ellipse.rules import EpochEllipse, EpochState

Names = Sequence[str]
PerSeat = Mapping[int, Names] | Sequence[Names] | None


class _Instances:
    """Card names to physical card instances, each instance placed once."""

    def __init__(self, game: EpochEllipse) -> None:
        self.game, self.used = game, set()

    def type_of(self, name: str, what: str) -> int:
        ctype = self.game.by_slug.get(slug(str(name)))
        if ctype is None:
            raise ParameterError(f"{what}: {name!r} is not a card of this game")
        return ctype

    def take(self, name: str, what: str, pools: Sequence[Sequence[int]]) -> int:
        """An unused instance of ``name``, from the first of ``pools`` holding one."""
        ctype = self.type_of(name, what)
        for pool in pools:
            for card in pool:
                if self.game.ctype[card] == ctype and card not in self.used:
                    self.used.add(card)
                    return card
        raise ParameterError(f"{what}: no copy of {name!r} left (every copy is named already)")


def _location(game: EpochEllipse, name: str, what: str) -> int:
    names = {slug(loc.name): i for i, loc in enumerate(game.content.locations)}
    index = names.get(slug(str(name)))
    if index is None:
        raise ParameterError(f"{what}: {name!r} is not a location "
                             f"({', '.join(loc.name for loc in game.content.locations)})")
    return index


def build(game: EpochEllipse, *, seed: int = 0, hands: PerSeat = None, decks: PerSeat = None,
          discards: PerSeat = None, locations: Mapping[str, int | Names] | None = None,
          day: int = 1, first: int = 0, next_draws: Mapping[str, Names] | None = None,
          next_locations: Names = ()) -> EpochState:
    """An Epoch Ellipse position at the start of a day's PLAN phase (WAKE UP done).

    Args:
        game: the game spec (its players and parameters apply).
        seed: shuffles what is not named and seeds the state's chance stream.
        hands, decks, discards: per seat (a list, or ``{seat: names}``). ``decks``: the
            seat's own draw pile, ``decks[s][0]`` drawn first; discard piles bottom first.
            Not given: see the module docstring.
        locations: ``{location: content}`` for locations in play, after the Graveyard and the
            Apartment Building (always in play) in the order given. Content: a number of
            catastrophes (with the location's usual salvage and survivor cards from the
            shared decks), or the exact list of cards in its event deck. Catastrophe tokens
            follow the catastrophes in each deck.
        day: the day (1-based); ``first``: today's first player (the first to plan).
        next_draws: ``{deck: names}`` per shared deck (``SALVAGE``, ``SURVIVOR``,
            ``CATASTROPHE``, ``NIGHT``): cards put on top, the first drawn first.
        next_locations: locations on top of the Location deck, the first one drawn by the
            next ``new`` exploration.
    Returns:
        The state, checked like a loaded one (``Game.state_from_json``).
    Raises:
        ParameterError: naming the field: an unknown card, location or deck, more copies
            than the game has, a card in the wrong deck, locations already Recovered enough
            to win, a bad seat or day, or a state that breaks an invariant (a
            :class:`~meeple.engine.errors.StateError`).
    """
    n, p, content = game.players, game.params, game.content
    state = game.new_initial_state(seed)
    cards = _Instances(game)
    shared = [c for kind in SHARED_DECKS for c in game.shared[kind]]
    others = [c for s in range(n) for c in game.starters[s]]
    piles: dict[str, list[list[int] | None]] = {}
    for key, value in (("hands", hands), ("decks", decks), ("discards", discards)):
        piles[key] = [None if names is None else
                      [cards.take(w, f"{key}[{s}]", (game.starters[s], shared, others))
                       for w in names]
                      for s, names in enumerate(seat_values(value, n, None, key))]
    in_play = list(content.fixed_locations)
    described: dict[int, int | list[int]] = {}
    for name, spec in (locations or {}).items():
        index = _location(game, name, "locations")
        if index in described:
            raise ParameterError(f"locations: {name!r} is given twice")
        if index not in in_play:
            in_play.append(index)
        where = f"locations[{name}]"
        if isinstance(spec, int):
            if spec < 0:
                raise ParameterError(f"{where}: expected a catastrophe count >= 0, got {spec}")
            described[index] = spec
        else:
            described[index] = [cards.take(w, where, (shared, others)) for w in spec]
    reserved = {}
    for kind, names in (next_draws or {}).items():
        if kind not in SHARED_DECKS:
            raise ParameterError(f"next_draws: {kind!r} is not a shared deck "
                                 f"({', '.join(SHARED_DECKS)})")
        where = f"next_draws[{kind}]"
        for w in names:
            if content.cards[cards.type_of(w, where)].kind != kind:
                raise ParameterError(f"{where}: {w!r} is not a {kind} card")
        reserved[kind] = [cards.take(w, where, (game.shared[kind],)) for w in names]
    free = {kind: [c for c in game.shared[kind] if c not in cards.used]
            for kind in SHARED_DECKS}
    for kind in SHARED_DECKS:
        shuffle(state.rng, free[kind])

    def draw(kind: str, what: str) -> int:
        if not free[kind]:
            raise ParameterError(f"{what}: the {kind} deck has run out")
        return free[kind].pop()

    state.locations, state.event_decks, state.tokens = [], [], []
    for index in in_play:
        loc, spec = content.locations[index], described.get(index)
        if isinstance(spec, list):
            deck = list(reversed(spec))  # the first named on top
        else:
            where = f"locations[{loc.name}]"
            deck = [draw(CATASTROPHE, where) for _ in range(
                loc.catastrophes if spec is None else spec)]
            deck += [draw(SALVAGE, where) for _ in range(loc.salvage)]
            deck += [draw(SURVIVOR, where) for _ in range(loc.survivors)]
            shuffle(state.rng, deck)
        state.locations.append(index)
        state.event_decks.append(deck)
        state.tokens.append(state.catastrophes_in(deck))
    if state.recovered_vp() >= p["target_vp"]:
        raise ParameterError(f"locations: {state.recovered_vp()} VP of locations are Recovered "
                             f"(no catastrophe left), reaching target_vp = {p['target_vp']}: "
                             "the game would be won already")
    state.location_deck = [i for i in content.location_deck if i not in in_play]
    shuffle(state.rng, state.location_deck)
    order = [_location(game, w, "next_locations") for w in next_locations]
    stack_on_top(state.location_deck, order, "location")

    state.hands, state.draws, state.discards = [], [], []
    for s in range(n):
        deck = piles["decks"][s]
        if deck is None:
            deck = [c for c in game.starters[s] if c not in cards.used]
            cards.used.update(deck)
            named = (piles["hands"][s] or []) + (piles["discards"][s] or [])
            if not any(state.card(c).kind == SURVIVOR for c in named):
                deck.append(draw(SURVIVOR, f"decks[{s}]"))
            shuffle(state.rng, deck)
        else:
            deck = list(reversed(deck))  # decks[s][0] on top
        hand = piles["hands"][s]
        if hand is None:
            hand = [deck.pop() for _ in range(min(p["hand_size"], len(deck)))]
        state.hands.append(hand)
        state.draws.append(deck)
        state.discards.append(piles["discards"][s] or [])
    for kind in SHARED_DECKS:
        state.decks[kind] = free[kind] + list(reversed(reserved.get(kind, [])))
    state.night_discard, state.pool, state.removed = [], [], []
    state.status = ["alive"] * n
    state.ms_card, state.death_cause = [None] * n, [None] * n
    for s in range(n):
        if state.catastrophes_in(state.discards[s]) >= 3:
            raise ParameterError(f"discards[{s}]: three catastrophes in a discard pile kill "
                                 "its survivor (DEATH)")
    if not (isinstance(day, int) and 1 <= day <= p["max_days"]):
        raise ParameterError(f"day: {day!r} must be in 1..{p['max_days']}")
    if not (isinstance(first, int) and 0 <= first < n):
        raise ParameterError(f"first: {first!r} is not a seat (0..{n - 1})")
    state.day, state.first, state.turn = day, first, first
    state.phase, state.step = "plan", "plan"
    state.queue, state.passes, state.traded, state.offer = [], 0, set(), None
    state.credits, state.explore_queue, state.hungry = 0, [], []
    state.events, state.result, state.cause = [], None, None
    state._reset_exploration()
    state._refresh_acting()
    return validated(state)  # type: ignore[return-value]


def card_names(state: EpochState, cards: Sequence[int]) -> list[str]:
    """The names of card instances, e.g. to check a built pile: ``["BULLET", ...]``."""
    return [state.name(c) for c in cards]

