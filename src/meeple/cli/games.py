"""``meeple games``: the registered games, their variants, parameters and bots."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table

from meeple.bots import bot_names
from meeple.cli.common import console
from meeple.engine.registry import game_class, game_names


def games(as_json: Annotated[bool, typer.Option("--json", help="machine-readable")] = False):
    """List the registered games, their variants, parameters and bots."""
    listing = []
    for name in game_names():
        cls = game_class(name)
        game = cls()
        caps = game.capabilities
        listing.append({
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
        })
    if as_json:
        print(json.dumps(listing, indent=2))
        return
    for entry in listing:
        p = entry["players"]
        console.print(f"[bold]{entry['name']}[/] - {entry['title']} "
                      f"({p['min']}-{p['max']} players, default {p['default']})")
        console.print(f"  {entry['summary']}")
        console.print(f"  rules: {entry['rules_page']}   bots: {', '.join(entry['bots'])}")
        table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
        table.add_column("variant")
        table.add_column("what changes")
        for v in entry["variants"]:
            alias = f" ({', '.join(v['aliases'])})" if v["aliases"] else ""
            table.add_row(v["name"] + alias, v["description"])
        console.print(table)
        console.print("  parameters (set with --param NAME=VALUE):")
        params = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
        params.add_column("parameter")
        params.add_column("default")
        params.add_column("allowed")
        params.add_column("meaning")
        for p in entry["parameters"]:
            params.add_row(p["name"], str(p["default"]), p["allowed"], p["doc"])
        console.print(params)


