"""A masked PPO agent trained through the Gymnasium adapter and seated as an ``rl:PATH`` bot
(issue 22, part 4). The training tests need the extra ``meeple[rl]`` (sb3-contrib, PyTorch)
and are skipped without it; the label checks run everywhere."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.bots import family_of, make_bot
from meeple.engine.errors import ParameterError
from meeple.engine.registry import load_game
from meeple.lab.run.runner import run_playtest

B4G = "battle-of-the-four-gods"
SKIP = "needs the extra meeple[rl] (sb3-contrib and PyTorch), which CI does not install"


def _sb3() -> None:
    pytest.importorskip("sb3_contrib", reason=SKIP)


@pytest.fixture(scope="module")
def b4g_run(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """A tiny training on two-player Four Gods with the shaped reward: 4,096 steps, the curve
    measured before and after on the same 60 games against random seats."""
    _sb3()
    from meeple.adapters.rl import train_maskable_ppo

    out = tmp_path_factory.mktemp("rl-b4g")
    return train_maskable_ppo(B4G, players=2, steps=4096, eval_every=4096, eval_games=60,
                              eval_opponents=("random",), reference=None, seed=1,
                              shaping=1.0, keep_best="random",
                              ppo={"n_steps": 256, "batch_size": 128}, out=out)


def test_family_of_reads_paths_with_dashes() -> None:
    assert family_of("rl:runs/rl-b4g/model.zip") == "rl"
    assert family_of("ismcts-400-heuristic") == "ismcts"
    assert family_of("random") == "random"


def test_an_rl_label_without_a_model_is_refused_by_name(tmp_path: Path) -> None:
    game = load_game(B4G)
    missing = tmp_path / "nothing" / "model.zip"
    with pytest.raises(ParameterError, match="sidecar"):
        make_bot(f"rl:{missing}", game, 0, 0)
    with pytest.raises(ParameterError, match="rl:PATH"):
        make_bot("rl:", game, 0, 0)


def test_training_saves_a_model_its_sidecar_and_a_curve(b4g_run: dict) -> None:
    model = Path(b4g_run["model"])
    assert model.is_file() and (model.parent / "curve.png").stat().st_size > 1000
    meta = json.loads(model.with_suffix(".json").read_text())
    assert (meta["game"], meta["players"], meta["encoding"]) == (B4G, 2, "full")
    assert meta["action_size"] == load_game(B4G, players=2).num_distinct_actions()
    assert json.loads((model.parent / "curve.json").read_text()) == \
        json.loads(json.dumps(b4g_run))
    assert [p["steps"] for p in b4g_run["points"]] == [0, 4096]
    for point in b4g_run["points"]:
        (result,) = point["results"]
        assert result["ci_low"] <= result["share"] <= result["ci_high"]
        assert (result["games"], result["policy"]) == (60, "greedy")
    # the only point after training is the best one; it was measured again on other games
    best = b4g_run["best"]
    assert best["steps"] == 4096 and Path(best["model"]).is_file()
    assert best["selected_share"] == b4g_run["points"][1]["results"][0]["share"]
    assert [(r["opponent"], r["games"]) for r in best["results"]] == [("random", 60)]


def test_short_training_beats_the_untrained_policy_on_the_same_games(b4g_run: dict) -> None:
    # Measured with seeds 1, 2, 3, 4 (shaping 1): untrained 0.26, 0.0, 0.0, 0.0; after 4,096
    # steps 0.73, 0.98, 1.0, 1.0 (60 games each). Without shaping seed 1 went 0.26 -> 0.0
    # (seeds 2, 3: 0.74, 0.19 at 2,048 steps, then 0.74, 1.0). The interval above the fair
    # share is the documented 4-seat measurement's claim (docs/adapters/gymnasium.md), not
    # this tiny run's.
    before, after = (p["results"][0]["share"] for p in b4g_run["points"])
    assert after > before, b4g_run["points"]
    assert after > b4g_run["fair_share"], b4g_run["points"]


def test_the_trained_model_plays_any_seat_as_a_bot_in_the_lab(b4g_run: dict) -> None:
    game = load_game(B4G, players=2)
    label = f"rl:{b4g_run['model']}"
    results, _ = run_playtest(game, [label, "random"], games=6, seed=3, jobs=1)
    assert len(results) == 6
    assert {tuple(r["bots"]) for r in results} == {(label, "random"), ("random", label)}
    assert all(r["length"] > 0 for r in results)


def test_a_model_is_refused_for_another_game_setting(b4g_run: dict) -> None:
    with pytest.raises(ParameterError, match="trained on"):
        make_bot(f"rl:{b4g_run['model']}", load_game(B4G, players=4), 0, 0)


def test_step_code_policy_composes_legal_damocles_actions(tmp_path: Path) -> None:
    # Damocles offers step codes (compact): the bot composes each action sub-decision by
    # sub-decision from its view, as the learner did; the engine refuses any illegal action.
    # Trained with the shaped reward and measured sampling, as rl:PATH?sample plays.
    _sb3()
    from meeple.adapters.rl import train_maskable_ppo

    run = train_maskable_ppo("damocles", steps=64, eval_every=64, eval_games=2,
                             eval_opponents=("random",), eval_policies=("sample", "greedy"),
                             reference=None, shaping=1.0,
                             ppo={"n_steps": 64, "batch_size": 64, "n_epochs": 1},
                             out=tmp_path)
    assert run["encoding"] == "compact" and run["shaping"] == 1.0
    assert [r["policy"] for r in run["points"][0]["results"]] == ["sample", "greedy"]
    game = load_game("damocles")
    label = f"rl:{run['model']}?sample"
    results, _ = run_playtest(game, [label, "random"], games=2, seed=5, jobs=1)
    again, _ = run_playtest(game, [label, "random"], games=2, seed=5, jobs=1)
    assert len(results) == 2 and all(r["length"] > 0 for r in results)
    assert [r["returns"] for r in results] == [r["returns"] for r in again]  # replays


def _episode(env, seed: int, gamma: float) -> tuple[float, float, float, int]:
    """Play random legal codes through one episode: (discounted shaped return, the win share,
    the first potential, steps)."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    first, total, discount, steps, done = env.potential, 0.0, 1.0, 0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        _, reward, terminated, truncated, _ = env.step(action)
        total += discount * reward
        discount *= gamma
        steps += 1
        done = terminated or truncated
    return total, float(env.current.state.returns()[env.current.seat]), first, steps


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), gamma=st.sampled_from([1.0, 0.99]))
def test_shaping_is_potential_based_so_the_return_only_shifts_by_the_first_potential(
        seed: int, gamma: float) -> None:
    # Potential-based shaping (Ng et al. 1999): the discounted shaped return of any episode is
    # its plain discounted return less the potential of the first state, which no action
    # changes, so the optimal policies stay optimal.
    from meeple.adapters.rl import SeatCycleEnv

    game = load_game(B4G, players=2)
    plain = SeatCycleEnv(game, "heuristic")
    shaped = SeatCycleEnv(game, "heuristic", shaping=2.0, gamma=gamma)
    total, share, first, steps = _episode(shaped, seed, gamma)
    plain_total, plain_share, zero, plain_steps = _episode(plain, seed, gamma)
    assert (share, steps, zero) == (plain_share, plain_steps, 0.0)  # the same playthrough
    assert 0.0 < first <= 2.0
    assert total == pytest.approx(plain_total - first, abs=1e-9)


