"""Crazy Eights, the card game: the template for a game with a deck and hidden hands, built on
the engine's component model (docs/adding-a-game.md; docs/engine.md, "Components").

Rules (public domain): deal ``hand_size`` cards to each of 2-5 seats (0: 7 with two seats, 5
with more) from a 52-card deck and turn up a starter on the discard pile (an 8 is buried at
the bottom of the stock and the next card turned). On your turn, ``play`` a card matching the
top discard's suit or rank, or any 8, then ``name`` a suit (a sub-decision) that the next seat
must follow; or ``draw`` one card (only when you cannot play, unless ``draw_any_time``): if
the stock is empty, the discard pile but its top card is shuffled into a new stock with the
state's seeded stream; if both are empty, ``pass``. The first seat to empty its hand wins; at
``max_turns`` turns the game ends as a draw (every seat shares the result).

Cards are ids such as ``"8H"``, ``"10S"``, ``"QD"`` (rank, then suit: C D H S). Importing this
module registers ``crazy-eights`` (the tests do, as they do ``examples/pig.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from meeple.engine import (
    ActionParseError,
    Bot,
    Capabilities,
    Game,
    KindAction,
    Parameter,
    Variant,
    register,
)
from meeple.engine.components import COUNT, OWNER, ComponentState, Pieces, Shown, Value, Zone
from meeple.engine.encoding import derived_encoding
from meeple.engine.rng import shuffle
from meeple.engine.validation import NonNegInt, check_that, json_path

SUITS = "CDHS"
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
#: Every card, in the deck manifest's fixed order (the component model deals from it).
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)


def suit_of(card: str) -> str:
    return card[-1]


def rank_of(card: str) -> str:
    return card[:-1]


class Move(KindAction):
    """``play 7H``, ``name hearts`` (the suit after an 8; args hold its letter), ``draw``,
    ``pass``; tied to the seat that makes it."""

    __slots__ = ()

    @staticmethod
    def describe(kind: str, args: tuple) -> str:
        return f"name {SUIT_NAMES[args[0]]}" if kind == "name" else " ".join([kind, *args])


class CrazyEightsState(ComponentState):
    """Hands (each seen by its owner only), the stock (seen as a count), the discard pile
    (public; its top, the card to match, is its last), the named suit, whose turn and which
    step (``play``; ``name`` after an 8; ``over``). Everything else derives from these."""

    PIECES = {"card": Pieces(lambda game: DECK)}
    #: What a state is made of. A determinization deals the unseen cards to the hidden zones
    #: in this order: the other seats' hands, then the stock.
    COMPONENTS = (
        Value("turns", type=NonNegInt, bounds=lambda game: (0, game.params["max_turns"])),
        Value("to_move", type=NonNegInt, seat=True),
        Value("step", type=Literal["play", "name", "over"]),
        Value("suit", type=Literal["C", "D", "H", "S"] | None),  # named after an 8
        Zone("hands", pieces="card", per_seat=True, visibility=OWNER, show="hand",
             count="hand_sizes"),
        Zone("discard", pieces="card", show="discard"),
        Zone("stock", pieces="card", visibility=COUNT, count="stock_size", draw_pile=True),
        Shown("top", show=lambda st, seat: st.discard[-1] if st.discard else None),
    )
    __slots__ = tuple(c.name for c in COMPONENTS if not isinstance(c, Shown))

    def __init__(self, game: CrazyEights, seed: int) -> None:
        super().__init__(game, seed)
        self.stock = list(DECK)
        shuffle(self.rng, self.stock)  # chance only from the state's seeded stream
        self.hands = [[self.stock.pop() for _ in range(game.hand_size)]
                      for _ in range(game.players)]
        self.discard = [self.stock.pop()]
        while rank_of(self.discard[-1]) == "8":  # an 8 starter is buried, the next turned
            self.stock.insert(0, self.discard.pop())
            self.discard.append(self.stock.pop())
        self.turns, self.to_move, self.step, self.suit = 0, 0, "play", None
        self._refresh_acting()

    # ------------------------------------------------------------------ hooks of the model
    def _refresh_acting(self) -> None:
        self._acting = () if self.step == "over" else (self.to_move,)

    @classmethod
    def check_invariants(cls, game: Game, data: Any, base: str) -> None:
        """What the declaration cannot say: a starter is always there, a named suit only on an
        8, ``over`` exactly when a hand is empty or the cap is reached."""
        check_that(bool(data.discard), json_path(base, "discard"), "expected a card on top")
        eight, suit, step = rank_of(data.discard[-1]) == "8", data.suit, data.step
        check_that(suit is None or eight, json_path(base, "suit"), "expected no named suit "
                   "without an 8 on top")
        check_that(suit is not None or not eight or step != "play", json_path(base, "suit"),
                   "expected a named suit: an 8 is on top")
        check_that(step != "name" or (eight and suit is None), json_path(base, "step"),
                   "expected 'name' only just after an 8 is played")
        ended = any(not h for h in data.hands) or data.turns >= game.params["max_turns"]
        check_that((data.step == "over") == ended, json_path(base, "step"),
                   "expected 'over' exactly when a hand is empty or max_turns is reached")

    def scenario_setup(self, described: Mapping[str, Any], extra: Mapping[str, Any]) -> None:
        """A described discard pile with an 8 on top and no named suit: the 8's own suit."""
        if "suit" not in described and self.step == "play" and rank_of(self.discard[-1]) == "8":
            self.suit = suit_of(self.discard[-1])

    # ------------------------------------------------------------------ rules
    def playable(self, card: str) -> bool:
        """Whether ``card`` may go on the pile now: an 8, or the suit to follow (the named
        one after an 8), or the top card's rank."""
        top = self.discard[-1]
        return (rank_of(card) == "8" or suit_of(card) == (self.suit or suit_of(top))
                or rank_of(card) == rank_of(top))

    def _legal_actions(self, seat: int) -> Sequence[Move]:
        if self.step == "name":
            return [Move(seat, "name", (s,)) for s in SUITS]
        out = [Move(seat, "play", (c,)) for c in self.hands[seat] if self.playable(c)]
        if out and not self.game.params["draw_any_time"]:
            return out
        can_draw = bool(self.stock) or len(self.discard) > 1
        return out + [Move(seat, "draw" if can_draw else "pass")]

    def _illegal_reason(self, seat: int, action: Any) -> str:
        kind, args = getattr(action, "kind", ""), getattr(action, "args", ())
        if self.step == "name":
            return "you played an 8: name a suit first (name clubs, diamonds, hearts or spades)"
        if kind == "play" and args[0] not in self.hands[seat]:
            return f"{args[0]} is not in your hand"
        if kind == "play":
            follow = SUIT_NAMES[self.suit or suit_of(self.discard[-1])]
            return (f"{args[0]} follows neither {follow} nor the rank of {self.discard[-1]} "
                    "(only an 8 goes on anything)")
        if kind == "name":
            return "name a suit only after playing an 8"
        if kind == "draw" and (self.stock or len(self.discard) > 1):
            return "you can play a card: draw only when you cannot (draw_any_time is off)"
        return "there is nothing to draw: pass" if kind == "draw" else \
            "pass only when there is nothing to draw"

    def _apply(self, joint: Mapping[int, Move]) -> None:  # type: ignore[override]
        ((seat, move),) = joint.items()
        if move.kind == "play":
            card = move.args[0]
            self.hands[seat].remove(card)
            self.discard.append(card)
            self.suit = None
            if rank_of(card) == "8" and self.hands[seat]:
                self.step = "name"  # the same seat names a suit: a sub-decision
                return
        elif move.kind == "name":
            self.suit, self.step = move.args[0], "play"
        elif move.kind == "draw":
            if not self.stock:  # the discards but the top become the new stock, shuffled
                self.stock, self.discard = self.discard[:-1], self.discard[-1:]
                shuffle(self.rng, self.stock)
            self.hands[seat].append(self.stock.pop())
        self.turns += 1
        self.to_move = (seat + 1) % self.game.players
        if not self.hands[seat] or self.turns >= self.game.params["max_turns"]:
            self.step = "over"
        self._refresh_acting()

    # ------------------------------------------------------------------ results
    def winners(self) -> tuple[int, ...]:
        """The seat that emptied its hand; every seat at the cap (a draw); () before."""
        if self.step != "over":
            return ()
        out = tuple(s for s, h in enumerate(self.hands) if not h)
        return out or tuple(range(self.game.players))

    def returns(self) -> tuple[float, ...]:
        won = self.winners()
        return tuple((1.0 / len(won) if s in won else 0.0) for s in range(self.game.players))

    def is_truncated(self) -> bool:
        return self.step == "over" and all(self.hands)

    def scores(self) -> tuple[float, ...]:
        return tuple(float(len(h)) for h in self.hands)

    def length(self) -> int:
        return self.turns


