"""``meeple print``: a game's content (cards, codices, tiles, a reference page) on printable PDF
pages, for the exact game spec the lab ran (variant, players, parameters, a custom deck file);
docs/print.md."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from meeple.cli.common import GameArg, ParamOpt, PlayersOpt, VariantOpt, console, fail, load
from meeple.engine.errors import MeepleError


def print_command(
    game: GameArg,
    out: Annotated[Path, typer.Option("--out", "-o", help="the PDF file to write")],
    variant: VariantOpt = None,
    players: PlayersOpt = None,
    param: ParamOpt = None,
    paper: Annotated[str, typer.Option("--paper", help="paper size: a4 or letter")] = "a4",
):
    """Print and play: lay out GAME's cards (3x3 poker-size slots with crop marks), tiles and
    reference on PDF pages, after a cover naming the variant, the parameters and the counts.

    The game is loaded like 'meeple playtest' loads it (--variant, --players, --param
    NAME=VALUE, a deck or card file included), so the printed deck is the one the lab ran.
    """
    from meeple.printing import print_game

    try:
        spec = load(game, variant, players, param)
        result = print_game(spec, out, paper=paper.lower())
    except MeepleError as exc:
        raise fail(str(exc)) from None
    extra = f", {result.tiles} tiles" if result.tiles else ""
    console.print(f"wrote {result.path}: {result.cards} cards{extra} on {len(result.pages)} "
                  f"pages ({paper.lower()})")
