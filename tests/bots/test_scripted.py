"""Scripted policies and tunable heuristic weights (issue 21, degenerate strategies): the
``Game.action_tags`` hook (kinds by default, Four Gods' and Damocles' own tags), the
``script-TAG=WEIGHT`` bot family (legal play in every game, names that round-trip, the
weighted choice), and ``heuristic@NAME=VALUE`` overrides that leave default play unchanged."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeple.bots import make_bot, weights_name
from meeple.bots.scripted import (
    ScriptedBot,
    describe_policy,
    parse_script_name,
    script_name,
)
from meeple.engine.action import KindAction
from meeple.engine.errors import ParameterError
from meeple.engine.game import Game
from meeple.engine.registry import load_game
from meeple.lab.run.runner import play_one

B4G = "battle-of-the-four-gods"
GAMES = ["battle-of-the-four-gods", "damocles", "epoch-ellipse", "ozymandias-campaign",
         "ozymandias-market"]


def _play(game: Game, bots: list, seed: int, limit: int = 5000) -> int:
    """Play one game with ``bots`` by seat, checking every action is legal; its steps."""
    state = game.new_initial_state(seed)
    steps = 0
    while not state.is_terminal() and steps < limit:
        joint = {}
        for seat in state.current_players():
            legal = state.legal_actions(seat)
            action = bots[seat].act(state.view(seat), legal)
            assert action in legal, (game.name, seat, str(action))
            joint[seat] = action
        state.apply_actions(joint)
        steps += 1
    return steps


# ------------------------------------------------------------------------- the hook
def test_the_default_tags_are_the_kind_and_nothing_without_one() -> None:
    game = load_game("damocles")
    action = KindAction(0, "end")
    assert Game.action_tags(game, action) == ("end",)
    b4g = load_game(B4G)
    assert Game.action_tags(b4g, b4g.parse_action("atk:B", 0)) == ()
    market = load_game("ozymandias-market")
    assert market.action_tags(market.parse_action("done", 0)) == ("done",)


def test_four_gods_tags_name_the_target_by_its_place() -> None:
    game = load_game(B4G, players=4)
    assert game.action_tags(game.parse_action("pass", 0)) == ("pass",)
    assert game.action_tags(game.parse_action("atk:BG def:O", 0)) == (
        "attack", "attack:left", "attack", "attack:across", "defend", "defend:right",
        "indicators:3")
    # BLUE's left neighbour is GREEN; RED sits on its right
    assert game.action_tags(game.parse_action("atk:G def:R", 1)) == (
        "attack", "attack:left", "defend", "defend:right", "indicators:2")
    assert "attack:across" in load_game(B4G, players=2).action_tag_names()
    assert {"attack:left", "attack:right"} <= set(load_game(B4G, players=3).action_tag_names())
    assert "attack:across" not in load_game(B4G, players=3).action_tag_names()


def test_damocles_tags_name_the_codex_type_played() -> None:
    game = load_game("damocles")
    assert game.action_tags(game.parse_action("pair GEN-09 ONE-07", 0)) == (
        "pair", "pair:generate", "pair:one")
    assert "play:haste" in game.action_tag_names()


@pytest.mark.parametrize("name", GAMES)
def test_tag_names_hold_every_tag_of_a_played_game(name: str) -> None:
    game = load_game(name)
    names = set(game.action_tag_names())
    assert names and all(isinstance(t, str) for t in names)
    state = game.new_initial_state(3)
    bots = [make_bot("random", game, s, 3) for s in range(game.players)]
    steps = 0
    while not state.is_terminal() and steps < 300:
        joint = {}
        for seat in state.current_players():
            legal = state.legal_actions(seat)
            for action in legal:
                assert set(game.action_tags(action)) <= names, str(action)
            joint[seat] = bots[seat].act(state.view(seat), legal)
        state.apply_actions(joint)
        steps += 1


# ------------------------------------------------------------------------ the family
@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_scripted_policy_plays_only_legal_actions(name: str, data: st.DataObject) -> None:
    game = load_game(name)
    tags = list(game.action_tag_names())
    weights = data.draw(st.dictionaries(st.sampled_from(tags),
                                        st.floats(-3, 3, allow_nan=False), max_size=5))
    seed = data.draw(st.integers(0, 1000))
    bots = [ScriptedBot(game, s, seed, weights) for s in range(game.players)]
    assert _play(game, bots, seed) > 0


FOUR_GODS = load_game(B4G)
tag_text = st.from_regex(r"[a-z][a-z0-9_:]{0,12}", fullmatch=True)


@given(st.dictionaries(tag_text, st.integers(-20000, 20000).map(lambda k: k / 1000),
                       max_size=6))
def test_names_round_trip(weights: dict[str, float]) -> None:
    name = script_name(weights)
    assert "," not in name and name.startswith("script")
    assert parse_script_name(name) == {t: w for t, w in weights.items() if w}
    bot = make_bot(name, FOUR_GODS, 0, 0)
    assert isinstance(bot, ScriptedBot) and bot.label == name


def test_bad_names_are_refused_with_the_form() -> None:
    game = load_game(B4G)
    for bad in ("script-attack", "script-Attack=1", "script-attack=1-attack=2",
                "script-attack=x", "script-attack=1-"):
        with pytest.raises(ParameterError, match="script"):
            make_bot(bad, game, 0, 0)


def test_the_policy_plays_its_heaviest_tag() -> None:
    game = load_game(B4G)
    state = game.new_initial_state(0)
    legal = state.legal_actions(0)
    passer = make_bot("script-pass=1", game, 0, 0)
    assert str(passer.act(state.view(0), legal)) == "pass"
    left = make_bot("script-attack:left=2-defend=-1-indicators:2=-1-indicators:3=-1", game, 0, 0)
    assert str(left.act(state.view(0), legal)) == "atk:B"  # RED's left neighbour is BLUE
    assert describe_policy(left.weights).startswith("prefers actions tagged attack:left (+2); "
                                                    "avoids")
    assert describe_policy({}) == "plays at random"


def test_a_zero_policy_breaks_ties_with_its_own_stream() -> None:
    game = load_game(B4G)
    state = game.new_initial_state(0)
    legal = state.legal_actions(0)
    picks = {str(make_bot("script", game, 0, s).act(state.view(0), legal)) for s in range(20)}
    assert len(picks) > 3


# ------------------------------------------------------------------ heuristic weights
@pytest.mark.parametrize("name", [B4G, "damocles", "ozymandias-market"])
def test_overrides_equal_to_the_defaults_play_exactly_as_the_default(name: str) -> None:
    game = load_game(name)
    bot = make_bot("heuristic", game, 0, 0)
    same = weights_name("heuristic", {k: getattr(bot, k) for k in type(bot).tunable})
    assert same != "heuristic"
    for index in range(game.players):
        plain = play_one(game, ["heuristic"], 5, index, keep_record=True)
        tuned = play_one(game, [same], 5, index, keep_record=True)
        assert plain["record"]["steps"] == tuned["record"]["steps"]


def test_an_override_changes_the_bot_not_its_class_and_changes_play() -> None:
    game = load_game(B4G)
    bot = make_bot("heuristic@BASE_WEIGHT=0.9@DECAY=0.1", game, 0, 0)
    assert (bot.BASE_WEIGHT, bot.DECAY) == (0.9, 0.1)
    assert type(bot).BASE_WEIGHT == 0.25 and make_bot("heuristic", game, 0, 0).DECAY == 0.6
    plain = [play_one(game, ["heuristic", "random"], 1, i)["returns"] for i in range(8)]
    tuned = [play_one(game, ["heuristic@BASE_WEIGHT=0.9", "random"], 1, i)["returns"]
             for i in range(8)]
    assert plain != tuned


def test_bad_overrides_are_refused() -> None:
    game = load_game(B4G)
    with pytest.raises(ParameterError, match="not a weight"):
        make_bot("heuristic@FOO=1", game, 0, 0)
    with pytest.raises(ParameterError, match="NAME=NUMBER"):
        make_bot("heuristic@DECAY=much", game, 0, 0)
    with pytest.raises(ParameterError, match="tunable: none"):
        make_bot("random@DECAY=1", game, 0, 0)
