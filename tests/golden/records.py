"""Golden record hashes: many seeded bot games of every registered game, hashed.

A speed change must not change play. For every registered game at its default seat count and
one more, and for three line-ups (``random``, ``heuristic``, and the two alternating), games
``0..GAMES-1`` of a playtest seeded ``SEED`` are played through the lab's
:func:`meeple.lab.run.runner.play_one` and each record's JSON (sorted keys, no spaces) is
hashed with sha256. ``tests/test_same_records.py`` compares them with the committed
``tests/golden/records.json``; a second fixture, ``records_variants.json``, holds games
``0..VARIANT_GAMES-1`` of every variant at every seat count. Regenerate only after an
intended rule or bot change::

    python tests/golden/records.py
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
GOLDEN = HERE / "records.json"
SEED = 22
GAMES = 30
LINEUPS = {"random": ["random"], "heuristic": ["heuristic"],
           "mixed": ["heuristic", "random"]}


def seat_counts(cls: type) -> list[int]:
    """The default seat count and one more: the next larger, or the next smaller at the most."""
    default = cls.default_players
    other = default + 1 if default < cls.max_players else default - 1
    return sorted({default, max(other, cls.min_players)})


def configs() -> list[tuple[str, int, str]]:
    """``(game name, seats, line-up name)`` for every registered game, with the line-ups whose
    bots the game has (the template game has no heuristic bot)."""
    from meeple.bots import bot_names
    from meeple.engine.registry import game_class, game_names, load_game

    out = []
    for name in game_names():
        have = set(bot_names(load_game(name)))
        out += [(name, players, lineup) for players in seat_counts(game_class(name))
                for lineup, bots in LINEUPS.items() if have.issuperset(bots)]
    return out


def key(name: str, players: int, lineup: str) -> str:
    return f"{name}/{players}p/{lineup}"


#: The second fixture: every variant at every seat count, fewer games each.
VARIANTS_GOLDEN = HERE / "records_variants.json"
VARIANT_GAMES = 5


def variant_configs() -> list[tuple[str, str, int, str]]:
    """``(game name, variant, seats, line-up name)`` for every registered game, every one of
    its variants and every seat count it allows, with the line-ups whose bots it has."""
    from meeple.bots import bot_names
    from meeple.engine.registry import game_class, game_names, load_game

    out = []
    for name in game_names():
        cls = game_class(name)
        have = set(bot_names(load_game(name)))
        out += [(name, variant.name, players, lineup) for variant in cls.variants
                for players in range(cls.min_players, cls.max_players + 1)
                for lineup, bots in LINEUPS.items() if have.issuperset(bots)]
    return out


def variant_key(name: str, variant: str, players: int, lineup: str) -> str:
    return f"{name}/{variant}/{players}p/{lineup}"


def variant_hashes(name: str, variant: str, players: int, lineup: str,
                   games: int = VARIANT_GAMES) -> list[str]:
    """The record hashes of games ``0..games-1`` (seed ``SEED``) of one variant and seat
    count."""
    from meeple.engine.registry import load_game
    from meeple.lab.run.runner import play_one

    game = load_game(name, variant, players)
    return [record_hash(play_one(game, LINEUPS[lineup], SEED, i, keep_record=True)["record"])
            for i in range(games)]


def record_hash(record: dict) -> str:
    """sha256 of the record's canonical JSON (sorted keys, compact separators)."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def hashes(name: str, players: int, lineup: str, games: int = GAMES) -> list[str]:
    """The record hashes of games ``0..games-1`` (seed ``SEED``) of one configuration."""
    from meeple.engine.registry import load_game
    from meeple.lab.run.runner import play_one

    game = load_game(name, players=players)
    return [record_hash(play_one(game, LINEUPS[lineup], SEED, i, keep_record=True)["record"])
            for i in range(games)]


def main() -> int:
    sys.path.insert(0, str(HERE.parent.parent))
    import examples.crazy_eights  # noqa: F401
    import examples.pig  # noqa: F401  (the template games are registered in the tests too)

    golden = {key(*c): hashes(*c) for c in configs()}
    GOLDEN.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(golden)} configurations x {GAMES} games to {GOLDEN}")
    variants = {variant_key(*c): variant_hashes(*c) for c in variant_configs()}
    VARIANTS_GOLDEN.write_text(json.dumps(variants, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(variants)} configurations x {VARIANT_GAMES} games to {VARIANTS_GOLDEN}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
