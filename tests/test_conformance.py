"""Conformance suite: every registered game, every declared variant, every seat count.

These tests use only the game-agnostic API (``meeple.engine``), so a new game added under
``meeple.games`` is checked by them without any edit here. Playouts are uniform random from a
seeded ``random.Random``; counts are kept small so the whole file stays fast.
"""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Iterator

import pytest

from meeple.bots import bot_names, make_bot
from meeple.engine.episode import play_episode
from meeple.engine.errors import (
    GameOverError,
    IllegalActionError,
    MeepleError,
    NotYourTurnError,
    ParameterError,
    RecordError,
    UnknownGameError,
    UnknownVariantError,
)
from meeple.engine.game import Game
from meeple.engine.record import Record, replay
from meeple.engine.registry import game_class, game_names, load_game
from meeple.engine.state import State

try:  # the template games; importing them registers "pig" and "crazy-eights"
    import examples.crazy_eights  # noqa: F401
    import examples.pig  # noqa: F401
except ImportError:  # pragma: no cover - only when run outside the checkout
    pass

PLAYOUTS = 6
#: Hard stop for a playout loop, far above any cheap variant's real length.
STEP_GUARD = 20_000


def _configs() -> list:
    out = []
    for name in game_names():
        cls = game_class(name)
        counts = list(range(cls.min_players, cls.max_players + 1))
        if len(counts) > 4:  # keep it cheap for games with many seat counts
            counts = sorted({cls.min_players, cls.default_players, cls.max_players})
        for variant in cls.variants:
            for players in counts:
                out.append(
                    pytest.param(
                        (name, variant.name, players), id=f"{name}-{variant.name}-{players}p"
                    )
                )
    return out


CONFIGS = _configs()
#: The default variant only, at every seat count (for the slower checks).
DEFAULT_CONFIGS = [
    c for c in CONFIGS if c.values[0][1] == game_class(c.values[0][0]).variants[0].name
]
GAMES = [pytest.param(name, id=name) for name in game_names()]


def test_registry_is_not_empty() -> None:
    assert game_names(), "no game is registered"
    assert game_names() == sorted(game_names())
    assert CONFIGS


def _random_joint(state: State, rng: random.Random) -> dict:
    return {s: rng.choice(list(state.legal_actions(s))) for s in state.current_players()}


def _walk(game: Game, seed: int) -> Iterator[tuple[State, dict]]:
    """Yield ``(state, joint)`` before each step of a seeded random playout, then apply it.

    The caller may inspect (not mutate) the state; the final terminal state is yielded with an
    empty joint.
    """
    state = game.new_initial_state(seed)
    rng = random.Random(1_000_003 * seed + 17)
    steps = 0
    while not state.is_terminal():
        joint = _random_joint(state, rng)
        yield state, joint
        state.apply_actions(joint)
        steps += 1
        assert steps <= STEP_GUARD, "random playout does not end"
    yield state, {}


def _simultaneous(game: Game, seeds: range = range(6)) -> Iterator[tuple[State, dict]]:
    """``(state, joint)`` at every simultaneous decision of seeded random playouts, trying
    seeds in turn until a playout has had one (in some games, e.g. a war in the Ozymandias
    campaign, a random playout may never reach one)."""
    for seed in seeds:
        found = False
        for state, joint in _walk(game, seed):
            if len(state.current_players()) >= 2:
                found = True
                yield state, joint
        if found:
            return


@pytest.fixture(params=CONFIGS)
def game(request) -> Game:
    name, variant, players = request.param
    return load_game(name, variant, players)


# ----------------------------------------------------------------------------- playouts
def test_random_playouts_end_within_max_length(game: Game) -> None:
    cap = game.capabilities.max_length
    assert cap >= 1
    assert game.capabilities.length_unit in ("rounds", "turns", "days")
    for seed in range(PLAYOUTS):
        for state, joint in _walk(game, seed):
            assert state.length() <= cap
            if joint:
                assert not state.is_terminal()
        assert state.is_terminal()
        assert state.length() <= cap
        assert state.current_players() == ()
        assert len(state.returns()) == game.players
        assert len(state.scores()) == game.players
        assert set(state.winners()) <= set(range(game.players))
        if state.is_truncated():
            assert state.length() == cap


