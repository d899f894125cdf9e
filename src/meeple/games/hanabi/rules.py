"""Hanabi's spec and state (docs/rules/hanabi.md): the HLE's default game, as OpenSpiel's
``hanabi`` plays it, on the component model. Cards are ids 0..N-1 in the card file's order,
named ``R3`` in views (copies interchangeable); what each seat knows of its cards from hints
is ``knowledge``, shown as the ``notes`` written on the cards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meeple.engine import (
    ActionParseError,
    Capabilities,
    Game,
    KindAction,
    Parameter,
    ParameterError,
    Variant,
    register,
)
from meeple.engine.components import (
    COUNT,
    OTHERS,
    ComponentState,
    Pieces,
    Shown,
    Value,
    Zone,
    event_log,
)
from meeple.engine.rng import shuffle
from meeple.engine.validation import NonNegInt, check_that, json_path
from meeple.games.hanabi.content import load_cards


class Move(KindAction):
    """``play 2``, ``discard 0`` (hand positions, 0 the oldest card), ``hint 1 red``,
    ``hint 2 5`` (the seat hinted, then a colour name or a rank); tied to the seat making it."""

    __slots__ = ()


def note(known: str, colours: str, ranks: str) -> str | None:
    """What a seat knows of one card, as written on it (HAN-9): ``known``, the colours and
    ranks still possible (``"RY12345"``); out ``"R3"``, ``"R"``, ``"3"``, ``"not R/B"``,
    ``"R not 1/2"``... or None when nothing is known."""
    cs, rs = [c for c in known if c.isalpha()], [r for r in known if r.isdigit()]
    parts = []
    for have, every in ((cs, colours), (rs, ranks)):
        if len(have) == 1:
            parts.append(have[0])
        elif len(have) < len(every):
            parts.append("not " + "/".join(x for x in every if x not in have))
    return cs[0] + rs[0] if len(cs) == len(rs) == 1 else (" ".join(parts) or None)


def knowledge_of(text: str | None, colours: str, ranks: str) -> str:
    """The knowledge text a note says (the inverse of :func:`note`): ``"R3"`` -> ``"R3"``,
    ``"not R/B"`` -> ``"YGW12345"``, None -> every colour and rank."""
    cs, rs = colours, ranks
    words = [text[0], text[1:]] if text and " " not in text and len(text) > 1 else \
        (text or "").split()
    for k, word in enumerate(words):
        if word == "not":
            continue
        if k and words[k - 1] == "not":
            out = word.split("/")
            cs, rs = (("".join(c for c in cs if c not in out), rs) if out[0].isalpha()
                      else (cs, "".join(r for r in rs if r not in out)))
        else:
            cs, rs = (word, rs) if word.isalpha() else (cs, word)
    return cs + rs


class HanabiState(ComponentState):
    """Hands (each seen by the other seats), the deck (a count), the fireworks (the cards
    played, public), the discards (public), tokens, what each seat knows of its cards, whose
    turn, and the turns left once the deck is empty (None before)."""

    PIECES = {"card": Pieces(lambda game: range(len(game.card_names)), int,
                             names=lambda game: game.card_names, copies=True,
                             parse=lambda game, word, what: game.parse_card(word, what))}
    COMPONENTS = (
        Value("turns", type=NonNegInt, bounds=lambda game: (0, game.params["max_turns"])),
        Value("to_move", type=NonNegInt, seat=True),
        Value("info", type=NonNegInt, bounds=lambda game: (0, game.params["info_tokens"])),
        Value("lives", type=NonNegInt, bounds=lambda game: (0, game.params["life_tokens"])),
        Value("final_turns", type=NonNegInt | None),
        Zone("hands", pieces="card", per_seat=True, visibility=OTHERS, show="hands",
             count="hand_sizes", notes="notes"),
        Value("knowledge", type=list[str], per_seat=True, view=None,  # shown as notes
              restore=lambda view, st: [[knowledge_of(n, st.game.colours, st.game.ranks)
                                         for n in ns] for ns in view["notes"]]),
        Shown("notes", show=lambda st, seat: [
            [note(k, st.game.colours, st.game.ranks) for k in ks] for ks in st.knowledge]),
        Zone("fireworks", pieces="card", show="fireworks"),
        Zone("discard", pieces="card", show="discard"),
        Zone("deck", pieces="card", visibility=COUNT, count="deck_size", draw_pile=True),
        Shown("score", show=lambda st, seat: st.score()),
        event_log(),
    )
    __slots__ = tuple(c.name for c in COMPONENTS if not isinstance(c, Shown))

    def __init__(self, game: Hanabi, seed: int) -> None:
        super().__init__(game, seed)
        self.deck = list(range(len(game.card_names)))
        shuffle(self.rng, self.deck)
        self.hands = [[self.deck.pop() for _ in range(game.hand_size)]
                      for _ in range(game.players)]
        self.knowledge = [[game.colours + game.ranks] * game.hand_size
                          for _ in range(game.players)]
        self.fireworks, self.discard = [], []
        self.turns, self.to_move = 0, 0
        self.info, self.lives = game.params["info_tokens"], game.params["life_tokens"]
        self.final_turns, self.events = (None if self.deck else game.players), []
        self._refresh_acting()

    # ------------------------------------------------------------------ hooks of the model
    def _refresh_acting(self) -> None:
        self._acting = () if self.ended() else (self.to_move,)

    @classmethod
    def check_invariants(cls, game: Game, data: Any, base: str) -> None:
        """One knowledge text per card held, each a subset of the colours then the ranks; the
        fireworks in the order they can be played; turns left only once the deck is empty."""
        for s, (hand, ks) in enumerate(zip(data.hands, data.knowledge, strict=True)):
            check_that(len(ks) == len(hand), json_path(base, "knowledge", s),
                       "expected one knowledge text per card held")
            for k in ks:
                check_that(k == "".join(x for x in game.colours + game.ranks if x in k) and
                           any(c.isalpha() for c in k) and any(c.isdigit() for c in k),
                           json_path(base, "knowledge", s), "expected colours then ranks "
                           f"out of {game.colours + game.ranks}, at least one of each")
        height: dict[str, int] = {}
        for card in data.fireworks:
            colour, rank = game.card_names[card][0], int(game.card_names[card][1:])
            check_that(height.get(colour, 0) == rank - 1, json_path(base, "fireworks"),
                       f"expected {game.card_names[card]} only on {colour}{rank - 1}")
            height[colour] = rank
        check_that(data.final_turns is None or not data.deck, json_path(base, "final_turns"),
                   "expected no count of final turns while the deck holds cards")

    def scenario_setup(self, described: Mapping[str, Any], extra: Mapping[str, Any]) -> None:
        """Without described knowledge, nothing is known of any card held."""
        if "knowledge" not in described:
            every = self.game.colours + self.game.ranks
            self.knowledge = [[every] * len(h) for h in self.hands]

    # ------------------------------------------------------------------ rules
    def heights(self) -> dict[str, int]:
        """Each colour's firework: the highest rank played (0: none)."""
        out = dict.fromkeys(self.game.colours, 0)
        for card in self.fireworks:
            name = self.game.card_names[card]
            out[name[0]] = int(name[1:])
        return out

    def score(self) -> int:
        """The cards on the fireworks; 0 once the last life is lost unless the variant keeps
        them (HAN-7)."""
        if self.lives == 0 and not self.game.params["keep_score_on_last_fuse"]:
            return 0
        return len(self.fireworks)

    def ended(self) -> bool:
        """HAN-6: no life left, every firework complete, the final round played, or the cap."""
        return (self.lives == 0 or len(self.fireworks) == self.game.max_score
                or self.final_turns == 0 or self.turns >= self.game.params["max_turns"])

    def _hint_targets(self, seat: int, word: str) -> list[int]:
        colour, names = self.game.colour_of.get(word), self.game.card_names
        return [i for i, c in enumerate(self.hands[seat])
                if (names[c][0] == colour if colour else names[c][1:] == word)]

    def _legal_actions(self, seat: int) -> Sequence[Move]:
        n, hand = self.game.players, range(len(self.hands[seat]))
        out = [Move(seat, "discard", (i,)) for i in hand  # the HLE's order
               if self.info < self.game.params["info_tokens"]]
        out += [Move(seat, "play", (i,)) for i in hand]
        if self.info > 0:
            for other in ((seat + k) % n for k in range(1, n)):
                out += [Move(seat, "hint", (other, w)) for w in self.game.hint_words
                        if self._hint_targets(other, w)]
        return out

    def _illegal_reason(self, seat: int, action: Any) -> str:
        kind, args = getattr(action, "kind", ""), getattr(action, "args", ())
        if kind in ("play", "discard") and args[0] >= len(self.hands[seat]):
            return f"your hand has positions 0 to {len(self.hands[seat]) - 1}"
        if kind == "discard":
            return "every information token is in the box: play or hint instead (HAN-4)"
        if kind == "hint" and self.info == 0:
            return "no information token is left: play or discard (HAN-3)"
        if kind == "hint" and args[0] == seat:
            return "hint another seat, not yourself"
        return f"seat {args[0]} holds no {args[1]} card: a hint must touch a card (HAN-3)"

    def _log(self, seat: int, text: str) -> None:
        if self.narrate:  # the search's own states keep no log
            self.events.append([self.turns, seat, text])

    def _apply(self, joint: Mapping[int, Move]) -> None:  # type: ignore[override]
        ((seat, move),) = joint.items()
        if not self.deck and self.final_turns is not None:
            self.final_turns -= 1
        if move.kind == "hint":
            other, word = move.args
            self.info -= 1
            touched = self._hint_targets(other, word)
            letter = self.game.colour_of.get(word, word)
            where = ", ".join(map(str, touched))
            self._log(seat, f"hints seat {other} {word}: card{'s' * (len(touched) > 1)} {where}")
            keep = self.game.colours if letter.isalpha() else self.game.ranks
            self.knowledge[other] = [
                "".join(x for x in k if x not in keep or (x == letter) == (i in touched))
                for i, k in enumerate(self.knowledge[other])]
        else:
            (i,) = move.args
            card = self.hands[seat].pop(i)
            del self.knowledge[seat][i]
            name, top = self.game.card_names[card], self.heights()
            good = move.kind == "play" and top[name[0]] == int(name[1:]) - 1
            self._log(seat, f"{move.kind}s {i}: {name}" + (
                "" if good or move.kind == "discard" else ", a fuse burns"))
            if good:
                self.fireworks.append(card)
                if name[1:] == self.game.ranks[-1]:
                    self.info = min(self.info + 1, self.game.params["info_tokens"])
            else:
                self.discard.append(card)
                if move.kind == "play":
                    self.lives -= 1
                else:
                    self.info += 1
            if self.deck and self.lives and len(self.fireworks) < self.game.max_score:
                self.hands[seat].append(self.deck.pop())
                self.knowledge[seat].append(self.game.colours + self.game.ranks)
                if not self.deck:
                    self.final_turns = self.game.players
                    self._log(-1, "the last card is drawn: one more turn each")
        self.turns, self.to_move = self.turns + 1, (seat + 1) % self.game.players
        self._refresh_acting()

    # ------------------------------------------------------------------ results
    def returns(self) -> tuple[float, ...]:
        """Every seat gets the score at the end (HAN-7), 0 before."""
        return (float(self.score() if self.ended() else 0),) * self.game.players

    def scores(self) -> tuple[float, ...]:
        return (float(self.score()),) * self.game.players

    def outcome(self) -> dict[str, Any]:
        """``{"team_win": all fireworks complete, "cause": "perfect" | "fuses" | "deck" |
        "truncation", "score": int}`` at the end; ``{}`` before."""
        if not self.ended():
            return {}
        cause = ("perfect" if len(self.fireworks) == self.game.max_score else
                 "fuses" if self.lives == 0 else "deck" if self.final_turns == 0
                 else "truncation")
        return {"team_win": cause == "perfect", "cause": cause, "score": self.score()}

    def is_truncated(self) -> bool:
        return self.outcome().get("cause") == "truncation"

    def length(self) -> int:
        return self.turns


