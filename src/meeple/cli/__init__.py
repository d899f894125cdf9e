"""The ``meeple`` command line: list games, run playtests and experiments, play in the terminal,
replay records.

One module per command group (``games``, ``playtest`` with ``report``, ``play``, ``replay``,
``lab`` with ``ladder``, ``compare`` and ``sweep``, ``serve``); each imports only
:mod:`meeple.cli.common`, never another command module, and this package registers their
commands on :data:`app`.
Every deliberate error (an unknown game, a bad parameter, an unreadable record) is printed as a
one-line message with exit code 2, never a traceback.
"""

from __future__ import annotations

import typer

from meeple.cli import games, lab, play, playtest, replay, serve

app = typer.Typer(
    help="meeple: play tabletop game designs and playtest them with bots.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

app.command("games")(games.games)
app.command("playtest")(playtest.playtest)
app.command("report")(playtest.report)
app.command("play")(play.play)
app.command("replay")(replay.replay_command)
app.command("ladder")(lab.ladder)
app.command("compare")(lab.compare)
app.command("sweep")(lab.sweep)
app.command("serve")(serve.serve)


def main() -> None:  # pragma: no cover - console entry
    """The ``meeple`` console script."""
    app()
