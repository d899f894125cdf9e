"""Four Gods actions: a seat's planning choice, one action value per round.

A :class:`Selection` is the set of 0 to ``max_actions`` indicators a seat places behind its
divider (rule book, Planning Phase): ATTACK against some opponents, DEFENSE against some. Each
indicator exists once per opponent colour (B4G-3), so at full energy against three opponents
there are 1 + 6 + 15 + 20 = 42 selections.

Notation (canonical text, printed by ``str``):

* ``pass`` - no indicators;
* ``atk:BG def:R`` - attack BLUE and GREEN, defend against RED; colours by initial, in seat
  order; either part may be absent (``def:O``);
* a trailing `` reveal`` marks a selection shown to the table as soon as it is submitted
  (variant ``reveal_lock``, B4G-16).

``parse_selection`` also accepts ``a:bg d:r``, ``ab ag dr``, ``attack blue green defend red``,
or ``-`` for pass, in any letter case. Empty or blank text is refused (the engine's
``parse_action`` check): an empty line is not a move.

Selections are interned: one object per (players, seat, indicators, reveal), made only by
:func:`selection`, so equal selections are identical and legality checks are identity look-ups.
"""

from __future__ import annotations

from functools import cache

from meeple.engine.action import Action
from meeple.engine.errors import ActionParseError

#: Seat colours, clockwise from RED (B4G-2). With fewer than 4 players the first ones are used.
COLOURS: tuple[str, ...] = ("RED", "BLUE", "GREEN", "ORANGE")

#: Bit layout of ``Selection.mask``: bit ``t`` = ATTACK seat t, bit ``DEFEND_SHIFT + t`` = DEFENSE.
DEFEND_SHIFT = 4

_ATTACK_WORDS = {"a", "atk", "attack", "attacks", "att"}
_DEFEND_WORDS = {"d", "def", "defend", "defends", "defense", "defence"}
_PASS_WORDS = {"", "-", "pass", "none", "nothing", "p"}


def selection_text(attacks: tuple[int, ...], defends: tuple[int, ...], reveal: bool = False) -> str:
    """Canonical text of a selection, e.g. ``atk:BG def:R`` or ``pass`` (module docstring)."""
    parts = []
    if attacks:
        parts.append("atk:" + "".join(COLOURS[t][0] for t in attacks))
    if defends:
        parts.append("def:" + "".join(COLOURS[t][0] for t in defends))
    text = " ".join(parts) or "pass"
    return text + " reveal" if reveal else text


class Selection(Action):
    """One seat's planning choice for a round (immutable, interned).

    Attributes:
        players: seat count of the game it belongs to (2..4).
        seat: the choosing seat (0..players-1, RED first).
        attacks: seats attacked, ascending.
        defends: seats defended against, ascending.
        reveal: shown to the table at once and locked (variant ``reveal_lock``).
        mask: indicator bits (see ``DEFEND_SHIFT``).
        size: number of indicators (0..6).
    """

    __slots__ = ("players", "seat", "attacks", "defends", "reveal", "mask", "size", "_text",
                 "public")

    def __init__(self, players: int, seat: int, attacks: tuple[int, ...],
                 defends: tuple[int, ...], reveal: bool) -> None:
        mask = 0
        for t in attacks:
            mask |= 1 << t
        for t in defends:
            mask |= 1 << (DEFEND_SHIFT + t)
        text = selection_text(attacks, defends, reveal)
        setter = object.__setattr__
        setter(self, "players", players)
        setter(self, "seat", seat)
        setter(self, "attacks", attacks)
        setter(self, "defends", defends)
        setter(self, "reveal", reveal)
        setter(self, "mask", mask)
        setter(self, "size", len(attacks) + len(defends))
        setter(self, "_text", text)
        #: JSON-compatible public form used in views and history: [attacked, defended].
        setter(self, "public", (attacks, defends))

    def cost(self, attack_cost: int, defend_cost: int) -> int:
        """Energy this selection costs under the given per-indicator costs."""
        return len(self.attacks) * attack_cost + len(self.defends) * defend_cost

    def defends_against(self, seat: int) -> bool:
        """Whether this selection holds a DEFENSE indicator against ``seat``."""
        return bool(self.mask >> (DEFEND_SHIFT + seat) & 1)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Selection({COLOURS[self.seat]}: {self._text})"

    # Selections are interned (one object per value, see ``selection``), so equality and
    # hashing are object identity: C-level speed for the legality checks of every playout.
    def __copy__(self) -> Selection:
        return self

    def __deepcopy__(self, memo: dict) -> Selection:
        return self

    def __reduce__(self):  # interned values unpickle to the interned object
        return (selection, (self.players, self.seat, self.attacks, self.defends, self.reveal))


