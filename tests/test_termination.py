"""Every game ends, whatever its seats choose.

``play_episode`` plays until the state is terminal, trusting that every game declares a cap
(``Capabilities.max_length``). A cap on rounds or turns is not enough when a seat can keep
one turn going forever: the campaign's stall (OZW-54, docs/lab.md section 6) was a pair of
decisions that changed nothing and stayed legal. For every registered game, adversarial line-ups
play whole games with a hard bound on decisions (so a stall fails the test instead of hanging
it):

* scripted policies (:mod:`meeple.bots.scripted`) with random weights over the game's action
  tags, the sort the lab's degenerate-strategy search tries;
* *stubborn* policies that weigh every tag +1 and the tags that stop something (``end``,
  ``done``, ``pass``, ``stop``...) -2: they never stop while anything else is legal;
* a *least-recent* policy that plays the legal action it played longest ago (it comes back to
  whatever stays legal);
* the random bot.

Every game must end within :data:`DECISIONS` decisions, and its length must stay within the
cap the game declares. The campaign's tighter per-turn bound is checked in
``tests/test_ozymandias_campaign_stall.py``.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeple import load_game
from meeple.bots import make_bot
from meeple.bots.scripted import ScriptedBot
from meeple.engine.registry import game_names

#: Decisions after which a game counts as stalled: far above any game seen under these
#: policies (campaign: at most about 1,000 in 100 rounds; the others at most a few hundred).
DECISIONS = 20_000
#: Tags that stop something; a stubborn policy avoids them.
STOPPING = ("end", "done", "pass", "stop", "keep", "skip", "decline", "finish")
#: Line-up members: a kind, and for ``weights`` the weight per tag index (-2..2).
MEMBER = st.one_of(
    st.sampled_from(["stubborn", "least-recent", "random"]),
    st.lists(st.integers(-2, 2), min_size=20, max_size=20))


class LeastRecent:
    """An adversarial policy: plays the legal action it played longest ago (one never played
    first; ties by text), so it tries everything and keeps coming back to whatever stays
    legal (also used by the campaign's stall tests)."""

    def __init__(self) -> None:
        self.last: dict[str, int] = {}
        self.clock = 0

    def act(self, view, legal_actions):
        self.clock += 1
        choice = min(legal_actions, key=lambda a: (self.last.get(str(a), -1), str(a)))
        self.last[str(choice)] = self.clock
        return choice


def agent(game, seat: int, seed: int, member):
    """The line-up member ``member`` (see :data:`MEMBER`) as ``seat``'s agent."""
    tags = game.action_tag_names()
    if member == "least-recent":
        return LeastRecent()
    if member == "random":
        return make_bot("random", game, seat, seed)
    if member == "stubborn":
        weights = {t: (-2.0 if t.split(":")[0] in STOPPING else 1.0) for t in tags}
    else:
        weights = {t: float(member[i % len(member)]) for i, t in enumerate(tags)}
    return ScriptedBot(game, seat, seed + seat, weights)


@pytest.mark.parametrize("name", sorted(game_names()))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**31 - 1))
def test_every_game_ends_under_adversarial_policies(name: str, data, seed: int) -> None:
    spec = load_game(name)
    players = data.draw(st.integers(spec.min_players, min(spec.max_players, 5)),
                        label="players")
    game = load_game(name, players=players)
    members = data.draw(st.lists(MEMBER, min_size=players, max_size=players), label="line-up")
    agents = [agent(game, s, seed, m) for s, m in enumerate(members)]
    state = game.new_initial_state(seed % 2**31)
    steps = 0
    while not state.is_terminal() and steps < DECISIONS:
        state.apply_actions({s: agents[s].act(state.view(s), state.legal_actions(s))
                             for s in state.current_players()})
        steps += 1
    assert state.is_terminal(), f"{name}: no end after {steps} decisions ({members})"
    assert state.length() <= game.capabilities.max_length, (state.length(), members)