def test_acting_seats_have_actions_and_others_none(game: Game) -> None:
    for seed in range(PLAYOUTS):
        for state, joint in _walk(game, seed):
            acting = state.current_players()
            if not joint:
                assert acting == ()
                assert all(len(state.legal_actions(s)) == 0 for s in range(game.players))
                continue
            assert acting, "a non-terminal state must have a seat to act"
            assert list(acting) == sorted(set(acting))
            assert all(0 <= s < game.players for s in acting)
            for seat in range(game.players):
                legal = list(state.legal_actions(seat))
                if seat in acting:
                    assert legal, f"acting seat {seat} has no legal action"
                    assert len(set(legal)) == len(legal), "duplicate legal actions"
                    assert legal == list(state.legal_actions(seat)), "order not deterministic"
                else:
                    assert legal == []
            assert tuple(state.returns()) == (0.0,) * game.players  # zeros mid-game
            assert tuple(state.winners()) == ()
            assert set(joint) == set(acting)


def test_partial_submission_removes_seat_from_acting(game: Game) -> None:
    found = 0
    for state, joint in _simultaneous(game):
        c = state.clone()
        first = c.current_players()[0]
        c.apply_action(joint[first], seat=first)
        assert first not in c.current_players()
        assert list(c.legal_actions(first)) == []
        assert c.view(None)["submitted"] == [first]
        rest = {s: a for s, a in joint.items() if s != first}
        c.apply_actions(rest)
        after = state.clone()
        after.apply_actions(joint)
        assert c.digest() == after.digest(), "one-by-one and joint submission differ"
        found += 1
    if game.capabilities.simultaneous:
        assert found > 0


def test_submission_order_does_not_matter(game: Game) -> None:
    # At a simultaneous decision the order in which seats submit is not part of the game:
    # every order must reach the same state as apply_actions.
    if not game.capabilities.simultaneous:
        pytest.skip("no simultaneous decisions")
    checked = 0
    for seed in range(PLAYOUTS):
        for state, joint in _walk(game, seed):
            if len(joint) < 2:
                continue
            together = state.clone()
            together.apply_actions(joint)
            for order in (sorted(joint, reverse=True), sorted(joint)[1:] + sorted(joint)[:1]):
                c = state.clone()
                for seat in order:
                    c.apply_action(joint[seat], seat)
                assert c.digest() == together.digest(), (order, [str(a) for a in joint.values()])
            reordered = state.clone()
            reordered.apply_actions(dict(sorted(joint.items(), reverse=True)))
            assert reordered.digest() == together.digest()
            checked += 1
    assert checked > 0


def test_clone_then_apply_never_changes_original(game: Game) -> None:
    for seed in range(PLAYOUTS):
        kept: list[tuple[State, str]] = []
        for state, joint in _walk(game, seed):
            # clones taken earlier survive the original moving on
            for clone, digest in kept:
                assert clone.digest() == digest
            if not joint:
                break
            before = state.digest()
            c = state.clone()
            assert c.digest() == before
            c.apply_actions(joint)
            assert state.digest() == before
            assert c.length() >= state.length()
            kept = [(state.clone(), before)]


def test_same_seed_same_choices_same_digest(game: Game) -> None:
    for seed in range(3):
        first = [s.digest() for s, _ in _walk(game, seed)]
        second = [s.digest() for s, _ in _walk(game, seed)]
        assert first == second
        assert len(first) >= 2
    assert game.new_initial_state(5).digest() == game.new_initial_state(5).digest()


def test_new_initial_state_rejects_bad_seed(game: Game) -> None:
    for bad in (-1, 1.5, "3", True):
        with pytest.raises(ParameterError):
            game.new_initial_state(bad)


# ------------------------------------------------------------------------ serialisation
def _json_round_trip(game: Game, state: State) -> State:
    text = json.dumps(state.to_json())
    restored = game.state_from_json(json.loads(text))
    also = game.state_from_json(text)  # the JSON text itself is accepted too
    assert also.digest() == restored.digest()
    return restored