@register
class Hanabi(Game):
    """Hanabi for 2-5 seats (docs/rules/hanabi.md)."""

    name = "hanabi"
    title = "Hanabi"
    summary = "co-operative fireworks: see every hand but your own, and hint (HLE rules)"
    rules_page = "docs/rules/hanabi.md"
    score_name = "fireworks"
    timeout_kinds = ("discard", "play")
    playtest_bots = ("heuristic",)  # random seats burn the fuses in about 12 turns
    state_class = HanabiState
    parameters = (
        Parameter("cards", "", "a card file to use instead of the packaged one (HAN-1)",
                  file=True),
        Parameter("hand_size", 0, "cards in hand (0: 5 with 2-3 seats, 4 with 4-5; HAN-2)",
                  minimum=0, maximum=8),
        Parameter("info_tokens", 8, "information tokens (HAN-3)", minimum=1, maximum=20),
        Parameter("life_tokens", 3, "life tokens (fuses; HAN-5)", minimum=1, maximum=10),
        Parameter("keep_score_on_last_fuse", False,
                  "the last fuse keeps the fireworks' points (the rule book; HAN-7)"),
        Parameter("max_turns", 300, "cap on turns (X-5; never reached with the packaged "
                  "deck)", minimum=1, maximum=10_000),
    )
    variants = (Variant("hle", "the HLE's default game: 0 points when the last fuse burns"),
                Variant("rule-book", "the printed rule book's ending: the last fuse keeps "
                        "the fireworks' points", {"keep_score_on_last_fuse": True}))
    min_players, max_players, default_players = 2, 5, 2
    __slots__ = ("card_names", "colours", "ranks", "colour_of", "hint_words", "max_score",
                 "hand_size")

    def __init__(self, variant: str | None = None, players: int | None = None,
                 **params: Any) -> None:
        super().__init__(variant, players, **params)
        cards = load_cards(self.params["cards"])
        colours = "".join(c.letter for c in cards.colours)
        ranks = "".join(str(r + 1) for r in range(len(cards.copies)))
        names = tuple(f"{c}{r + 1}" for c in colours
                      for r, k in enumerate(cards.copies) for _ in range(k))
        hand_size = self.params["hand_size"] or (5 if self.players <= 3 else 4)
        if len(names) < hand_size * self.players:
            raise ParameterError(f"the card file has {len(names)} cards; {self.players} hands "
                                 f"of {hand_size} need more (HAN-2)")
        colour_of = {c.name: c.letter for c in cards.colours}
        for key, value in (("colours", colours), ("ranks", ranks), ("card_names", names),
                           ("colour_of", colour_of), ("hint_words", (*colour_of, *ranks)),
                           ("max_score", len(colours) * len(ranks)), ("hand_size", hand_size)):
            object.__setattr__(self, key, value)  # a spec is immutable once built

    def parse_card(self, word: str, what: str) -> tuple[int, ...]:
        """A scenario word ``R3`` -> the ids of its copies (the builder takes one)."""
        ids = tuple(i for i, n in enumerate(self.card_names) if n == str(word).upper())
        if not ids:
            raise ParameterError(f"{what}: no card {word!r}; write a colour letter of "
                                   f"{self.colours} and a rank, e.g. R3")
        return ids

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(self.min_players, self.max_players, simultaneous=False,
                            hidden_information=True, chance=True, cooperative=True,
                            max_length=self.params["max_turns"], length_unit="turns")

    def new_initial_state(self, seed: int = 0) -> HanabiState:
        """Shuffle (seeded), deal each seat in turn its hand; seat 0 starts (HAN-2)."""
        return HanabiState(self, seed)

    def parse_action(self, text: str, seat: int) -> Move:
        """``play 2``, ``discard 0``, ``hint 1 red`` or ``hint 1 r``, ``hint 2 5``; legality
        is checked when it is applied."""
        words = text.strip().lower().split()
        if len(words) == 2 and words[0] in ("play", "discard") and words[1].isdigit():
            return Move(seat, words[0], (int(words[1]),))
        if len(words) == 3 and words[0] == "hint" and words[1].isdigit():
            by_letter = {v.lower(): k for k, v in self.colour_of.items()}
            word = by_letter.get(words[2], words[2])
            if word in self.hint_words and int(words[1]) < self.players:
                return Move(seat, "hint", (int(words[1]), word))
        raise ActionParseError(f"cannot read {text!r}: write 'play 2', 'discard 0' (hand "
                               "positions), 'hint 1 red' or 'hint 1 5' (a seat, then a "
                               "colour or a rank)")