_INTERNED: dict[tuple[int, int, tuple[int, ...], tuple[int, ...], bool], Selection] = {}


def selection(players: int, seat: int, attacks: tuple[int, ...], defends: tuple[int, ...],
              reveal: bool = False) -> Selection:
    """The interned selection of ``seat`` with these indicators (the only way to make one).

    Args:
        players: seat count (2..4); seat, attacks and defends are seats below it.
        attacks, defends: ascending tuples of opponent seats (never ``seat`` itself).
        reveal: submitted face up (variant ``reveal_lock``).
    Raises:
        ActionParseError: for a seat out of range, an own-colour or repeated indicator.
    """
    key = (players, seat, tuple(attacks), tuple(defends), bool(reveal))
    found = _INTERNED.get(key)
    if found is not None:
        return found
    if not (isinstance(players, int) and 2 <= players <= len(COLOURS)):
        raise ActionParseError(f"Four Gods has 2..{len(COLOURS)} players, not {players!r}")
    if not (isinstance(seat, int) and 0 <= seat < players):
        raise ActionParseError(f"there is no seat {seat!r} in a {players}-player game")
    for group, label in ((key[2], "attack"), (key[3], "defend")):
        if tuple(sorted(set(group))) != group:
            raise ActionParseError(f"each {label} indicator may be chosen once, in seat order")
        for t in group:
            if not (isinstance(t, int) and 0 <= t < players):
                raise ActionParseError(f"there is no seat {t!r} in a {players}-player game")
            if t == seat:
                raise ActionParseError(
                    f"{COLOURS[seat]} has no indicator for its own colour (Game Setup 4)"
                )
    return _INTERNED.setdefault(key, Selection(*key))


@cache
def all_selections(players: int, seat: int, reveal: bool = False) -> tuple[Selection, ...]:
    """Every selection of ``seat`` (any size, all opponents), in canonical order:
    by size, then attacks before defends, then seat order."""
    opponents = [t for t in range(players) if t != seat]
    indicators = [("a", t) for t in opponents] + [("d", t) for t in opponents]
    out = []
    for bits in range(1 << len(indicators)):
        chosen = [indicators[i] for i in range(len(indicators)) if bits >> i & 1]
        attacks = tuple(t for kind, t in chosen if kind == "a")
        defends = tuple(t for kind, t in chosen if kind == "d")
        out.append(selection(players, seat, attacks, defends, reveal))

    def order(s: Selection) -> tuple:
        return (s.size, [(0, t) for t in s.attacks] + [(1, t) for t in s.defends])

    return tuple(sorted(out, key=order))


#: Where an opponent sits from a seat, by clockwise offset (B4G-2 seats are clockwise; the next
#: seat clockwise is on one's left), for 2, 3 and 4 players.
RELATIVE: dict[int, dict[int, str]] = {2: {1: "across"}, 3: {1: "left", 2: "right"},
                                       4: {1: "left", 2: "across", 3: "right"}}