def test_shaping_is_refused_when_it_cannot_be_potential_based() -> None:
    from meeple.adapters.rl import SeatCycleEnv

    game = load_game(B4G, players=2)
    with pytest.raises(ParameterError, match="shaping"):
        SeatCycleEnv(game, "random", shaping=-1.0)
    with pytest.raises(ParameterError, match="gamma"):
        SeatCycleEnv(game, "random", shaping=1.0, gamma=1.5)


class LowestLegal:
    """A fixed policy with ``MaskablePPO.predict``'s signature: the lowest legal code. It
    keeps the observations it was shown."""

    def __init__(self) -> None:
        self.seen: list[np.ndarray] = []

    def predict(self, obs: np.ndarray, action_masks: np.ndarray, deterministic: bool = True
                ) -> tuple[int, None]:
        self.seen.append(np.array(obs))
        return int(np.flatnonzero(action_masks)[0]), None


@pytest.mark.parametrize("name", [B4G, "damocles"])
def test_the_bot_sees_what_the_learner_saw_memory_included(name: str) -> None:
    # Replaying the learner's playthrough with the rl: bot in its seat shows the policy the
    # same observations: the same decaying trace, and at Four Gods' simultaneous rounds the
    # view from before anybody submitted, as in the lab (LabViewEnv); with Damocles' step
    # codes, sub-decision by sub-decision.
    from meeple.adapters.rl import SeatCycleEnv
    from meeple.bots.rl import PolicyBot
    from meeple.engine.episode import play_episode

    game = load_game(name, players=2)
    env = SeatCycleEnv(game, "random", memory=0.5)
    obs, _ = env.reset(seed=7)
    shown, done = [obs], False
    while not done:
        obs, _, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        done = terminated or truncated
        shown.append(obs)
    assert env.observation_space.contains(shown[0])
    seat, gseed = env.current.seat, env.current.state.seed
    policy = LowestLegal()
    agents = [PolicyBot(game, s, gseed, model=policy, encoding=env.current.coder.kind,
                        memory=0.5) if s == seat else make_bot("random", game, s, gseed)
              for s in range(2)]
    play_episode(game, gseed, agents)
    assert len(policy.seen) == len(shown) - 1  # the bot is not shown the final state
    for bot_obs, env_obs in zip(policy.seen, shown, strict=False):
        np.testing.assert_allclose(bot_obs, env_obs, rtol=0, atol=1e-6)
    half = shown[0].size // 2
    assert any(not np.allclose(o[:half], o[half:]) for o in shown[1:])  # a trace, not a copy


