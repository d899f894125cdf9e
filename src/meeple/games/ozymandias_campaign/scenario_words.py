"""Ozymandias Campaign scenarios: a position from a short description (issue 18), the words
the game reads itself (``CampaignState.scenario_keys``; the component model makes the state
from a new game dealt with ``seed``, then checks it like a loaded one).

Example (the rule document's Collapse example: seat 0's tapped G4 holds three gold cubes and
a red one, a harvest worker and a laid-down worker, so its intake scores level 3 + 1 = 10 VP)::

    from meeple import load_game
    game = load_game("ozymandias-campaign", players=3)
    state = game.build_scenario(
        tiles=["GOLD-1", "RED-1"],
        standing={"GOLD-1:i1": 0, "RED-1:i2": 1},
        colonies={"GOLD-1:c1": [1, 0]},
        tableaus={0: [{"card": "G4", "cubes": "GGGR", "tapped": True, "harvest": True,
                       "laid": True}, "B3"]},
        hands={0: ["R5", "B2"]}, incoming={0: [0, 0, 0]},
        vp=[6, 9, 4], unrest={1: 2}, active=0, turns=12,
        next_draws=["G7", "R6"], next_tiles=["BLUE-1"],
    )

Words: cards by id (``GOLD-2-a``) or suit initial and rank (``G4``: a copy not named yet);
tiles by id; points as ``TILE:point``; cubes as a string of suit initials (``"GGR"``) or
counts ``[gold, red, blue]``. A tableau row is a card word (a fresh card: untapped, no cubes)
or ``{"card", "cubes", "tapped", "laid", "harvest"}``. Defaults: the setup map; hands of
``hand_size`` from the top of the seeded deck; one incoming cube of each suit; no tableau,
unrest, VP or workers on the map; ``start_workers`` in each supply and the rest of the
``workers`` in the bag; every card and tile not named in its deck (shuffled by ``seed``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from meeple.engine.errors import ParameterError
from meeple.engine.rng import shuffle
from meeple.engine.scenario import seat_values, stack_on_top
from meeple.games.ozymandias_campaign.actions import SUIT_INITIALS
from meeple.games.ozymandias_campaign.board import SectorMap
from meeple.games.ozymandias_campaign.moves import CUBES, HARVEST, LAID, TAPPED, new_row
from meeple.games.ozymandias_campaign.vocab import COLONY, SUITS

if TYPE_CHECKING:
    from meeple.games.ozymandias_campaign.rules import CampaignState, OzymandiasCampaign

PerSeat = Mapping[int, Any] | Sequence[Any] | None


class _Cards:
    """Card words to card indexes, each card named once (copies of G4 taken in file order)."""

    def __init__(self, game: OzymandiasCampaign) -> None:
        self.game, self.used = game, set()
        self.by_id = {c.id.upper(): i for i, c in enumerate(game.cards)}

    def find(self, word: str, what: str) -> int:
        w = str(word).strip().upper()
        if w in self.by_id:
            index = self.by_id[w]
            if index in self.used:
                raise ParameterError(f"{what}: card {word!r} is named twice")
        else:
            suit, rank = w[:1], w[1:]
            if suit not in SUIT_INITIALS or not rank.isdigit():
                raise ParameterError(f"{what}: {word!r} is not a card (an id like GOLD-2-a, or "
                                     "a suit initial and rank like G4)")
            copies = [i for i, c in enumerate(self.game.cards) if c.rank == int(rank)
                      and c.suit == SUIT_INITIALS.index(suit) and i not in self.used]
            if not copies:
                raise ParameterError(f"{what}: no card {w} left (none in the deck, or every "
                                     "copy named already)")
            index = copies[0]
        self.used.add(index)
        return index


def _cubes(value: str | Sequence[int], what: str) -> list[int]:
    if isinstance(value, str):
        out = [0] * len(SUITS)
        for ch in value.replace(" ", "").upper():
            if ch not in SUIT_INITIALS:
                raise ParameterError(f"{what}: {ch!r} is not a suit initial ({SUIT_INITIALS})")
            out[SUIT_INITIALS.index(ch)] += 1
        return out
    counts = list(value)
    if len(counts) != len(SUITS) or not all(isinstance(k, int) and k >= 0 for k in counts):
        raise ParameterError(f"{what}: expected {len(SUITS)} counts (gold, red, blue) >= 0, "
                             f"got {value!r}")
    return counts


def _row(cards: _Cards, entry: str | Mapping[str, Any], what: str) -> list[int]:
    if isinstance(entry, str):
        return new_row(cards.find(entry, what))
    extra = set(entry) - {"card", "cubes", "tapped", "laid", "harvest"}
    if extra or "card" not in entry:
        raise ParameterError(f"{what}: expected a card word or a dict with 'card' and any of "
                             f"cubes, tapped, laid, harvest; got {dict(entry)!r}")
    row = new_row(cards.find(entry["card"], what))
    row[CUBES:CUBES + len(SUITS)] = _cubes(entry.get("cubes", ""), f"{what} cubes")
    for key, field in (("tapped", TAPPED), ("laid", LAID), ("harvest", HARVEST)):
        row[field] = int(bool(entry.get(key, False)))
    return row


def _map(game: OzymandiasCampaign, tiles: Sequence[str]) -> SectorMap:
    by_id = {t.id.upper(): t for t in game.tiles}
    chosen = []
    for word in tiles:
        if str(word).upper() not in by_id:
            raise ParameterError(f"tiles: unknown tile {word!r} ({', '.join(by_id)})")
        chosen.append(by_id[str(word).upper()])
    if not chosen:
        raise ParameterError("tiles: expected at least one tile")
    try:
        return SectorMap.opening(chosen)
    except ParameterError as exc:
        raise ParameterError(f"tiles: {exc}") from None


def _point(state: CampaignState, word: str, what: str, colony: bool | None) -> str:
    name = state.game.point_names.get(str(word).upper())
    if name is None or name not in state.map.kinds:
        raise ParameterError(f"{what}: {word!r} is not a point of a tile on the map")
    if colony is not None and (state.map.kinds[name] == COLONY) != colony:
        raise ParameterError(f"{what}: {name} is {'not ' if colony else ''}a colony")
    return name


#: The words and what each means (``CampaignState.scenario_keys``).
WORDS = {
    "tiles": "tile ids on the map, joined as at setup",
    "standing": "{point: seat} standing workers",
    "colonies": "{point: [seats bottom to top]} colony stacks",
    "hands": "card words per seat", "tableaus": "rows per seat (card word or dict)",
    "incoming": "cubes per seat", "unrest": "per seat", "vp": "per seat",
    "supply": "workers per seat", "active": "whose turn", "turns": "turns completed",
    "discard": "card words, bottom first", "next_draws": "cards on top of the deck",
    "next_tiles": "tiles on top of the tile deck",
}


def setup(state: CampaignState, *, tiles: Sequence[str] | None = None,
          standing: Mapping[str, int] | None = None,
          colonies: Mapping[str, Sequence[int]] | None = None,
          hands: PerSeat = None, tableaus: PerSeat = None, incoming: PerSeat = None,
          unrest: PerSeat = None, vp: PerSeat = None, supply: PerSeat = None,
          active: int = 0, turns: int = 0, discard: Sequence[str] = (),
          next_draws: Sequence[str] = (), next_tiles: Sequence[str] = ()) -> None:
    """Make ``state`` (a new game's, dealt with the scenario's ``seed``, which shuffles the
    cards and tiles not named and seeds the state's chance stream) the described Ozymandias
    Campaign position at the start of ``active``'s turn (step ``mode``).

    Args:
        tiles: the tiles on the map, each joined at the map's first open port by its own first
            port, as at setup (default: the seeded setup map).
        standing: ``{point: seat}`` standing workers; ``colonies``: ``{point: [seats bottom
            to top]}`` colony stacks.
        hands, tableaus, incoming, unrest, vp, supply: per seat (a list, or ``{seat: value}``).
            Hands not given: ``hand_size`` from the deck; tableaus: rows left to right (see
            the module docstring); incoming cubes: one per suit; supply: ``start_workers``.
            The bag holds the rest of the ``workers`` (map, cards and supply subtracted).
        active: whose turn it is; ``turns``: turns completed (the round cap counts them).
        discard: cards in the discard pile, bottom first.
        next_draws: cards put on top of the deck, ``next_draws[0]`` drawn first (intake's
            draw back to the hand size); ``next_tiles``: the same for the tile deck (the next
            tile an exploration draws).
    Raises:
        ParameterError: naming the field: an unknown or repeated card, tile or point, a worker
            on the wrong kind of point, more workers than a seat has, a bad seat or turn
            count, or a state that breaks an invariant (a
            :class:`~meeple.engine.errors.StateError`).
    """
    game = state.game
    n, p = game.players, game.params
    cards = _Cards(game)
    if tiles is not None:
        state.map = _map(game, tiles)
    placed = {game.tile_index[pl.tile.id] for pl in state.map.placements}
    state.tile_deck = [t for t in range(len(game.tiles)) if t not in placed]
    shuffle(state.rng, state.tile_deck)
    tile_ids = {t.id.upper(): i for i, t in enumerate(game.tiles)}
    order = []
    for word in next_tiles:
        if str(word).upper() not in tile_ids:
            raise ParameterError(f"next_tiles: unknown tile {word!r}")
        order.append(tile_ids[str(word).upper()])
    stack_on_top(state.tile_deck, order, "tile")

    rows = seat_values(tableaus, n, [], "tableaus")
    state.tableaus = [[_row(cards, e, f"tableaus[{s}][{i}]") for i, e in enumerate(t)]
                      for s, t in enumerate(rows)]
    given = [None if h is None else [cards.find(c, f"hands[{s}]") for c in h]
             for s, h in enumerate(seat_values(hands, n, None, "hands"))]
    state.discard = [cards.find(c, "discard") for c in discard]
    named = set(cards.used)
    draws = [cards.find(c, "next_draws") for c in next_draws]
    deck = list(range(len(game.cards)))
    shuffle(state.rng, deck)
    deck = [c for c in deck if c not in named]
    free = [c for c in deck if c not in set(draws)]
    out_hands = []
    for h in given:
        if h is None:
            if len(free) < p["hand_size"]:
                raise ParameterError("hands: the deck has too few cards left to deal a hand")
            h, free = free[len(free) - p["hand_size"]:], free[:len(free) - p["hand_size"]]
        out_hands.append(h)
    state.hands = out_hands
    dealt = {c for h in out_hands for c in h}
    state.deck = [c for c in deck if c not in dealt]
    stack_on_top(state.deck, draws, "card")

    def seat(value: Any, what: str) -> int:
        if not (isinstance(value, int) and 0 <= value < n):
            raise ParameterError(f"{what}: {value!r} is not a seat (0..{n - 1})")
        return value

    state.standing = {_point(state, pt, "standing", colony=False): seat(s, f"standing[{pt}]")
                      for pt, s in (standing or {}).items()}
    state.stacks = {}
    for pt, stack in (colonies or {}).items():
        name = _point(state, pt, "colonies", colony=True)
        if not stack:
            raise ParameterError(f"colonies[{pt}]: expected at least one seat")
        state.stacks[name] = [seat(s, f"colonies[{pt}]") for s in stack]
    state.incoming = [_cubes(c, f"incoming[{s}]") for s, c in
                      enumerate(seat_values(incoming, n, [1] * len(SUITS), "incoming"))]
    state.unrest = [int(u) for u in seat_values(unrest, n, 0, "unrest")]
    state.vp = [int(v) for v in seat_values(vp, n, 0, "vp")]
    state.supply = [int(k) for k in seat_values(supply, n, p["start_workers"], "supply")]
    state.bag = []
    for s in range(n):
        used = sum(1 for x in state.standing.values() if x == s)
        used += sum(st.count(s) for st in state.stacks.values()) + state.supply[s]
        used += sum(row[LAID] + row[HARVEST] for row in state.tableaus[s])
        if used > p["workers"]:
            raise ParameterError(f"supply/standing/colonies/tableaus: seat {s} uses {used} "
                                 f"workers, but has {p['workers']}")
        state.bag.append(p["workers"] - used)
    in_play = [sum(state.incoming[s][k] + sum(r[CUBES + k] for r in state.tableaus[s])
                   for s in range(n)) for k in range(len(SUITS))]
    state.cubes_in, state.cubes_out = in_play, [0] * len(SUITS)
    state.active = seat(active, "active")
    if not (isinstance(turns, int) and 0 <= turns < p["max_rounds"] * n):
        raise ParameterError(f"turns: {turns!r} must be in 0..{p['max_rounds'] * n - 1}")
    state.turns, state.step, state.events = turns, "mode", []
    state.owed, state.mig_pos, state.mig_out = 0, -1, [0] * len(SUITS)
    state.war = state.explore_at = state.drawn_tile = None
    state.trigger = state.last_seat = None
    state.lost_wars = []