def selection_tags(sel: Selection) -> tuple[str, ...]:
    """What a selection does, as tags for scripted policies (``Game.action_tags``): ``pass``
    for no indicator; else per ATTACK indicator ``attack`` and ``attack:<where>``, per DEFENSE
    ``defend`` and ``defend:<where>`` (``left``, ``right`` or ``across``: the target's place
    from the seat, :data:`RELATIVE`), then ``indicators:<n>`` and ``reveal`` for a face-up one.
    E.g. RED's ``atk:BG def:O`` in 4 players: ``attack, attack:left, attack, attack:across,
    defend, defend:right, indicators:3``."""
    if not sel.size:
        return ("pass", "reveal") if sel.reveal else ("pass",)
    where = RELATIVE[sel.players]
    tags: list[str] = []
    for word, group in (("attack", sel.attacks), ("defend", sel.defends)):
        for t in group:
            tags += [word, f"{word}:{where[(t - sel.seat) % sel.players]}"]
    tags.append(f"indicators:{sel.size}")
    if sel.reveal:
        tags.append("reveal")
    return tuple(tags)


def example_selection(players: int, seat: int) -> str:
    """A selection ``seat`` could write in a ``players``-seat game, naming only other colours:
    attacks on all opponents but the last, a defend against the last (RED of 4:
    ``atk:BG def:O``; of 2: ``atk:B def:B``). For messages; it ignores energy and eliminations.
    """
    others = [t for t in range(players) if t != seat]
    return selection_text(tuple(others[:max(1, len(others) - 1)]), (others[-1],))


def parse_selection(text: str, players: int, seat: int) -> Selection:
    """Read a selection in the notation of this module's docstring.

    Raises:
        ActionParseError: naming the word that could not be read, a colour that is not in the
            game, the seat's own colour, or a repeated indicator.
    """
    colours = COLOURS[:players]
    initials = {c[0].lower(): i for i, c in enumerate(colours)}
    names = {c.lower(): i for i, c in enumerate(colours)}
    tokens = text.lower().replace(",", " ").replace(":", " ").replace("+", " ").split()
    reveal = False
    if tokens and tokens[-1] in ("reveal", "!"):
        reveal = True
        tokens = tokens[:-1]
    elif tokens and tokens[-1].endswith("!"):
        reveal = True
        tokens[-1] = tokens[-1][:-1]
    if " ".join(tokens) in _PASS_WORDS:
        return selection(players, seat, (), (), reveal)
    attacks: list[int] = []
    defends: list[int] = []
    mode: list[int] | None = None

    def colour_list(word: str) -> list[int] | None:
        if word in names:
            return [names[word]]
        if word and all(ch in initials for ch in word):
            return [initials[ch] for ch in word]
        return None

    for word in tokens:
        if word in _ATTACK_WORDS:
            mode = attacks
            continue
        if word in _DEFEND_WORDS:
            mode = defends
            continue
        targets = colour_list(word) if mode is not None else None
        if targets is None and word[0] in "ad" and len(word) > 1:
            targets = colour_list(word[1:])
            if targets is not None:
                (attacks if word[0] == "a" else defends).extend(targets)
                continue
        if targets is None:
            allowed = ", ".join(c.lower() for c in colours)
            raise ActionParseError(
                f"cannot read {word!r} in {text!r}: write e.g. "
                f"'{example_selection(players, seat)}' or 'pass' "
                f"(colours: {allowed}; initials {''.join(initials).upper()})"
            )
        mode.extend(targets)
    if mode is not None and not (attacks or defends) or (
            tokens and tokens[-1] in _ATTACK_WORDS | _DEFEND_WORDS):
        raise ActionParseError(f"{text!r} names no colour after {tokens[-1]!r}")
    for group, label in ((attacks, "an attack"), (defends, "a defend")):
        if len(set(group)) != len(group):
            raise ActionParseError(f"{text!r} repeats {label} indicator; each is chosen once")
    return selection(players, seat, tuple(sorted(attacks)), tuple(sorted(defends)), reveal)