@pytest.fixture(scope="module")
def market_clone(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The imitation warm start alone (no PPO step) on the two-player Ozymandias market: the
    heuristic's decisions in 60 games against heuristic seats (54 cloned, 6 held out), 15
    epochs; the cloned policy kept as best.zip."""
    _sb3()
    from meeple.adapters.rl import train_maskable_ppo

    return train_maskable_ppo("ozymandias-market", players=2, steps=0, imitate=60,
                              imitate_epochs=15, opponents=("heuristic",), eval_games=4,
                              eval_opponents=("random",), reference=None, seed=0,
                              keep_best="random", out=tmp_path_factory.mktemp("bc-market"))


def test_the_cloned_policy_agrees_with_the_heuristic_far_more_than_an_untrained_one(
        market_clone: dict) -> None:
    # Agreement with the heuristic's step code at real decisions (more than one legal code)
    # of the 6 held-out games, and with any of its equally good codes (it had several at
    # about 40% of them). Cloning its ties (the default target), seeds 0 and 1: its code
    # 0.34 -> 0.48 and 0.42 -> 0.57 (0.60-0.62 on the cloned games); any of its equally good
    # codes 0.53 -> 0.69 and 0.66 -> 0.77. With 2,000 games and 10 epochs: 0.95 with any
    # equally good code (docs/adapters/gymnasium.md).
    im = market_clone["imitation"]
    assert (im["teacher"], im["games"], im["epochs"], im["target"]) == \
        ("heuristic", 60, 15, "ties")
    assert im["decisions"] > 3000
    assert 0.2 < im["tie_share"] < 0.8, im
    assert im["agreement_held_out"] > im["agreement_before"] + 0.1, im
    assert im["tie_agreement_held_out"] > im["tie_agreement_before"] + 0.08, im
    assert im["tie_agreement_held_out"] >= im["agreement_held_out"], im
    assert im["agreement_held_out"] > 0.45 and im["agreement_train"] > 0.6, im
    assert im["loss"]["nll"] < 0.65, im
    assert [p["steps"] for p in market_clone["points"]] == [0]  # clone only: one point
    best = market_clone["best"]  # the cloned policy is a candidate for the kept model
    assert best["steps"] == 0 and Path(best["model"]).is_file()
    assert [(r["opponent"], r["games"]) for r in best["results"]] == [("random", 4)]
    meta = json.loads(Path(market_clone["model"]).with_suffix(".json").read_text())
    assert meta["imitation"] == im and meta["steps"] == 0


def test_a_cloned_model_plays_as_an_rl_bot(market_clone: dict) -> None:
    game = load_game("ozymandias-market", players=2)
    label = f"rl:{market_clone['model']}"
    results, _ = run_playtest(game, [label, "heuristic"], games=4, seed=2, jobs=1)
    assert {tuple(r["bots"]) for r in results} == {(label, "heuristic"), ("heuristic", label)}
    assert all(r["length"] > 0 for r in results)


def test_demonstrations_are_what_the_learner_sees_and_replay_the_teacher() -> None:
    # The recorded observations and masks are the rl: bot's (the same PolicyBot path), and
    # the recorded codes compose exactly the heuristic's actions: the demonstration game is
    # the game the heuristic plays in that seat.
    from meeple.adapters.imitation import collect_demonstrations
    from meeple.engine.episode import play_episode
    from meeple.engine.rng import derive_seed

    game = load_game("damocles", players=2)
    demos = collect_demonstrations(game, games=2, encoding="compact", memory=0.5, seed=4)
    assert demos.observations.shape[0] == demos.masks.shape[0] == len(demos.codes) > 0
    assert all(m[c] for m, c in zip(demos.masks, demos.codes, strict=True))
    assert set(demos.game_index.tolist()) == {0, 1}
    from meeple.adapters.rl import LabViewEnv

    env = LabViewEnv(game, seat=0, opponents="heuristic", actions="compact")
    first, info = env.reset(seed=derive_seed(4, "imitate", 0))
    np.testing.assert_array_equal(demos.observations[0].toarray()[0],
                                  np.concatenate([first, first]))
    np.testing.assert_array_equal(demos.masks[0], info["action_mask"].astype(bool))
    for i in range(2):
        gseed = derive_seed(4, "imitate", i)
        plain, _ = play_episode(game, gseed, [make_bot("heuristic", game, s, gseed)
                                              for s in range(2)])
        rows = demos.returns[demos.game_index == i]
        assert rows[-1] == pytest.approx(float(plain.returns()[i % 2]))


def test_with_a_player_the_demonstrations_label_the_players_positions() -> None:
    # DAgger-style: the player's codes are played, the teacher's are recorded at the
    # positions the player reaches. Replaying the game with the player seated as an rl: bot
    # shows exactly the recorded observations; the labels are legal and differ from the
    # player's codes (the lowest legal code) somewhere.
    from meeple.adapters.imitation import collect_demonstrations
    from meeple.bots.rl import PolicyBot
    from meeple.engine.episode import play_episode
    from meeple.engine.rng import derive_seed

    game = load_game("ozymandias-market", players=2)
    demos = collect_demonstrations(game, games=1, encoding="compact", player=LowestLegal(),
                                   seed=9)
    gseed, policy = derive_seed(9, "imitate", 0), LowestLegal()
    agents = [PolicyBot(game, 0, gseed, model=policy, encoding="compact"),
              make_bot("heuristic", game, 1, gseed)]
    state, _ = play_episode(game, gseed, agents)
    assert len(policy.seen) == len(demos.codes) > 20
    np.testing.assert_array_equal(np.asarray(policy.seen), demos.observations.toarray())
    played = [int(np.flatnonzero(m)[0]) for m in demos.masks]
    assert all(m[c] for m, c in zip(demos.masks, demos.codes, strict=True))
    assert sum(c != p for c, p in zip(demos.codes, played, strict=True)) > 5
    assert demos.returns[-1] == pytest.approx(float(state.returns()[0]))


class _Valuing:
    """A teacher bot that values every legal action by ``value(index)`` and chooses through
    ``Bot.choose_best`` (so its equally good actions are its ties)."""

    def __init__(self, game, seat: int, value) -> None:
        from meeple.engine.agent import Bot

        class Teacher(Bot):
            name = "valuing"

            def act(self, view, legal_actions):
                return self.choose_best(legal_actions, [value(i) for i in
                                                        range(len(legal_actions))])

        self.bot = Teacher(game, seat, 3)


@pytest.mark.parametrize("game_name", ["damocles", "ozymandias-market"])
def test_labels_are_the_next_codes_of_every_equally_good_action(game_name: str) -> None:
    # A teacher that finds every legal action equally good is labelled with every legal code
    # at every sub-decision (its labels are the mask); one that finds a single action best
    # is labelled with its own code alone. Both through the step codes of a whole game.
    from meeple.adapters.imitation import DemonstrationBot
    from meeple.engine.episode import play_episode

    game = load_game(game_name, players=2)
    for value, all_tied in ((lambda i: 0.0, True), (lambda i: -i, False)):
        learner = DemonstrationBot(game, 0, 5, teacher=_Valuing(game, 0, value).bot,
                                   encoding="compact")
        play_episode(game, 5, [learner, make_bot("random", game, 1, 5)])
        rec = learner.recorder
        assert len(rec.codes) > 20
        for mask, code, labels in zip(rec.masks, rec.codes, rec.labels, strict=True):
            assert labels[code] and not (labels & ~mask).any()
            if all_tied:
                np.testing.assert_array_equal(labels, mask)
            else:
                assert labels.sum() == 1
        if all_tied:  # and some decisions really offered a choice
            assert sum(int(m.sum()) > 1 for m in rec.masks) > 10


def test_the_market_heuristic_names_its_ties_and_the_demonstrations_keep_them() -> None:
    # The market heuristic breaks ties at random among equal values (rules page, bot section);
    # its labels hold its code, only legal codes, and at a good share of the real decisions
    # more than one code (measured: 42% of 170,173 steps in 2,000 games).
    from meeple.adapters.imitation import collect_demonstrations

    game = load_game("ozymandias-market", players=2)
    demos = collect_demonstrations(game, games=6, encoding="compact", seed=1)
    assert demos.labels.shape == demos.masks.shape
    assert demos.labels[np.arange(len(demos.codes)), demos.codes].all()
    assert not (demos.labels & ~demos.masks).any()
    real = demos.masks.sum(axis=1) > 1
    assert 0.2 < (demos.labels[real].sum(axis=1) > 1).mean() < 0.8
    train, held = demos.split(0.5)
    assert len(train.labels) + len(held.labels) == len(demos.labels)
    np.testing.assert_array_equal((train + held).labels, demos.labels)
    np.testing.assert_array_equal((train + held).observations.toarray(),
                                  demos.observations.toarray())


def test_cloning_the_ties_fits_a_set_the_choice_a_single_code() -> None:
    # A teacher that finds every action equally good: every policy already gives its label set
    # (the whole mask) probability 1, so the "ties" loss is 0 from the first batch, while
    # fitting its random choices ("choice") cannot reach 0.
    _sb3()
    from sb3_contrib import MaskablePPO
    from scipy import sparse
    from stable_baselines3.common.vec_env import DummyVecEnv

    from meeple.adapters.imitation import DemonstrationBot, Demonstrations, clone_policy
    from meeple.adapters.rl import SeatCycleEnv
    from meeple.engine.episode import play_episode

    game = load_game("ozymandias-market", players=2)
    learner = DemonstrationBot(game, 0, 2, teacher=_Valuing(game, 0, lambda i: 0.0).bot,
                               encoding="compact")
    play_episode(game, 2, [learner, make_bot("random", game, 1, 2)])
    rec = learner.recorder
    n = len(rec.codes)
    demos = Demonstrations(sparse.csr_matrix(np.asarray(rec.observations)),
                           np.asarray(rec.masks),
                           np.asarray(rec.codes), np.asarray(rec.labels), np.zeros(n, np.float32),
                           np.zeros(n, np.int64), 1, 0.0)
    losses = {}
    for target in ("ties", "choice"):
        env = DummyVecEnv([lambda: SeatCycleEnv(game, "random", "compact")])
        model = MaskablePPO("MlpPolicy", env, seed=0, device="cpu", n_steps=64, batch_size=64)
        losses[target] = clone_policy(model, demos, epochs=2, seed=0, target=target,
                                      value_weight=0.0)
    assert all(h["nll"] < 1e-5 for h in losses["ties"]), losses
    assert all(h["nll"] > 0.1 for h in losses["choice"]), losses
    with pytest.raises(ParameterError):
        clone_policy(model, demos, target="best")


def test_the_imitation_curve_pools_both_sets_of_games() -> None:
    from examples.imitation_curve import pooled
    from meeple.lab.analysis.stats import wilson

    both = pooled([{"games": 10, "share": 0.5}, {"games": 30, "share": 0.9}])
    assert both["games"] == 40 and both["share"] == pytest.approx(32 / 40)
    assert (both["ci_low"], both["ci_high"]) == pytest.approx(wilson(32, 40))


def test_the_imitation_curve_clones_each_size_and_plots(tmp_path: Path) -> None:
    # examples/imitation_curve.py end to end on tiny sizes: one trainer folder per size with
    # an rl: model, the clone and the heuristic measured on both sets of games (2 x 4 each).
    _sb3()
    from examples.imitation_curve import main

    rows = main(["ozymandias-market", "--players", "2", "--games", "12,24", "--epochs", "1",
                 "--eval-games", "4", "--out", str(tmp_path)])
    assert [r["games"] for r in rows] == [12, 24]
    for row in rows:
        assert Path(row["model"]).is_file() and row["imitation"]["games"] == row["games"]
        for opponent in ("heuristic", "random"):
            assert row["vs"][opponent]["clone"]["games"] == 8
            assert row["vs"][opponent]["reference"]["games"] == 8
    assert rows[0]["vs"]["random"]["reference"] == rows[1]["vs"]["random"]["reference"]
    assert json.loads((tmp_path / "curve.json").read_text()) == rows
    assert (tmp_path / "curve.png").stat().st_size > 10_000


@pytest.mark.parametrize(("target", "fit", "words"), [
    ("best", None, "target"),
    ("ties", {"batch": 512}, "choose from"),
    ("ties", {"epochs": 3}, "their own arguments"),
    ("ties", {"batch_size": 512.5}, "an int >= 1"),
    ("ties", {"learning_rate": 0}, "a number > 0"),
])
def test_cloning_settings_are_refused_before_any_game(target, fit, words) -> None:
    from meeple.adapters.imitation import check_clone_settings

    with pytest.raises(ParameterError, match=words):
        check_clone_settings(target, fit)
    check_clone_settings("choice", {"batch_size": 1024, "learning_rate": 2e-3,
                                    "value_weight": 0})


def test_demonstrations_take_the_adapters_auto_encoding() -> None:
    from meeple.adapters._common import action_coder
    from meeple.adapters.imitation import collect_demonstrations

    for name in ("ozymandias-market", "battle-of-the-four-gods"):
        game = load_game(name)
        auto = collect_demonstrations(game, games=1, encoding="auto", seed=3)
        kind = action_coder(game, "auto").kind
        same = collect_demonstrations(game, games=1, encoding=kind, seed=3)
        assert auto.masks.shape == same.masks.shape and (auto.codes == same.codes).all()
    with pytest.raises(ParameterError, match="auto"):
        collect_demonstrations(game, games=1, encoding="steps")