def _assert_same(game: Game, a: State, b: State) -> None:
    assert a.digest() == b.digest()
    assert a.current_players() == b.current_players()
    assert a.is_terminal() == b.is_terminal()
    for seat in [None, *range(game.players)]:
        assert a.view(seat) == b.view(seat)
        if seat is not None:
            assert list(a.legal_actions(seat)) == list(b.legal_actions(seat))


def test_json_round_trip_through_playthrough(game: Game) -> None:
    for seed in range(2):
        for state, joint in _walk(game, seed):
            restored = _json_round_trip(game, state)
            _assert_same(game, state, restored)
            if joint:  # the restored state plays on identically
                probe = state.clone()
                probe.apply_actions(joint)
                restored.apply_actions(joint)
                assert probe.digest() == restored.digest()


def test_json_round_trip_mid_decision(game: Game) -> None:
    checked = 0
    for state, joint in _simultaneous(game, range(1, 7)):
        partial = state.clone()
        seat = partial.current_players()[0]
        partial.apply_action(joint[seat], seat=seat)
        restored = _json_round_trip(game, partial)
        _assert_same(game, partial, restored)
        assert restored.view(seat)["my_submission"] == str(joint[seat])
        assert seat not in restored.current_players()
        rest = {s: a for s, a in joint.items() if s != seat}
        restored.apply_actions(rest)
        partial.apply_actions(rest)
        assert restored.digest() == partial.digest()
        checked += 1
        if checked >= 5:
            break
    if game.capabilities.simultaneous:
        assert checked > 0


def test_state_from_json_refuses_other_spec(game: Game) -> None:
    data = game.new_initial_state(0).to_json()
    for key, value in (
        ("game", "no-such-game"),
        ("variant", "no-such-variant"),
        ("players", game.players + 1),
        ("format", "nope"),
    ):
        bad = json.loads(json.dumps(data))
        bad[key] = value
        with pytest.raises(ParameterError):
            game.state_from_json(bad)


def test_views_are_json_and_well_formed(game: Game) -> None:
    for state, _ in _walk(game, 2):
        for seat in [None, *range(game.players)]:
            view = state.view(seat)
            json.dumps(view)
            assert view["game"] == game.name
            assert view["seat"] == seat
            assert view["to_act"] == list(state.current_players())
            assert view["submitted"] == []
            assert "my_submission" not in view
    for bad in (-1, game.players, 99):
        with pytest.raises(ParameterError):
            state.view(bad)


@pytest.mark.parametrize("name", GAMES)
def test_view_of_non_integer_seat_raises_parameter_error(name: str) -> None:
    # State.view documents ParameterError for anything that is not None or a seat, so that an
    # interface catching MeepleError shows a message; a text seat must not leak a TypeError.
    state = load_game(name).new_initial_state(0)
    with pytest.raises(ParameterError):
        state.view("0")  # type: ignore[arg-type]


def test_hidden_pending_submission_is_invisible_to_others(game: Game) -> None:
    if not game.capabilities.simultaneous:
        pytest.skip("no simultaneous decisions")
    checked = 0
    for seed in range(3):
        for state, _ in _walk(game, seed):
            acting = state.current_players()
            if len(acting) < 2:
                continue
            for a_seat in acting:
                legal = list(state.legal_actions(a_seat))
                if len(legal) < 2:
                    continue
                a1, a2 = legal[0], legal[-1]
                c1, c2 = state.clone(), state.clone()
                c1.apply_action(a1, seat=a_seat)
                c2.apply_action(a2, seat=a_seat)
                assert c1.digest() != c2.digest()
                for b_seat in range(game.players):
                    if b_seat != a_seat:
                        assert c1.view(b_seat) == c2.view(b_seat), (a_seat, b_seat, a1, a2)
                assert c1.view(None) == c2.view(None)
                v1, v2 = c1.view(a_seat), c2.view(a_seat)
                assert v1 != v2
                assert v1["my_submission"] == str(a1)
                assert v2["my_submission"] == str(a2)
                for c in (c1, c2):
                    for seat in [None, *range(game.players)]:
                        json.dumps(c.view(seat))
                    assert "my_submission" not in c.view(None)
                checked += 1
    assert checked > 0


