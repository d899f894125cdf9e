"""Where the server sits: it depends on everything, nothing depends on it (games never import
it; ``meeple import`` reads its database module), its modules stay small, its public
functions say what goes in and out, and ``meeple serve`` is registered and refuses a bad
database URL."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from typer.testing import CliRunner

import meeple
import meeple.server
from meeple.cli import app as cli_app
from meeple.server import (
    app,
    bots,
    content,
    db,
    limits,
    lobby,
    manager,
    narration,
    protocol,
    replays,
    rules_pages,
    seating,
    sockets,
    tables,
)

ROOT = Path(meeple.__file__).parent
SERVER = Path(meeple.server.__file__).parent


def test_nothing_but_the_serve_command_imports_the_server() -> None:
    """... and the CLI's common module, which reads finished games through the database module
    (for ``meeple import``, ``report --people`` and ``export``), and ``meeple replay --web``,
    which serves the app's replay page."""
    for path in ROOT.rglob("*.py"):
        if SERVER in path.parents or path.name == "serve.py" and path.parent.name == "cli":
            continue
        allowed: tuple[str, ...] = ()
        if path.parent.name == "cli" and path.name == "common.py":
            allowed = ("meeple.server.db",)
        if path.parent.name == "cli" and path.name == "replay.py":
            allowed = ("meeple.server.app", "meeple.server.replays")
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            assert not any(n.startswith("meeple.server") and n not in allowed
                           for n in names), path


def test_server_modules_are_small_and_documented() -> None:
    for module in (app, bots, content, db, limits, lobby, manager, narration, protocol,
                   replays, rules_pages, seating, sockets, tables):
        assert len(inspect.getsource(module).splitlines()) < 600, module.__name__
        for name, obj in vars(module).items():
            if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
                continue
            if inspect.isfunction(obj) or inspect.isclass(obj):
                assert obj.__doc__, f"{module.__name__}.{name} has no docstring"


def test_meeple_serve_is_registered_and_checks_its_options() -> None:
    runner = CliRunner()
    shown = runner.invoke(cli_app, ["serve", "--help"])
    assert shown.exit_code == 0 and "--db" in shown.output
    bad = runner.invoke(cli_app, ["serve", "--db", "mysql://x"])
    assert bad.exit_code == 2 and "unsupported database URL" in bad.output


def test_the_browser_client_never_inserts_markup_and_ships_as_package_data() -> None:
    static = SERVER / "static"
    scripts = sorted((static / "js").rglob("*.js"))
    assert {str(p.relative_to(static / "js")) for p in scripts} >= {
        "lobby.js", "table.js", "connection.js", "generic.js", "talk.js", "replay.js",
        "boards/battle-of-the-four-gods.js"}
    for path in scripts:
        text = path.read_text()
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
            assert sink not in text, f"{path.name} uses {sink}"
    # pyproject's package data names every file of the client (pip install . ships them)
    pyproject = (ROOT.parents[1] / "pyproject.toml").read_text()
    patterns = ["server/static/*.html", "server/static/*.css", "server/static/js/*.js",
                "server/static/js/boards/*.js", "server/static/js/boards/README.md",
                "server/static/boards/*.css", "server/static/*.svg"]
    assert all(f'"{p}"' in pyproject for p in patterns)
    shipped = {f for p in patterns for f in (ROOT).glob(p)}
    assert shipped == {f for f in static.rglob("*") if f.is_file()}
