"""Damocles vocabulary: the five gods, the codex types, and the runtime ``Codex`` value.

Rules: seeds/damocles.txt (OVERVIEW, SCORING, CODEX TYPES); decisions DAM-n in
docs/rules/damocles.md. The deck itself is data (``data/codices.json``), validated by
:mod:`.content` and turned into :class:`Codex` values.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The token types, in a fixed order (index = god id). Colours are cosmetic (DAM-34).
GODS: tuple[str, ...] = ("HADES", "POSEIDON", "ARTEMIS", "DEMETER", "NYX")
#: One-letter initials used in the action notation and the terminal: H P A D N.
GOD_INITIALS: tuple[str, ...] = tuple(g[0] for g in GODS)
#: Display colours (OVERVIEW): red, blue, green, gold, black.
GOD_COLOURS: tuple[str, ...] = ("red", "blue", "green", "gold", "black")

#: Slots in the central circle (OVERVIEW: "a central circle containing seven tokens").
CIRCLE = 7

PRODUCTION, NUMBER, MANIPULATION, DESTRUCTION = (
    "PRODUCTION", "NUMBER", "MANIPULATION", "DESTRUCTION")


@dataclass(frozen=True, slots=True)
class TypeInfo:
    """What a codex type is (CODEX TYPES) and is worth (SCORING; DAM-3: pips = value)."""

    name: str
    letter: str  # the seed's symbol: G C O 1 2 3 H R A L S E
    cls: str
    permanent: bool
    pips: int
    number: int  # N for One/Two/Three, else 0
    module: str  # "base", "annex" or "destruction" (DAM-31, DAM-32)


TYPES: dict[str, TypeInfo] = {t.name: t for t in (
    TypeInfo("GENERATE", "G", PRODUCTION, True, 3, 0, "base"),
    TypeInfo("COMBUST", "C", PRODUCTION, False, 3, 0, "base"),
    TypeInfo("ORACLE", "O", PRODUCTION, True, 3, 0, "base"),
    TypeInfo("ONE", "1", NUMBER, True, 2, 1, "base"),
    TypeInfo("TWO", "2", NUMBER, True, 3, 2, "base"),
    TypeInfo("THREE", "3", NUMBER, True, 4, 3, "base"),
    TypeInfo("HASTE", "H", MANIPULATION, False, 1, 0, "base"),
    TypeInfo("REFLEX", "R", MANIPULATION, False, 2, 0, "base"),
    TypeInfo("ANNEX", "A", MANIPULATION, False, 2, 0, "annex"),
    TypeInfo("LYSE", "L", DESTRUCTION, False, 3, 0, "destruction"),
    TypeInfo("SACRIFICE", "S", DESTRUCTION, False, 4, 0, "destruction"),
    TypeInfo("EVISCERATE", "E", DESTRUCTION, False, 5, 0, "destruction"),
)}


@dataclass(frozen=True, slots=True)
class Codex:
    """One codex card (immutable; compared by ``id``, unique within a deck).

    Attributes:
        id: unique name, e.g. ``"GEN-03"`` (used in the action notation).
        type: a key of :data:`TYPES`.
        pattern: ``((offset, god), ...)`` with offsets ascending from 0 (the seed's position 1)
            and at most 6, gods as indices into :data:`GODS` (DAM-1, DAM-4).
    """

    id: str
    type: str
    pattern: tuple[tuple[int, int], ...]

    @property
    def info(self) -> TypeInfo:
        return TYPES[self.type]

    @property
    def pips(self) -> int:
        """Points scored on first play (SCORING; DAM-3)."""
        return len(self.pattern)

    def pattern_text(self) -> str:
        """The seed's notation, e.g. ``Hades (1), Nyx (3,6)`` (positions from 1)."""
        groups: dict[int, list[int]] = {}
        for offset, god in self.pattern:
            groups.setdefault(god, []).append(offset + 1)
        parts = []
        for god, positions in sorted(groups.items(), key=lambda kv: kv[1][0]):
            parts.append(f"{GODS[god].title()} ({','.join(map(str, positions))})")
        return ", ".join(parts)

    def __str__(self) -> str:
        return f"{self.id} {self.type.title()} [{self.pattern_text()}]"