# ---------------------------------------------------------------------- records, replay
def _episode(game: Game, seed: int) -> tuple[State, Record]:
    agents = [make_bot("random", game, seat, seed) for seat in range(game.players)]
    return play_episode(game, seed, agents, meta={"bots": ["random"] * game.players})


def test_record_replays_to_same_digest(game: Game, tmp_path) -> None:
    for seed in range(3):
        final, record = _episode(game, seed)
        assert final.is_terminal()
        assert record.result is not None
        assert record.result["digest"] == final.digest()
        assert record.result["terminal"] is True
        assert record.result["length"] == final.length() <= game.capabilities.max_length
        assert record.result["winners"] == list(final.winners())
        assert record.steps
        assert replay(record).digest() == final.digest()
        path = tmp_path / f"game-{seed}.json"
        record.save(path)
        loaded = Record.load(path)
        assert loaded.to_json() == json.loads(json.dumps(record.to_json()))
        assert replay(loaded).digest() == final.digest()
        assert Record.from_json(record.to_json()).to_json() == record.to_json()


def test_record_episode_is_deterministic(game: Game) -> None:
    _, r1 = _episode(game, 7)
    _, r2 = _episode(game, 7)
    assert r1.to_json() == r2.to_json()


def test_tampered_record_raises(game: Game) -> None:
    _, record = _episode(game, 3)

    def tampered(edit) -> Record:
        data = json.loads(json.dumps(record.to_json()))
        edit(data)
        return Record.from_json(data)

    def flip_digest(d):
        d["result"]["digest"] = "0" * 64

    def drop_last(d):
        d["steps"].pop()

    def garbage(d):
        seat = next(iter(d["steps"][0]))
        d["steps"][0][seat] = "@@ not an action @@"

    def other_seed(d):
        d["seed"] += 1

    def extra_step(d):
        d["steps"].append(d["steps"][-1])

    def unknown_seat(d):
        d["steps"][0][str(game.players + 5)] = next(iter(d["steps"][0].values()))

    for edit in (flip_digest, drop_last, garbage, other_seed, extra_step, unknown_seat):
        with pytest.raises(RecordError):
            replay(tampered(edit))
    # without verification only structural problems raise
    replay(tampered(flip_digest), verify=False)
    with pytest.raises(RecordError, match="step 0"):
        replay(tampered(garbage), verify=False)


class _Checked:
    """Wraps a bot; fails the test if it ever returns an action outside ``legal``."""

    def __init__(self, bot) -> None:
        self.bot = bot
        self.calls = 0

    def act(self, view, legal):
        action = self.bot.act(view, legal)
        assert action in legal, f"bot {self.bot!r} chose an illegal action {action}"
        self.calls += 1
        return action


@pytest.mark.parametrize("config", DEFAULT_CONFIGS)
def test_every_bot_plays_legal_actions(config) -> None:
    game = load_game(*config)
    for name in bot_names(game):
        if name == "ismcts":  # a tiny budget: this checks legality, not strength
            name = "ismcts-3-d3"
        agents = [_Checked(make_bot(name, game, seat, 11)) for seat in range(game.players)]
        final, record = play_episode(game, 11, agents)
        assert final.is_terminal()
        assert all(a.calls for a in agents), f"bot {name}: some seat never acted"
        assert replay(record).digest() == final.digest()
    with pytest.raises(ParameterError, match="no-such-bot"):
        make_bot("no-such-bot", game, 0, 0)


def test_play_episode_wrong_agent_count(game: Game) -> None:
    agents = [make_bot("random", game, s, 0) for s in range(game.players)]
    with pytest.raises(ValueError):
        play_episode(game, 0, agents[:-1])
    with pytest.raises(ValueError):
        play_episode(game, 0, agents + agents[:1])