@register
class CrazyEights(Game):
    """Crazy Eights for 2-5 seats; see the module docstring."""

    name = "crazy-eights"
    title = "Crazy Eights"
    summary = "shed your hand by matching suit or rank; eights are wild (engine template)"
    rules_page = "examples/crazy_eights.py"
    score_name = "cards left"
    timeout_kinds = ("draw", "pass")
    #: Copy, JSON data, validation, views, determinization and scenarios derive from it.
    state_class = CrazyEightsState
    parameters = (
        Parameter("hand_size", 0, "cards dealt to each seat (0: 7 with two seats, 5 with more)",
                  minimum=0, maximum=10),
        Parameter("draw_any_time", False, "a seat may draw even when it could play"),
        Parameter("max_turns", 400, "cap on turns; the game then ends as a draw (X-5)",
                  minimum=1, maximum=100_000),
    )
    variants = (Variant("standard", "5 cards each (7 with two seats), draw when you cannot play"),
                Variant("loose", "draw even when you could play", {"draw_any_time": True}),
                Variant("quick", "3 cards each", {"hand_size": 3}))
    min_players, max_players, default_players = 2, 5, 3
    __slots__ = ()

    @property
    def hand_size(self) -> int:
        return self.params["hand_size"] or (7 if self.players == 2 else 5)

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(self.min_players, self.max_players, simultaneous=False,
                            hidden_information=True, chance=True, cooperative=False,
                            max_length=self.params["max_turns"], length_unit="turns")

    def new_initial_state(self, seed: int = 0) -> CrazyEightsState:
        """Shuffle with the state's stream (from ``seed``), deal, turn up the starter."""
        return CrazyEightsState(self, seed)

    def parse_action(self, text: str, seat: int) -> Move:
        """``play 7H`` (or just ``7h``), ``name hearts`` (or ``name h``), ``draw``, ``pass``;
        legality is checked when it is applied."""
        words = text.strip().upper().split()
        if len(words) == 1 and words[0] in DECK:
            words = ["PLAY", *words]
        if words in (["DRAW"], ["PASS"]):
            return Move(seat, words[0].lower())
        if len(words) == 2 and words[0] == "PLAY" and words[1] in DECK:
            return Move(seat, "play", (words[1],))
        if len(words) == 2 and words[0] == "NAME" and words[1][:1] in SUITS \
                and words[1].lower() in (words[1][0].lower(), SUIT_NAMES[words[1][0]]):
            return Move(seat, "name", (words[1][0],))
        raise ActionParseError(f"cannot read {text!r}: write 'play 7H', 'name hearts', 'draw' "
                               "or 'pass'")


