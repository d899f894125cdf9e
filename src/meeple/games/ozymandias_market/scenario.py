"""Ozymandias Market scenarios: a position from a short description (issue 18).

Example (the rule document's trade example: red tops three sectors, blue one, so trading a
red card for a blue one scores 3 - 1 = 2 VP)::

    from meeple import load_game
    game = load_game("ozymandias-market", players=2)
    state = game.build_scenario(
        map={"0,0": "R", "1,0": "B R", "0,1": "R", "1,-1": "B"},
        hands={0: ["R8", "W2", "K4"]}, market=["B3", "W5", "K7", "B9", "W12"],
        vp=[5, 3], round=4, next_draws=["R1", "B6"],
    )
    assert state.deck[-1] == 1  # R1 is the deck's top card: drawn first

Words: cards by colour initial and rank (``W17``) or rank alone; colours by name or initial
(``RED``/``R``, ``WHITE``/``W``, ``BLUE``/``B``, ``BLACK``/``K``); sectors as ``"q,r"``
(axial) or ``(q, r)``, stacks bottom to top. Defaults: the opening sectors, empty; hands of
``hand_size`` and a market of ``market_size`` from the top of the seeded deck; every disk not
on the map or dead in the supply; every card not named in the deck (shuffled by ``seed``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from meeple.engine.errors import ParameterError
from meeple.engine.rng import shuffle
from meeple.engine.scenario import seat_values, stack_on_top, validated
from meeple.games.ozymandias_market.cards import COLOUR_INITIALS, COLOURS
from meeple.games.ozymandias_market.hexes import OPENINGS, Hex

if TYPE_CHECKING:
    from meeple.games.ozymandias_market.rules import MarketState, OzymandiasMarket

Cards = Sequence[int | str]


def parse_card(game: OzymandiasMarket, word: int | str, what: str) -> int:
    """A card's rank from ``W17``, ``"17"`` or ``17``.

    Raises:
        ParameterError: naming ``what`` (the description's field) and the word.
    """
    w = str(word).strip().upper()
    digits = w[1:] if w[:1] in COLOUR_INITIALS else w
    if not digits.isdigit() or int(digits) not in game.suit_of:
        raise ParameterError(f"{what}: {word!r} is not a card of this game (e.g. W17)")
    rank = int(digits)
    if w[:1] in COLOUR_INITIALS and COLOUR_INITIALS.index(w[0]) != game.suit_of[rank]:
        raise ParameterError(f"{what}: card {rank} is "
                             f"{COLOUR_INITIALS[game.suit_of[rank]]}{rank}, not {w}")
    return rank


def parse_colour(word: int | str, what: str) -> int:
    """A colour index from a name or initial (``RED``, ``R``; ``K`` is black) or an index.

    Raises:
        ParameterError: naming ``what`` and the word.
    """
    if isinstance(word, int) and 0 <= word < len(COLOURS):
        return word
    w = str(word).strip().upper()
    if w in COLOURS:
        return COLOURS.index(w)
    if w in COLOUR_INITIALS:
        return COLOUR_INITIALS.index(w)
    raise ParameterError(f"{what}: {word!r} is not a colour ({', '.join(COLOURS)} or "
                         f"{' '.join(COLOUR_INITIALS)})")


def parse_sector(key: str | Sequence[int], what: str) -> Hex:
    """A sector ``(q, r)`` from ``"q,r"`` or a pair.

    Raises:
        ParameterError: not two integers.
    """
    parts = key.replace(" ", "").split(",") if isinstance(key, str) else list(key)
    try:
        q, r = (int(p) for p in parts)
    except (TypeError, ValueError):
        raise ParameterError(f"{what}: {key!r} is not a sector; write it q,r, e.g. 1,-1") from None
    return q, r


def parse_map(value: Mapping[Any, str | Sequence[int | str]] | None,
              opening: str) -> dict[Hex, list[int]]:
    """``{sector: stack}`` (a stack: colours bottom to top, a string of words or a list)."""
    if value is None:
        return {h: [] for h in OPENINGS[opening]}
    out: dict[Hex, list[int]] = {}
    for key, stack in value.items():
        h = parse_sector(key, "map")
        if h in out:
            raise ParameterError(f"map: sector {h[0]},{h[1]} is given twice")
        words = stack.split() if isinstance(stack, str) else list(stack)
        out[h] = [parse_colour(w, f"map[{h[0]},{h[1]}]") for w in words]
    if not out:
        raise ParameterError("map: expected at least one sector")
    return out


def build(game: OzymandiasMarket, *, seed: int = 0,
          map: Mapping[Any, str | Sequence[int | str]] | None = None,  # noqa: A002
          hands: Mapping[int, Cards] | Sequence[Cards] | None = None,
          market: Cards | None = None, discard: Cards = (),
          vp: Mapping[int, int] | Sequence[int] | None = None,
          dead: Mapping[Any, int] | None = None, round: int = 1,  # noqa: A002
          played: Mapping[int, int | str] | Sequence[int | str] | None = None,
          next_draws: Cards = ()) -> MarketState:
    """An Ozymandias Market position at the start of a round's secret plans (phase ``plan``)
    or, with ``played``, at the start of its raise phase (the lowest card acts first).

    Args:
        game: the game spec (its players and parameters apply).
        seed: shuffles the cards not named and seeds the state's chance stream.
        map: ``{sector: stack}``, e.g. ``{"0,0": "R W", "1,0": [], (0, 1): ["BLACK"]}``; the
            sectors on the table (default: the opening three, empty).
        hands: per seat (a list, or ``{seat: cards}``); not given: ``hand_size`` from the deck
            (one fewer with ``played``).
        market: the market's cards (default: ``market_size`` from the deck).
        discard: the discard pile, bottom first.
        vp: victory points per seat (default 0); ``round``: the round being played (1-based).
        dead: ``{colour: count}`` disks out of the game (``destroyed_to=dead``); the supply is
            what is neither on the map nor dead.
        played: the card each seat revealed this round (all seats): the raise phase starts.
        next_draws: cards put on top of the deck in this order (``next_draws[0]`` is the next
            one drawn: by a trade for the deck's top card, an Augury, or the market refresh).
    Returns:
        The state, checked like a loaded one (``Game.state_from_json``).
    Raises:
        ParameterError: naming the field: an unknown or repeated card, colour or sector, more
            disks or sectors than the game has, a bad seat or round, or a state that breaks an
            invariant (a :class:`~meeple.engine.errors.StateError`).
    """
    n, p = game.players, game.params
    state = game.new_initial_state(seed)
    card = lambda w, what: parse_card(game, w, what)  # noqa: E731
    given = seat_values(hands, n, None, "hands")
    given = [None if h is None else [card(c, f"hands[{s}]") for c in h]
             for s, h in enumerate(given)]
    plays: list[int | None] = [None] * n
    if played is not None:
        raw = seat_values(played, n, None, "played")
        if any(r is None for r in raw):
            raise ParameterError(f"played: expected a card for every seat ({n})")
        plays = [card(r, f"played[{s}]") for s, r in enumerate(raw)]
    named = [c for h in given if h is not None for c in h] + [r for r in plays if r is not None]
    market_cards = None if market is None else [card(c, "market") for c in market]
    named += (market_cards or []) + [card(c, "discard") for c in discard]
    draws = [card(c, "next_draws") for c in next_draws]
    seen: set[int] = set()
    for rank in named:
        if rank in seen:
            raise ParameterError(f"card {COLOUR_INITIALS[game.suit_of[rank]]}{rank} is named "
                                 "twice")
        seen.add(rank)
    deck = [c.rank for c in game.cards]
    shuffle(state.rng, deck)
    deck = [c for c in deck if c not in seen]
    free = [c for c in deck if c not in set(draws)]

    def take(k: int) -> list[int]:
        nonlocal free
        if len(free) < k:
            raise ParameterError(f"hands/market: the deck has too few cards left to deal {k}")
        got, free = free[len(free) - k:], free[:len(free) - k]
        return got

    size = p["hand_size"] - (played is not None)  # the played card is out of the hand
    state.hands = [take(size) if h is None else h for h in given]
    state.market = take(p["market_size"]) if market_cards is None else market_cards
    dealt = {c for h in state.hands for c in h} | set(state.market)
    state.deck = [c for c in deck if c not in dealt]
    stack_on_top(state.deck, draws, "card")
    state.discard = [card(c, "discard") for c in discard]
    state.stacks = parse_map(map, p["opening"])
    state.sectors_left = p["sectors"] - len(state.stacks)
    if state.sectors_left < 0:
        raise ParameterError(f"map: {len(state.stacks)} sectors, but the game has "
                             f"{p['sectors']} (parameter sectors)")
    state.dead = [0] * len(COLOURS)
    for colour, count in (dead or {}).items():
        state.dead[parse_colour(colour, "dead")] = int(count)
    for c in range(len(COLOURS)):
        on_map = sum(stack.count(c) for stack in state.stacks.values())
        state.supply[c] = p["disks_per_colour"] - on_map - state.dead[c]
        if state.supply[c] < 0:
            raise ParameterError(f"map: {on_map} {COLOURS[c]} disks on the map and "
                                 f"{state.dead[c]} dead, but there are {p['disks_per_colour']}")
    state.vp = [int(v) for v in seat_values(vp, n, 0, "vp")]
    if not (isinstance(round, int) and 1 <= round <= p["max_rounds"]):
        raise ParameterError(f"round: {round!r} must be in 1..{p['max_rounds']}")
    state.round, state.played, state.last_ranks = round, plays, list(plays)
    state.step, state.turn, state.events = "main", 0, []
    if played is None:
        state.phase, state.turn_order = "plan", []
    else:
        state.phase, state.turn_order = "raise", sorted(range(n), key=lambda s: plays[s])
    state._refresh_acting()
    return validated(state)  # type: ignore[return-value]
