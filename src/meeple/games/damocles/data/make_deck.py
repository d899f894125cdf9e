"""Generate the Damocles reference deck, ``codices.json`` (DAM-26, rules-questions §1.4).

The seed names the codex types but lists no deck, so this script authored one. It was run
ONCE and its output checked in; games shuffle the frozen manifest and never regenerate it.
Running it again rewrites ``codices.json`` byte for byte (one ``random.Random(SEED)``, no
global randomness, no hash-ordered iteration)::

    python src/meeple/games/damocles/data/make_deck.py          # rewrite codices.json
    python src/meeple/games/damocles/data/make_deck.py --check  # exit 1 if the file differs

In: nothing but the constants below. Out: the manifest text (:func:`manifest_text`).

How the deck is made:

1. Composition (§1.4): Generate 10, Combust 10, Oracle 6, One 14, Two 10, Three 6, Haste 14,
   Reflex 10 (80 base codices, DAM-35), plus the modules Annex 6 (DAM-31) and Lyse 3,
   Sacrifice 2, Eviscerate 2 (DAM-32). Pips per codex = the type's value (DAM-3).
2. Fixed codices: the seed's four patterns, One Demeter (1,4), One Hades (1,4), One Nyx (1,3)
   and Combust [Hades (1), Nyx (3,6)], and the Annex Artemis (1), Nyx (2) of the seed's
   Annex example (scenario T-DAM-4).
3. Every other codex gets a shape and a god structure from a per-type quota (:data:`PLAN`):
   a few contiguous shapes, the rest with at least one blank gap so Reflex matters (DAM-5);
   shapes stay compact (2-4 pips end by position 5, 5 pips by position 6); god structures
   are mostly one god or two gods (e.g. (2, 1) = two pips of one god, one of another), with
   at most 3 pips of a god (DAM-36). Which gods fill a structure is drawn at random, and a
   drawn pattern that repeats an earlier (type, pattern) is redrawn.
4. A seeded hill climb recolours whole god groups (god A -> a god absent from the codex) to
   balance the gods: every god's pip count within 1 of the others in the base deck and in
   each module combination, and each type spread over the gods as evenly as it allows.
5. Codices are numbered per type (the fixed ones first, then sorted), validated with
   :func:`meeple.games.damocles.content.validate_deck_data`, and written one per line.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from meeple.engine.content import item_per_line, write_or_check
from meeple.games.damocles.codex import GODS, TYPES, Codex
from meeple.games.damocles.content import FORMAT, ID_PREFIXES, validate_deck_data

#: The fixed seed of the one random.Random this script uses.
SEED = 26_000
#: Hill-climb steps (enough to reach a balanced deck from SEED; part of the recipe).
STEPS = 3000
OUT = Path(__file__).with_name("codices.json")

Pattern = tuple[tuple[int, int], ...]  # ((position 1..7, god index), ...)


@dataclass(frozen=True)
class Plan:
    """How to author one type: its count, fixed codices, contiguous count and structures.

    ``structures`` pairs a god structure (pip counts per distinct god) with how many of the
    non-fixed codices get it; ``contiguous`` of them get a gap-free shape.
    """

    type: str
    count: int
    contiguous: int
    structures: tuple[tuple[tuple[int, ...], int], ...]
    fixed: tuple[Pattern, ...] = ()


def _p(*pips: tuple[int, str]) -> Pattern:
    return tuple((position, GODS.index(god)) for position, god in pips)


PLAN: tuple[Plan, ...] = (
    Plan("GENERATE", 10, 3, (((3,), 3), ((2, 1), 6), ((1, 1, 1), 1))),
    Plan("COMBUST", 10, 2, (((3,), 2), ((2, 1), 6), ((1, 1, 1), 1)),
         fixed=(_p((1, "HADES"), (3, "NYX"), (6, "NYX")),)),
    Plan("ORACLE", 6, 2, (((3,), 2), ((2, 1), 4))),
    Plan("ONE", 14, 3, (((2,), 4), ((1, 1), 7)),
         fixed=(_p((1, "DEMETER"), (4, "DEMETER")), _p((1, "HADES"), (4, "HADES")),
                _p((1, "NYX"), (3, "NYX")))),
    Plan("TWO", 10, 3, (((3,), 3), ((2, 1), 7))),
    Plan("THREE", 6, 2, (((3, 1), 3), ((2, 2), 3))),
    Plan("HASTE", 14, 14, (((1,), 14),)),
    Plan("REFLEX", 10, 3, (((2,), 4), ((1, 1), 6))),
    Plan("ANNEX", 6, 1, (((2,), 3), ((1, 1), 2)), fixed=(_p((1, "ARTEMIS"), (2, "NYX")),)),
    Plan("LYSE", 3, 1, (((3,), 1), ((2, 1), 2))),
    Plan("SACRIFICE", 2, 1, (((3, 1), 1), ((2, 2), 1))),
    Plan("EVISCERATE", 2, 1, (((3, 2), 1), ((2, 2, 1), 1))),
)

#: Shapes with at least one blank gap, per pip count, with draw weights.
GAPPED_SHAPES: dict[int, tuple[tuple[tuple[int, ...], int], ...]] = {
    2: (((1, 3), 3), ((1, 4), 3), ((1, 5), 1)),
    3: (((1, 2, 4), 1), ((1, 3, 4), 1), ((1, 3, 5), 1), ((1, 2, 5), 1), ((1, 4, 5), 1)),
    4: (((1, 2, 3, 5), 1), ((1, 2, 4, 5), 1), ((1, 3, 4, 5), 1)),
    5: (((1, 2, 3, 4, 6), 1), ((1, 2, 3, 5, 6), 1), ((1, 2, 4, 5, 6), 1),
        ((1, 3, 4, 5, 6), 1)),
}
#: The module combinations whose god pips must each balance within 1.
COMBINATIONS: tuple[tuple[str, ...], ...] = (
    ("base",), ("base", "annex"), ("base", "destruction"), ("base", "annex", "destruction"))


@dataclass
class _Card:
    type: str
    pattern: Pattern
    fixed: bool


def _shape(rng: random.Random, pips: int, gapped: bool) -> tuple[int, ...]:
    if not gapped:
        return tuple(range(1, pips + 1))
    shapes = GAPPED_SHAPES[pips]
    return rng.choices([s for s, _ in shapes], weights=[w for _, w in shapes])[0]


def _draw(rng: random.Random, type_name: str, structure: tuple[int, ...], gapped: bool,
          seen: set[tuple[str, Pattern]]) -> Pattern:
    pips = sum(structure)
    for _ in range(1000):
        shape = _shape(rng, pips, gapped)
        labels = [group for group, size in enumerate(structure) for _ in range(size)]
        rng.shuffle(labels)
        gods = rng.sample(range(len(GODS)), len(structure))
        pattern = tuple((position, gods[label]) for position, label in zip(shape, labels,
                                                                             strict=True))
        if pips == 1 or (type_name, pattern) not in seen:
            return pattern
    raise RuntimeError(f"no fresh {type_name} pattern for {structure}")  # pragma: no cover


def _counts(cards: Sequence[_Card]) -> dict[str, list[int]]:
    counts = {t: [0] * len(GODS) for t in TYPES}
    for card in cards:
        for _, god in card.pattern:
            counts[card.type][god] += 1
    return counts


def _spread(values: Sequence[int]) -> int:
    return max(values) - min(values)


def combination_counts(counts: dict[str, list[int]], modules: Sequence[str]) -> list[int]:
    """Pips per god over the types of ``modules`` (``counts``: type -> pips per god)."""
    return [sum(counts[t][g] for t in TYPES if TYPES[t].module in modules)
            for g in range(len(GODS))]


def _cost(counts: dict[str, list[int]]) -> int:
    unbalanced = sum(max(0, _spread(combination_counts(counts, c)) - 1) for c in COMBINATIONS)
    return 1000 * unbalanced + sum(_spread(v) for v in counts.values())


def _recolour(card: _Card, old: int, new: int) -> Pattern:
    return tuple((p, new if g == old else g) for p, g in card.pattern)


def _group(card: _Card, god: int) -> int:
    return sum(1 for _, g in card.pattern if g == god)


def _balance(rng: random.Random, cards: list[_Card], seen: set[tuple[str, Pattern]]) -> None:
    """Hill climb on god counts; a step is kept unless it raises the cost.

    A step recolours one god group of one codex (god A -> a god B absent from it), or, every
    other step, also recolours an equal B group of a second codex back to A, which keeps the
    deck totals and moves pips between types.
    """
    counts = _counts(cards)
    cost = _cost(counts)
    movable = [i for i, card in enumerate(cards) if not card.fixed]
    for step in range(STEPS):
        first = cards[rng.choice(movable)]
        present = sorted({god for _, god in first.pattern})
        old = rng.choice(present)
        new = rng.choice([g for g in range(len(GODS)) if g not in present])
        size = _group(first, old)
        moves = [(first, old, new)]
        if step % 2:
            partners = [cards[i] for i in movable if cards[i] is not first
                        and _group(cards[i], new) == size and _group(cards[i], old) == 0]
            if not partners:
                continue
            moves.append((rng.choice(partners), new, old))
        patterns = [_recolour(card, a, b) for card, a, b in moves]
        keys = [(card.type, pattern) for (card, _, _), pattern in zip(moves, patterns,
                                                                      strict=True)]
        if any(len(k[1]) > 1 and k in seen for k in keys) or len(set(keys)) < len(keys):
            continue
        for card, a, b in moves:
            counts[card.type][a] -= size
            counts[card.type][b] += size
        trial = _cost(counts)
        if trial <= cost:
            cost = trial
            for (card, _, _), pattern, key in zip(moves, patterns, keys, strict=True):
                seen.discard((card.type, card.pattern))
                seen.add(key)
                card.pattern = pattern
        else:
            for card, a, b in moves:
                counts[card.type][a] += size
                counts[card.type][b] -= size
    if cost >= 1000:
        raise RuntimeError("the gods did not balance; raise STEPS or change SEED")


def _sort_key(card: _Card) -> tuple[Any, ...]:
    return (len({g for _, g in card.pattern}), [p for p, _ in card.pattern],
            [g for _, g in card.pattern])


def build_cards() -> list[_Card]:
    """Author the deck: every codex's type and 1-based pattern, in manifest order."""
    rng = random.Random(SEED)
    cards: list[_Card] = []
    seen: set[tuple[str, Pattern]] = set()
    for plan in PLAN:
        for pattern in plan.fixed:
            cards.append(_Card(plan.type, pattern, fixed=True))
            seen.add((plan.type, pattern))
        structures = [s for s, n in plan.structures for _ in range(n)]
        assert len(structures) + len(plan.fixed) == plan.count, plan.type
        rng.shuffle(structures)
        gapped = [False] * plan.contiguous + [True] * (len(structures) - plan.contiguous)
        rng.shuffle(gapped)
        for structure, gap in zip(structures, gapped, strict=True):
            pattern = _draw(rng, plan.type, structure, gap and sum(structure) > 1, seen)
            cards.append(_Card(plan.type, pattern, fixed=False))
            seen.add((plan.type, pattern))
    _balance(rng, cards, seen)
    ordered: list[_Card] = []
    for plan in PLAN:
        mine = [c for c in cards if c.type == plan.type]
        ordered += [c for c in mine if c.fixed] + sorted((c for c in mine if not c.fixed),
                                                          key=_sort_key)
    return ordered