# ------------------------------------------------------------------ a bot and a drawing
class HeuristicBot(Bot):
    """Plays a matching card that is no 8 first (of the suit it holds most), keeps its 8s
    for when nothing else goes, and names the suit it holds most; else draws (or passes)."""

    name = "heuristic"

    def act(self, view: Mapping[str, Any], legal_actions: Sequence[KindAction]) -> KindAction:
        held = Counter(suit_of(c) for c in view["hand"] if rank_of(c) != "8")

        def value(move: KindAction) -> float:
            if move.kind == "name":
                return held[move.args[0]]
            if move.kind == "play":
                return held[suit_of(move.args[0])] + (1 if rank_of(move.args[0]) == "8" else 100)
            return 0.0

        return self.choose_best(legal_actions, [value(m) for m in legal_actions])


def render(game: CrazyEights, view: Mapping[str, Any]) -> str:
    """A seat's view as terminal text: the top card and the suit to follow, the counts, and
    the viewer's hand (none for a spectator)."""
    suit = f" ({SUIT_NAMES[view['suit']]} named)" if view["suit"] else ""
    sizes = ", ".join(f"seat {s}: {k}" for s, k in enumerate(view["hand_sizes"]))
    lines = [f"top: {view['top']}{suit}   stock: {view['stock_size']}   cards: {sizes}"]
    if "hand" in view:
        lines.append("your hand: " + " ".join(view["hand"]))
    return "\n".join(lines)


# ------------------------------------------------------------------ encoding (adapters)
def action_texts(game: CrazyEights) -> tuple[str, ...]:
    """Every action text: ``play CARD`` for the 52 cards in deck order (codes 0-51), ``draw``,
    ``pass``, then ``name SUIT`` for the four suits."""
    return (*(f"play {c}" for c in DECK), "draw", "pass",
            *(f"name {SUIT_NAMES[s]}" for s in SUITS))


def max_steps(game: CrazyEights) -> int:
    """At most two engine steps a turn (an 8 played, then a suit named), ``max_turns`` turns."""
    return 2 * game.params["max_turns"]


#: The adapters' encoding, derived from ``CrazyEightsState.COMPONENTS``
#: (``meeple.engine.encoding``; docs/engine.md, "Derived encodings"): ``165 + 2 P`` numbers for
#: ``P`` seats, each in 0..1, seats relative to the viewer: the seat to move (one-hot, ``P``),
#: the step (one-hot of 3), the named suit (one-hot of 4), the viewer's hand (multi-hot over
#: the 52 cards in deck order), hand sizes / 52 (``P``), the discard pile (multi-hot, 52) and
#: its top card (one-hot, 52), stock / 52 and turns / ``max_turns``;
#: ``ENCODING.describe(game)`` prints it. The game supplies only its action table and step
#: bound.
ENCODING = derived_encoding(CrazyEightsState, action_texts, max_steps=max_steps)

#: The game's parts outside its rules (``Game.define``): its bot, its terminal drawing and the
#: adapters' encoding above (a game package keeps each in its own module and declares them in
#: its ``__init__.py``, as ``src/meeple/games/damocles/__init__.py`` does).
CrazyEights.define(bots={"heuristic": HeuristicBot}, renderer=render, encoding=ENCODING)
