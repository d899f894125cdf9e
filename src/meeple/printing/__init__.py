"""Print and play: a game's content (cards, codices, tiles, a reference page) laid out on
printable PDF pages, so a designer can table-test exactly the deck the lab measured
(``meeple print GAME --out deck.pdf``; docs/print.md).

An interface-level package like the command line: it loads games through the registry and
reads their public board content; nothing but the CLI imports it.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from pathlib import Path

from meeple.engine.errors import ParameterError
from meeple.engine.game import Game
from meeple.printing.games import BUILDERS
from meeple.printing.layout import (
    CARDS_PER_PAGE,
    PAPERS,
    TILES_PER_PAGE,
    Page,
    PrintSpec,
    Rect,
    card_slots,
    tile_slots,
    write_pdf,
)

__all__ = ["CARDS_PER_PAGE", "PAPERS", "TILES_PER_PAGE", "Page", "PrintResult", "PrintSpec",
           "Rect", "card_slots", "print_game", "print_spec", "tile_slots"]


@dataclass(frozen=True)
class PrintResult:
    """What :func:`print_game` wrote: the file, the number of cards and tiles, and the pages
    (:class:`~meeple.printing.layout.Page`, each with its kind and its filled slots)."""

    path: Path
    cards: int
    tiles: int
    pages: tuple[Page, ...]


def print_spec(game: Game) -> PrintSpec:
    """What ``game`` prints (its cards, tiles and reference), without drawing anything.

    Input: a loaded game spec (``load_game(name, variant=..., players=..., **params)``).
    Output: a :class:`PrintSpec`. Raises :class:`ParameterError` for a game with no print
    layout."""
    builder = BUILDERS.get(game.name)
    if builder is None:
        raise ParameterError(f"{game.name} has no print layout; games that print: "
                             f"{', '.join(sorted(BUILDERS))}")
    return builder(game)


def print_game(game: Game, out: str | Path, paper: str = "a4",
               date: str | None = None) -> PrintResult:
    """Lay out ``game``'s content on ``paper`` and write it to the PDF file ``out``.

    Args:
        game: a loaded game spec; its variant, players and parameters (a custom deck or card
            file included) decide what is printed.
        out: the PDF file to write (its folder must exist).
        paper: ``a4`` or ``letter``.
        date: the date printed on the cover (default: today, ISO format).

    Returns:
        A :class:`PrintResult`: the path, the card and tile counts, the pages.

    Raises:
        ParameterError: an unknown paper, a game with no print layout, or ``out`` cannot be
            written.
    """
    if paper not in PAPERS:
        raise ParameterError(f"paper {paper!r} is not one of {', '.join(PAPERS)}")
    spec = print_spec(game)
    path = Path(out)
    try:
        pages = write_pdf(spec, path, paper, date or _dt.date.today().isoformat())
    except OSError as exc:
        raise ParameterError(f"cannot write {path}: {exc.strerror or exc}") from None
    return PrintResult(path=path, cards=len(spec.cards), tiles=len(spec.tiles),
                       pages=tuple(pages))