def has_gap(positions: Sequence[int]) -> bool:
    """Whether a pattern shows a blank space between its first and last pip (DAM-5)."""
    return len(positions) > 1 and positions[-1] - positions[0] + 1 > len(positions)


def _describe(cards: Sequence[_Card], ids: Sequence[str]) -> str:
    counts = _counts(cards)
    base = [c for c in cards if TYPES[c.type].module == "base"]
    multi = [c for c in base if len(c.pattern) > 1]
    multi_all = [c for c in cards if len(c.pattern) > 1]
    gapped = sum(has_gap([p for p, _ in c.pattern]) for c in multi)
    gapped_all = sum(has_gap([p for p, _ in c.pattern]) for c in multi_all)

    def per_god(modules: Sequence[str]) -> str:
        values = combination_counts(counts, modules)
        return f"{sum(values)} pips: " + ", ".join(
            f"{god} {n}" for god, n in zip(GODS, values, strict=True))

    def listing(module: str) -> str:
        return ", ".join(f"{p.type.title()} {p.count}" for p in PLAN
                         if TYPES[p.type].module == module)

    fixed = [f"{i} {Codex(i, c.type, tuple((p - 1, g) for p, g in c.pattern)).pattern_text()}"
             for i, c in zip(ids, cards, strict=True) if c.fixed]
    return (
        "Reference codex deck for Damocles (DAM-26; rules-questions section 1.4). Generated "
        f"once by data/make_deck.py with random.Random({SEED}) and checked in; games shuffle "
        "it (seeded, X-1) but never regenerate it. "
        f"Base deck, {len(base)} codices (DAM-35): {listing('base')}. "
        f"Module annex (DAM-31): {listing('annex')}. "
        f"Module destruction (DAM-32): {listing('destruction')}. "
        "Each codex has as many pips as its type is worth (DAM-3); positions use the seed's "
        "notation, first pip at 1, all within 1..7 (DAM-1, DAM-36); at most 3 pips of one god "
        "(DAM-36); no two codices share type and pattern, except Hastes, whose single pip "
        "allows only five patterns. "
        f"Fixed patterns from the seed: {'; '.join(fixed[:-1])}; plus {fixed[-1]} for the "
        "seed's Annex example (T-DAM-4). "
        f"God pips, base deck ({per_god(('base',))}); with annex "
        f"({per_god(('base', 'annex'))}); with destruction ({per_god(('base', 'destruction'))}); "
        f"with both ({per_god(('base', 'annex', 'destruction'))}): each within 1 of the others, "
        "the closest the totals allow. "
        f"Blank gaps, so that Reflex matters (DAM-5): {gapped} of {len(multi)} multi-pip base "
        f"codices ({100 * gapped / len(multi):.0f}%), {gapped_all} of {len(multi_all)} with "
        f"all modules ({100 * gapped_all / len(multi_all):.0f}%). "
        "Compact shapes: 2-4 pip codices end by position 5 (the seed's Combust by 6), "
        "Eviscerates by 6. Number codices use one god or two; other 3-5 pip types a few "
        "three-god patterns."
    )


