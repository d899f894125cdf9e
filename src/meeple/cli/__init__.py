"""The ``meeple`` command line: list games, run playtests and experiments, play in the terminal,
replay records.

One module per command group (``games``, ``playtest`` with ``report``, ``play``, ``replay``,
``lab`` with ``ladder``, ``compare`` and ``sweep``, ``study``, ``imports`` with ``import``,
``printing`` with ``print``, ``serve``);
each imports only :mod:`meeple.cli.common`, never another command module, and this package
registers their commands on :data:`app`.
Every deliberate error (an unknown game, a bad parameter, an unreadable record) is printed as a
one-line message with exit code 2, never a traceback.
"""

from __future__ import annotations

from typing import Annotated

import typer

from meeple.cli import (
    export,
    games,
    imports,
    lab,
    play,
    playtest,
    printing,
    replay,
    serve,
    study,
)

app = typer.Typer(
    help="meeple: play tabletop game designs and playtest them with bots.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

#: command -> (function, the one line ``meeple --help`` shows; ``meeple CMD --help`` has more).
COMMANDS = {
    "games": (games.games, "List the games; 'meeple games GAME' for its parameters."),
    "play": (play.play, "Play one seat in the terminal against bots."),
    "replay": (replay.replay_command, "Replay a record and check it; --show steps through it."),
    "playtest": (playtest.playtest, "Run many bot games and write a summary and report."),
    "report": (playtest.report, "Rebuild a playtest's summary and report from its store."),
    "import": (imports.import_command, "Import finished games (records, a server's database) "
               "as a lab run."),
    "export": (export.export_command, "Export one finished table's playtest from a server's "
               "database as one file."),
    "ladder": (lab.ladder, "Play a skill ladder of bots, each tier against the one below."),
    "compare": (lab.compare, "Compare rule variants on the same seeds."),
    "sweep": (lab.sweep, "Play every point of a parameter grid and rank them."),
    "study": (study.study, "Study a design within a time budget: seat fairness, length, skill "
              "depth, variants."),
    "print": (printing.print_command, "Print and play: a game's cards and tiles as a PDF."),
    "serve": (serve.serve, "Serve tables where people and bots play in a browser or client."),
}
for _name, (_function, _line) in COMMANDS.items():
    app.command(_name, short_help=_line)(_function)


def _version() -> str:
    """The installed package's version (the source tree's when it is not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("meeple")
    except PackageNotFoundError:
        from meeple import __version__

        return __version__


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"meeple {_version()}")
        raise typer.Exit()


@app.callback()
def _root(
    show_version: Annotated[bool, typer.Option(
        "--version", callback=_show_version, is_eager=True,
        help="print meeple's version and exit")] = False,
) -> None:
    """meeple: play tabletop game designs and playtest them with bots."""


def main() -> None:  # pragma: no cover - console entry
    """The ``meeple`` console script."""
    app()
