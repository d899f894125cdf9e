"""Ozymandias Campaign scenarios: a position from a short description (issue 18). The
component model (``Components.scenario``) starts from a new game dealt with ``seed``, places
the card words (``hands``, ``discard``, ``tableaus``, ``next_draws``: :func:`parse_card`) and
values (``vp``, ``unrest``, ``active``, ``turns``), then calls :func:`setup` with the words the
game reads itself (``WORDS``), then checks the state like a loaded one.

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
or ``{"card", "cubes", "tapped", "laid", "harvest"}``. Defaults: the setup map; the hands
dealt by ``seed`` (a card named elsewhere replaced from the top of the deck); one incoming
cube of each suit; no tableau, unrest, VP or workers on the map; ``start_workers`` in each
supply and the rest of the ``workers`` in the bag; every card and tile not named in its deck
(a named hand's dealt cards at the bottom of the deck).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
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
Take = Callable[[str, str], int]


def parse_card(game: OzymandiasCampaign, word: str, what: str) -> int | tuple[int, ...]:
    """A card word of a scenario description (``Pieces.parse`` of the campaign's cards): a
    card id (``GOLD-2-a``, any case) is that card; a suit initial and rank (``G4``) is the
    tuple of that card's copies in file order, of which the scenario builder gives the first
    not named yet.

    Raises:
        ParameterError: (naming ``what``) a word that is neither, or a card the deck lacks.
    """
    by_id = game._cache.get("scenario-card-ids")
    if by_id is None:
        by_id = game._cache["scenario-card-ids"] = {c.id.upper(): i
                                                    for i, c in enumerate(game.cards)}
    w = str(word).strip().upper()
    if w in by_id:
        return by_id[w]  # type: ignore[no-any-return]
    suit, rank = w[:1], w[1:]
    if suit not in SUIT_INITIALS or not rank.isdigit():
        raise ParameterError(f"{what}: {word!r} is not a card (an id like GOLD-2-a, or a suit "
                             "initial and rank like G4)")
    copies = tuple(i for i, c in enumerate(game.cards)
                   if c.rank == int(rank) and c.suit == SUIT_INITIALS.index(suit))
    if not copies:
        raise ParameterError(f"{what}: no card {w} left (none in the deck)")
    return copies


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


def _row(take: Take, entry: str | Mapping[str, Any], what: str) -> list[int]:
    if isinstance(entry, str):
        return new_row(take(entry, what))
    extra = set(entry) - {"card", "cubes", "tapped", "laid", "harvest"}
    if extra or "card" not in entry:
        raise ParameterError(f"{what}: expected a card word or a dict with 'card' and any of "
                             f"cubes, tapped, laid, harvest; got {dict(entry)!r}")
    row = new_row(take(entry["card"], what))
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


#: The game's own words and what each means (``CampaignState.scenario_keys``). The model
#: reads the others (meeple.engine.components, ``Components.scenario``): ``hands`` and
#: ``discard`` (card words, ``parse_card``), ``tableaus`` (:func:`tableaus`), ``vp``,
#: ``unrest``, ``active``, ``turns`` and ``next_draws`` (cards on top of the deck).
WORDS = {
    "tiles": "tile ids on the map, joined as at setup",
    "standing": "{point: seat} standing workers",
    "colonies": "{point: [seats bottom to top]} colony stacks",
    "incoming": "cubes per seat", "supply": "workers per seat",
    "next_tiles": "tiles on top of the tile deck",
}


def tableaus(given: Sequence[Sequence[Any] | None], take: Take) -> list[list[list[int]]]:
    """The ``tableaus`` word (``Value.describe`` with ``takes``): per seat (None: empty) the
    rows left to right, each a card word (a fresh card) or ``{"card", "cubes", "tapped",
    "laid", "harvest"}``; ``take(word, what)`` gives a card word's card.

    Raises:
        ParameterError: naming the row: an unknown card or key, bad cubes.
    """
    return [[_row(take, e, f"tableaus[{s}][{i}]") for i, e in enumerate(rows or ())]
            for s, rows in enumerate(given)]


def setup(state: CampaignState, *, tiles: Sequence[str] | None = None,
          standing: Mapping[str, int] | None = None,
          colonies: Mapping[str, Sequence[int]] | None = None, incoming: PerSeat = None,
          supply: PerSeat = None, next_tiles: Sequence[str] = (),
          hands: PerSeat = None) -> None:
    """Make ``state`` (a new game's, dealt with the scenario's ``seed``, with the model's
    words placed: the named cards in their hands, tableaus and discard pile, VP, unrest,
    ``active``, ``turns``) the described position at the start of ``active``'s turn.

    Args:
        tiles: the tiles on the map, each joined at the map's first open port by its own first
            port, as at setup (default: the seeded setup map); the other tiles make the tile
            deck, shuffled.
        standing: ``{point: seat}`` standing workers; ``colonies``: ``{point: [seats bottom
            to top]}`` colony stacks.
        incoming, supply: per seat (a list, or ``{seat: value}``); incoming cubes not given:
            one per suit; supply: ``start_workers``. The bag holds the rest of the
            ``workers`` (map, cards and supply subtracted).
        next_tiles: tiles on top of the tile deck, the first drawn first.
        hands: the model's word (None: not given): a seat whose hand is not given gets
            ``hand_size`` cards, topped up from the top of the deck.
    Raises:
        ParameterError: naming the field: an unknown tile or point, a worker on the wrong
            kind of point, more workers than a seat has, a bad seat or turn count.
    """
    game = state.game
    n, p = game.players, game.params
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
    given = seat_values(hands, n, None, "hands")
    for s, hand in enumerate(state.hands):
        while given[s] is None and len(hand) < p["hand_size"]:
            if not state.deck:
                raise ParameterError("hands: the deck has too few cards left to deal a hand")
            hand.append(state.deck.pop())

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
    state.cubes_in = in_play
    seat(state.active, "active")
    if not (isinstance(state.turns, int) and 0 <= state.turns < p["max_rounds"] * n):
        raise ParameterError(f"turns: {state.turns!r} must be in "
                             f"0..{p['max_rounds'] * n - 1}")