# ----------------------------------------------------------------------- illegal actions
#: In the illegal-action test, check every STRIDE-th step in full (digests, refusals); the
#: steps between only collect actions seen, so games with hundreds of steps stay cheap.
STRIDE = 4


def seen_update(seen: dict[int, set], state: State, game: Game) -> None:
    for seat in range(game.players):
        seen[seat].update(state.legal_actions(seat))


def test_illegal_actions_refused_with_typed_error(game: Game) -> None:
    seen: dict[int, set] = {s: set() for s in range(game.players)}
    illegal_checks = not_turn_checks = wrong_seat_checks = 0
    for seed in range(PLAYOUTS):
        for step, (state, joint) in enumerate(_walk(game, seed)):
            if joint and step % STRIDE:  # long games: every STRIDE-th step, and the end
                seen_update(seen, state, game)
                continue
            before = state.digest()
            acting = state.current_players()
            if not joint:
                for seat, actions in seen.items():
                    for action in list(actions)[:3]:
                        with pytest.raises(GameOverError):
                            state.apply_action(action, seat)
                with pytest.raises(GameOverError):
                    state.apply_actions({})
                assert state.digest() == before
                break
            for seat in range(game.players):
                legal = set(state.legal_actions(seat))
                seen[seat] |= legal
                for action in [a for a in seen[seat] if a not in legal][:5]:
                    if seat in acting:
                        with pytest.raises(IllegalActionError) as info:
                            state.apply_action(action, seat)
                        assert type(info.value) is IllegalActionError
                        assert str(action) in str(info.value)
                        illegal_checks += 1
                    else:
                        with pytest.raises(NotYourTurnError):
                            state.apply_action(action, seat)
                        not_turn_checks += 1
                    assert state.digest() == before
            # an action of one seat submitted as another's
            for seat, action in joint.items():
                others = [s for s in acting if s != seat]
                if action.seat is not None and others:
                    with pytest.raises(IllegalActionError):
                        state.apply_action(action, others[0])
                    wrong_seat_checks += 1
                    assert state.digest() == before
            # a seat that already submitted cannot submit again
            if len(acting) >= 2:
                c = state.clone()
                c.apply_action(joint[acting[0]], acting[0])
                mid = c.digest()
                with pytest.raises(NotYourTurnError):
                    c.apply_action(joint[acting[0]], acting[0])
                assert c.digest() == mid
                with pytest.raises(NotYourTurnError):
                    state.legal_actions(None)  # several seats act: say which
    assert illegal_checks + not_turn_checks + wrong_seat_checks > 0


def test_apply_actions_missing_or_extra_seat(game: Game) -> None:
    checked = 0
    for state, joint in _walk(game, 4):
        if not joint:
            break
        before = state.digest()
        acting = state.current_players()
        any_action = next(iter(joint.values()))
        bad_joints = [
            {},
            {**joint, game.players: any_action},  # a seat that does not exist
        ]
        if len(joint) >= 2:
            bad_joints.append(dict(list(joint.items())[1:]))  # one seat missing
        idle = [s for s in range(game.players) if s not in acting]
        if idle:
            bad_joints.append({**joint, idle[0]: any_action})  # a seat not to act
        for bad in bad_joints:
            with pytest.raises(NotYourTurnError):
                state.apply_actions(bad)
            assert state.digest() == before
        if len(acting) >= 2:
            c = state.clone()
            c.apply_action(joint[acting[0]], acting[0])
            mid = c.digest()
            with pytest.raises(NotYourTurnError):
                c.apply_actions(joint)  # includes the seat that already submitted
            assert c.digest() == mid
        checked += 1
    assert checked > 0


# ------------------------------------------------------------------------------ actions
def test_action_text_round_trip_and_immutability(game: Game) -> None:
    seen = set()
    for seed in range(3):
        for state, _ in _walk(game, seed):
            for seat in state.current_players():
                for action in state.legal_actions(seat):
                    seen.add((seat, action))
    assert seen
    for seat, action in seen:
        text = str(action)
        parsed = game.parse_action(text, seat)
        assert parsed == action
        assert type(parsed) is type(action)
        assert str(parsed) == text
        assert hash(parsed) == hash(action)
        assert action.to_json() == text
        with pytest.raises(AttributeError):
            action.seat = seat  # type: ignore[misc]
        with pytest.raises(AttributeError):
            action.some_new_attribute = 1  # type: ignore[attr-defined]
        assert str(action) == text


