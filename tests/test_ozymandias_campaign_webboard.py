"""The web board's public content (webboard.content): JSON-serialisable, covers every tile and
card name a view can name, and holds nothing hidden."""

from __future__ import annotations

import json
import random

from meeple import load_game
from meeple.games.ozymandias_campaign.webboard import content


def test_board_content_is_json_and_covers_every_tile_and_card() -> None:
    game = load_game("ozymandias-campaign", players=4)
    data = content(game)
    assert json.loads(json.dumps(data)) == data
    assert data == game.board_content()
    assert set(data["tiles"]) == {t.id for t in game.tiles}
    for tile in game.tiles:
        drawn = data["tiles"][tile.id]
        assert set(drawn["points"]) == {p for p, _ in tile.points}
        assert all(0 <= pt["x"] <= 1 and 0 <= pt["y"] <= 1 for pt in drawn["points"].values())
        assert drawn["ports"] == dict(tile.ports)
        spots = {(pt["x"], pt["y"]) for pt in drawn["points"].values()}
        assert len(spots) == len(drawn["points"])  # no two points drawn on one spot
    assert set(data["cards"]) == {f"{s}{r}" for s in "GRB" for r in range(2, 8)}
    text = json.dumps(data)
    assert "seed" not in text and "deck" not in text


def test_views_name_only_known_tiles_and_cards() -> None:
    game = load_game("ozymandias-campaign", players=3)
    data = content(game)
    rng = random.Random(0)
    state = game.new_initial_state(seed=5)
    for _ in range(600):
        if state.is_terminal():
            break
        view = state.view(0)
        for placement in view["map"]:
            assert placement["tile"] in data["tiles"]
        if view["explore"]:
            assert view["explore"]["tile"] in data["tiles"]
        for point in [*view["standing"], *view["stacks"]]:
            tile, name = point.split(":")
            assert name in data["tiles"][tile]["points"]
        for card in [*view["hand"], *view["discard"]]:
            assert card in data["cards"]
        seats = state.current_players()
        if len(seats) > 1:
            state.apply_actions({s: rng.choice(state.legal_actions(s)) for s in seats})
        else:
            state.apply_action(rng.choice(state.legal_actions(seats[0])))