def build_manifest() -> dict[str, Any]:
    """The manifest as a JSON-ready dict, validated by the content rules (DAM-3, DAM-36)."""
    cards = build_cards()
    ids: list[str] = []
    numbers: dict[str, int] = {}
    for card in cards:
        numbers[card.type] = numbers.get(card.type, 0) + 1
        ids.append(f"{ID_PREFIXES[card.type]}-{numbers[card.type]:02d}")
    manifest = {
        "format": FORMAT,
        "description": _describe(cards, ids),
        "codices": [{"id": i, "type": c.type,
                     "pattern": [[p, GODS[g]] for p, g in c.pattern]}
                    for i, c in zip(ids, cards, strict=True)],
    }
    validate_deck_data(manifest, "make_deck output")
    return manifest


def manifest_text(manifest: dict[str, Any] | None = None) -> str:
    """The manifest as the checked-in text: one codex per line, ending with a newline."""
    return item_per_line(build_manifest() if manifest is None else manifest, "codices")


def main(argv: Sequence[str] | None = None) -> int:
    """Write ``codices.json`` (or, with ``--check``, report whether it is up to date)."""
    text = manifest_text()
    return write_or_check(OUT, text, argv, "make_deck.py", "codices", len(text.splitlines()) - 6)


if __name__ == "__main__":
    raise SystemExit(main())