# ----------------------------------------------------------------------- specs, loading
@pytest.mark.parametrize("name", GAMES)
def test_load_game_errors_name_the_offender(name: str) -> None:
    cls = game_class(name)
    with pytest.raises(UnknownGameError, match="no-such-game-xyz"):
        load_game("no-such-game-xyz")
    with pytest.raises(UnknownVariantError, match="no-such-variant-xyz"):
        load_game(name, "no-such-variant-xyz")
    with pytest.raises(ParameterError, match="no_such_param_xyz"):
        load_game(name, no_such_param_xyz=1)
    for players in (cls.min_players - 1, cls.max_players + 1, 0, -1):
        with pytest.raises(ParameterError, match="players"):
            load_game(name, players=players)
    with pytest.raises(ParameterError, match="players"):
        load_game(name, players="2")  # type: ignore[arg-type]
    for p in cls.parameters:
        bad_values = []
        if p.kind is bool:
            bad_values = ["maybe", 2]
        elif p.kind is int:
            if p.minimum is not None:
                bad_values.append(p.minimum - 1)
            if p.maximum is not None:
                bad_values.append(p.maximum + 1)
            bad_values.append("not-a-number")
        elif p.choices:
            bad_values = ["no-such-choice-xyz"]
        for value in bad_values:
            with pytest.raises(ParameterError, match=p.name) as info:
                load_game(name, **{p.name: value})
            assert p.allowed() in str(info.value)
    # lookup errors are also the built-in kinds, and all are MeepleErrors
    assert issubclass(UnknownGameError, LookupError) and issubclass(UnknownGameError, MeepleError)
    assert issubclass(ParameterError, ValueError)


@pytest.mark.parametrize("name", GAMES)
def test_variants_and_aliases_load(name: str) -> None:
    cls = game_class(name)
    assert cls.variants
    names = [v.name for v in cls.variants]
    assert len(set(names)) == len(names)
    assert load_game(name).variant == cls.variants[0].name
    assert load_game(name).players == cls.default_players
    assert cls.min_players <= cls.default_players <= cls.max_players
    for v in cls.variants:
        g = load_game(name, v.name)
        assert g.variant == v.name
        for key, value in v.params.items():
            assert g.params[key] == value
        assert dict(g.variant_params()) == dict(g.params)
        for alias in v.aliases:
            assert load_game(name, alias) == g
    for p in cls.parameters:  # a value of no acceptable type
        with pytest.raises(ParameterError, match=p.name):
            load_game(name, **{p.name: object()})


def test_spec_is_immutable_and_picklable(game: Game) -> None:
    with pytest.raises(AttributeError):
        game.players = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        game.variant = "x"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        game.anything_new = 1  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        game.params["x"] = 1  # type: ignore[index]
    with pytest.raises(AttributeError):
        game.capabilities.max_length = 1  # type: ignore[misc]
    back = pickle.loads(pickle.dumps(game))
    assert back == game
    assert hash(back) == hash(game)
    assert type(back) is type(game)
    assert back.spec() == game.spec()
    json.dumps(game.spec())
    assert load_game(game.name, game.variant, game.players) == game
    assert eval(repr(game), {"load_game": load_game}) == game
    caps = game.capabilities
    assert caps.min_players <= game.players <= caps.max_players
    assert len(game.seat_names()) == game.players
    # a state of the unpickled spec equals a state of the original
    assert back.new_initial_state(3).digest() == game.new_initial_state(3).digest()
    # a spec with other parameter values is a different spec
    cls = type(game)
    for p in cls.parameters:
        if p.kind is int and (p.maximum is None or game.params[p.name] < p.maximum):
            other = load_game(
                game.name, game.variant, game.players, **{p.name: game.params[p.name] + 1}
            )
            assert other != game
            assert other.variant == game.variant
            break
