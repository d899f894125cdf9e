"""``meeple games``: a short table of the registered games; ``meeple games GAME``: one game's
parameters (with what each means, its default and its allowed values), variants and bots;
``--json`` for either, machine-readable."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from meeple.bots import bot_names
from meeple.cli.common import console, fail
from meeple.engine.errors import MeepleError
from meeple.engine.registry import game_class, game_names, load_game


def _entry(name: str) -> dict[str, Any]:
    """Everything ``meeple games`` tells about the game ``name``, as JSON-ready data."""
    cls = game_class(name)
    game = cls()
    caps = game.capabilities
    return {
        "name": name,
        "title": cls.title,
        "summary": cls.summary,
        "players": {"min": cls.min_players, "max": cls.max_players,
                    "default": cls.default_players},
        "variants": [{"name": v.name, "description": v.description, "source": v.source,
                      "aliases": list(v.aliases), "params": dict(v.params)}
                     for v in cls.variants],
        "parameters": [{"name": p.name, "default": p.default, "allowed": p.allowed(),
                        "doc": p.doc} for p in cls.parameters],
        "capabilities": {"simultaneous": caps.simultaneous,
                         "hidden_information": caps.hidden_information,
                         "chance": caps.chance, "cooperative": caps.cooperative,
                         "max_length": caps.max_length, "length_unit": caps.length_unit,
                         "talk_modes": list(caps.talk_modes)},
        "bots": bot_names(game),
        "rules_page": cls.rules_page,
    }


def games(
    game_name: Annotated[str | None, typer.Argument(
        help="a game to describe in full (parameters, variants, bots)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable")] = False,
    schema: Annotated[bool, typer.Option(
        "--schema", help="GAME's saved-state JSON Schema (draft 2020-12), for its default "
        "variant or --variant, at its default seat count or --players")] = False,
    variant: Annotated[str | None, typer.Option("--variant", "-v", help="with --schema")] = None,
    players: Annotated[int | None, typer.Option("--players", "-p", help="with --schema")] = None,
):
    """List the games as a short table (name, players, summary), or, given GAME, that game's
    parameters (meaning, default, allowed values), variants and bots; with --schema, the JSON
    Schema of its saved states (what `State.to_json` writes: docs/engine.md, "Components")."""
    if schema or variant is not None or players is not None:
        if not game_name or not schema:
            raise fail("--schema needs a GAME (and --variant/--players only go with --schema)")
        try:
            print(json.dumps(load_game(game_name, variant, players).state_schema(), indent=2))
        except MeepleError as exc:
            raise fail(str(exc)) from None
        return
    try:
        names = [game_class(game_name).name] if game_name else list(game_names())
        listing = [_entry(name) for name in names]
    except MeepleError as exc:
        raise fail(str(exc)) from None
    if as_json:
        print(json.dumps(listing[0] if game_name else listing, indent=2))
        return
    if game_name:
        _details(listing[0])
        return
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    table.add_column("game", no_wrap=True)
    table.add_column("players", no_wrap=True)
    table.add_column("summary")
    for entry in listing:
        p = entry["players"]
        table.add_row(entry["name"], f"{p['min']}-{p['max']} ({p['default']})",
                      escape(entry["summary"]))
    console.print(table)
    console.print("players: min-max (default).  Details: meeple games GAME")


def _details(entry: dict[str, Any]) -> None:
    p = entry["players"]
    console.print(f"[bold]{entry['name']}[/] - {escape(entry['title'])} "
                  f"({p['min']}-{p['max']} players, default {p['default']})")
    console.print(f"  {escape(entry['summary'])}")
    console.print(f"  rules: {entry['rules_page']}")
    console.print(f"  bots: {', '.join(entry['bots'])}  (meeple play {entry['name']} --bots "
                  "NAME,...)")
    console.print("\n[bold]variants[/] (--variant NAME; the first is the default):")
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    table.add_column("variant", no_wrap=True)
    table.add_column("what changes")
    for v in entry["variants"]:
        alias = f" ({', '.join(v['aliases'])})" if v["aliases"] else ""
        changed = ", ".join(f"{k}={_value(val)}" for k, val in v["params"].items())
        table.add_row(v["name"] + alias,
                      escape(v["description"] + (f" [{changed}]" if changed else "")))
    console.print(table)
    console.print("\n[bold]parameters[/] (--param NAME=VALUE):")
    params = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    params.add_column("parameter", no_wrap=True)
    params.add_column("default", no_wrap=True)
    params.add_column("allowed", overflow="fold")
    params.add_column("meaning", overflow="fold", ratio=2)
    for q in entry["parameters"]:
        allowed = q["allowed"].removeprefix("an integer in ").removeprefix("one of ")
        params.add_row(q["name"], escape(_value(q["default"]) or '""'), escape(allowed),
                       escape(q["doc"]))
    console.print(params)


def _value(value: Any) -> str:
    """A parameter value as it is typed in --param (``true``, not ``True``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)
