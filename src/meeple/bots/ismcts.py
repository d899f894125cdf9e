"""Information-set Monte Carlo tree search: one game-agnostic search bot for every game.

The bot holds only its seat's view. Each iteration samples a full state consistent with that
view (``Game.determinize``, engine-patterns 6), walks the one tree the bot keeps for its
information set with that determinization, adds one node, finishes with a rollout and backs
up the result. This is single-observer ISMCTS (Cowling, Powley and Whitehouse 2012, "Information
Set Monte Carlo Tree Search"), the default search of the Tabletop Games Framework:

- Tree nodes are keyed by the sequence of actions from the root (open loop), so a node stands
  for every state the sampled histories reach; chance outcomes and hidden cards are folded into
  the determinizations, not into the tree.
- Selection is UCB1 over the actions legal *in this determinization*, with each action's
  availability count in place of the parent's visit count (the subset-armed bandit of ISMCTS),
  because which actions are legal depends on the sampled hidden cards.
- Multiplayer: every edge keeps the mean return of the seat that chose it, and each seat picks
  by its own return (max^n). A cooperative game backs up the team's result (the best return of
  any seat: the team won or it did not) for every seat.
- Simultaneous decisions: decoupled UCT. At a node where several seats act at once, each seat
  chooses from its own bandit over its own actions, and the child is keyed by the joint action;
  no seat's choice depends on another's choice at that node, which is what makes the
  simultaneous move sound (Lanctot et al. 2013; Tak, Lanctot and Winands 2014). Another seat's
  choice already submitted but hidden from this bot is drawn by the determinization.
- Other seats, by default, choose from their own bandits in the same tree; with
  ``opponents="policy"`` they play the rollout policy instead and the tree holds only this
  bot's decisions (the "SelfOnly" option of TAG's MCTS).
- Rollouts: uniform random (``State.playout``) or any bot of the game (e.g. its ``heuristic``)
  playing every seat from its own view, to the end or, when the game declares an evaluator
  (``Game.state_evaluator``) and ``rollout_depth`` is set, cut off after that many steps and
  scored by the evaluator.

Budget: ``iterations`` (deterministic for a seed, the lab's choice) or ``seconds`` (wall clock,
for interactive play; the same seed may then search more or fewer iterations on another
machine). The bot's stream is its own (``Bot.rng``), so its thinking never touches the game's
chance stream.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from meeple.bots.weights import game_bot
from meeple.engine.action import Action
from meeple.engine.agent import Bot
from meeple.engine.errors import ParameterError
from meeple.engine.game import Game
from meeple.engine.state import State

#: Fallback settings when a game declares none in ``Game.search``.
DEFAULTS: dict[str, Any] = {"iterations": 200, "rollout": "random", "rollout_depth": None,
                            "opponents": "tree", "exploration": 0.7, "widening": None}
#: Where other seats' moves come from during the tree phase: their own bandits in the one tree
#: (``tree``, the standard multiplayer ISMCTS) or the rollout policy (``policy``: the tree holds
#: only this bot's own decisions, TAG's "SelfOnly" opponent tree policy; against a known
#: style of play, e.g. heuristic opponents or heuristic teammates, the search becomes a best
#: response to that policy).
OPPONENT_MODES = ("tree", "policy")


class _Node:
    """A node of the tree: per acting seat, its edges ``{action: [visits, total, available]}``
    (total: the sum of that seat's returns), and the children by action (sequential) or by
    joint action (a tuple of each acting seat's action, seats ascending). With progressive
    widening, also per seat the ranking of the actions seen when it first acted here
    (``{action: rank}``, 0 best) and how often it has acted here. ``tried`` keeps, per seat,
    ``(legal, found, untried)``: the last legal sequence (the object) it acted from, each of
    its actions' edge in its order (None while untried) and the untried positions, ascending
    (None if there were none). A game that hands out the same legal sequence object again (a
    shared table) skips the look-ups; every edge of this node and seat is made through this
    entry or after replacing it, so it never misses one."""

    __slots__ = ("edges", "children", "rank", "visits", "tried")

    def __init__(self) -> None:
        self.edges: dict[int, dict[Action, list[float]]] = {}
        self.children: dict[Any, _Node] = {}
        self.rank: dict[int, dict[Action, int]] = {}
        self.visits: dict[int, int] = {}
        self.tried: dict[int, tuple[Sequence[Action], list[Any], list[int] | None]] = {}


class ISMCTSBot(Bot):
    """Single-observer information-set MCTS over determinizations (see the module docstring).

    Args:
        game: the game spec; it must provide ``Game.determinize``.
        seat: the seat this bot plays.
        seed: the playtest seed; the search's stream derives from it, the name and the seat.
        iterations: iterations per decision (>= 1); default from ``game.search`` or 200.
        seconds: a wall-clock budget per decision instead (> 0); overrides ``iterations``.
        rollout: ``"random"`` (uniform random playouts) or the name of a bot of this game that
            plays every seat during rollouts (e.g. ``"heuristic"``); default from
            ``game.search`` or random.
        rollout_depth: cut rollouts after this many steps and score the state with the game's
            evaluator; ``None`` plays to the end. Ignored when the game declares no evaluator.
        opponents: ``"tree"`` or ``"policy"`` (see ``OPPONENT_MODES``); default from
            ``game.search`` or tree.
        exploration: the UCB1 constant ``c`` in ``mean + c * sqrt(ln(available) / visits)``
            (returns lie in 0..1).
        widening: progressive widening (Chaslot et al. 2008, "progressive unpruning";
            Coulom 2007): at a node where a seat has acted ``n`` times, only its
            ``widening + floor(sqrt(n) / 2)`` best actions by the rollout bot's ranking
            (``Bot.action_values``, of the state's view when the node was first reached) are
            candidates, tried best first. ``None``: every legal action, untried ones in
            random order. Default: the game's setting, or ``None`` with random rollouts.
            Needs a rollout bot that ranks moves.
        name: the bot's label in reports (e.g. ``"ismcts-400"``).
    Raises:
        ParameterError: for a budget out of range, an unknown rollout bot, or a game without
            a determinization.
    """

    name = "ismcts"

    def __init__(self, game: Game, seat: int, seed: int = 0, *, iterations: int | None = None,
                 seconds: float | None = None, rollout: str | None = None,
                 rollout_depth: int | None | str = "default", opponents: str | None = None,
                 exploration: float | None = None, widening: int | None | str = "default",
                 name: str | None = None) -> None:
        if name is not None:
            self.name = name
        super().__init__(game, seat, seed)
        if not game.determinizes:
            raise ParameterError(f"{game.name} provides no determinization (Game._determinizer),"
                                 " so information-set search cannot play it")
        settings = {**DEFAULTS, **getattr(game, "search", {})}
        self.iterations = int(settings["iterations"] if iterations is None else iterations)
        self.seconds = seconds
        if self.iterations < 1 or (seconds is not None and not seconds > 0):
            raise ParameterError(f"ismcts needs iterations >= 1 and seconds > 0, got "
                                 f"iterations={self.iterations}, seconds={seconds}")
        self.exploration = float(settings["exploration"] if exploration is None else exploration)
        self.evaluate: Callable[[State], tuple[float, ...]] | None = game.state_evaluator()
        depth = settings["rollout_depth"] if rollout_depth == "default" else rollout_depth
        self.rollout_depth: int | None = None if self.evaluate is None else depth
        self.cooperative = game.capabilities.cooperative
        self.rollout = rollout = settings["rollout"] if rollout is None else rollout
        self.opponents = settings["opponents"] if opponents is None else opponents
        if self.opponents not in OPPONENT_MODES:
            raise ParameterError(f"opponents={self.opponents!r}: expected one of "
                                 f"{', '.join(OPPONENT_MODES)}")
        self._policy: list[Any] | None = None
        if rollout != "random":
            policy = [game_bot(rollout, game, s, seed) for s in range(game.players)]
            if policy[0] is None:
                raise ParameterError(f"no bot called {rollout!r} for {game.name} to play rollouts; "
                                     f"rollouts: random, {', '.join(game.bot_factories())}")
            self._policy = policy
        if widening == "default":  # the game's setting, off with random rollouts
            widening = None if self._policy is None else settings["widening"]
        self.widening: int | None = None if widening is None else int(widening)
        if self.widening is not None and (self.widening < 1 or self._policy is None):
            raise ParameterError(f"widening={widening} needs a value >= 1 and a rollout bot "
                                 f"that ranks moves (rollout={rollout!r})")
        #: A ceiling on one decision's wall-clock seconds whatever the budget (None: none):
        #: the search stops at its budget or at this, whichever comes first. A server sets it
        #: on the bots it seats (meeple.server.bots); the lab never does, so its searches stay
        #: the same for the same seed.
        self.time_cap: float | None = None
        #: Iterations run at the last decision (for benchmarks and the terminal).
        self.last_iterations = 0
        self._logs: list[float] = _logs(min(self.iterations, 4096))  # grown as needed (shared)

    # ----------------------------------------------------------------------------- acting
    def act(self, view: Mapping[str, Any], legal_actions: Sequence[Action]) -> Action:
        """The most visited of ``legal_actions`` at the root after the search budget.

        Args:
            view: this seat's view (the only thing the search reads about the game).
            legal_actions: this seat's legal actions (never empty).
        Returns:
            One of ``legal_actions``; with a single legal action, it at once (no search).
        """
        if len(legal_actions) == 1:
            self.last_iterations = 0
            return legal_actions[0]
        root = self.search(view)
        edges = root.edges.get(self.seat, {})
        best, best_key = legal_actions[0], (-1.0, -1.0)
        for action in legal_actions:
            edge = edges.get(action)
            if edge is not None:
                key = (edge[0], edge[1] / edge[0] if edge[0] else 0.0)
                if key > best_key:
                    best, best_key = action, key
        return best

    def search(self, view: Mapping[str, Any]) -> _Node:
        """Run the budget from ``view`` and return the root (its edges give each seat's
        visits and mean return per action)."""
        rng = self.rng
        draw = self.game.determinizer(view)  # the view is checked and read once per search
        root = _Node()
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        if self.time_cap is not None:
            cap = time.perf_counter() + self.time_cap
            deadline = cap if deadline is None else min(deadline, cap)
            budget = self.iterations if self.seconds is None else None
        else:
            budget = None
        done = 0
        while True:
            if done >= len(self._logs) - 1:  # availability counts never exceed ``done``
                self._logs = _logs(2 * done + 2)
            state = draw(rng)
            state.narrate = False  # the search's own states: no event log (engine.state)
            self._iterate(root, state)
            done += 1
            if deadline is None:
                if done >= self.iterations:
                    break
            elif time.perf_counter() >= deadline or (budget is not None and done >= budget):
                break
        self.last_iterations = done
        return root

    # ---------------------------------------------------------------------------- search
    def _iterate(self, root: _Node, state: State) -> None:
        rng = self.rng
        c = self.exploration
        logs = self._logs  # logs[n] == math.log(n): the same floats, without the call
        sqrt = math.sqrt
        node = root
        path: list[tuple[list[float], int]] = []
        expanded = False
        me = self.seat
        self_only = self.opponents == "policy"
        widening = self.widening
        # The state's decision read from its fields (engine.state's protocol: ``_acting``
        # empty exactly when terminal, ``_legal`` the decision's tables, filled once), not
        # through is_terminal/current_players/legal_actions: the same values, and the calls
        # were 1-3% of a search.
        while not expanded:
            acting = state._acting
            if not acting:
                break
            if state._pending:
                acting = state.current_players()
            if self_only and me not in acting:  # other seats move by the policy, no node
                self._policy_step(state, acting)
                continue
            tables = state._legal
            if tables is None:
                tables = state._legal = state._legal_tables()
            picks: list[Action] = []
            for seat in acting:
                legal = tables[seat][0]  # legal_actions(seat): a seat still to act
                if self_only and seat != me:
                    picks.append(self._policy_action(state, seat, legal))
                    continue
                widen = widening is not None and len(legal) > widening
                if widen:  # candidates only, best ranked first
                    legal = self._widen(node, state, seat, legal)
                tried = node.tried.get(seat)
                if tried is None or tried[0] is not legal:  # a new legal sequence here
                    edges = node.edges.get(seat)
                    if edges is None:
                        edges = node.edges[seat] = {}
                    found = list(map(edges.get, legal))  # one look-up per legal action
                    untried = None if all(found) else [
                        i for i, e in enumerate(found) if e is None]
                    node.tried[seat] = (legal, found, untried)
                else:  # the same sequence again (a game may share it): its edges, up to date
                    _, found, untried = tried
                if untried:  # expand an untried action (best first if widened)
                    j = untried.pop(0 if widen else int(rng.random() * len(untried)))
                    for edge in found:  # availability: legal here in this determinization
                        if edge is not None:
                            edge[2] += 1
                    action = legal[j]
                    chosen = found[j] = node.edges[seat][action] = [0, 0.0, 1]  # available too
                    expanded = True
                else:
                    # UCB1, the first best on ties (a strict ``>`` scan from the first), and
                    # availability: each edge is legal here in this determinization
                    best, i, pick = -math.inf, 0, 0
                    for edge in found:
                        v, t, n = edge
                        value = t / v + c * sqrt(logs[n] / v)
                        edge[2] = n + 1
                        if value > best:
                            best, pick = value, i
                        i += 1
                    action, chosen = legal[pick], found[pick]
                path.append((chosen, seat))
                picks.append(action)
            if len(acting) == 1:  # the picks come from legal_actions: no re-check
                key: Any = picks[0]
                state.apply_legal({acting[0]: key})
            else:
                key = picks[acting.index(me)] if self_only else tuple(picks)
                state.apply_legal(dict(zip(acting, picks, strict=True)))
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = _Node()
                expanded = True
            node = child
        values = self._rollout(state)
        for edge, seat in path:
            edge[0] += 1
            edge[1] += values[seat]

    def _widen(self, node: _Node, state: State, seat: int,
               legal: Sequence[Action]) -> list[Action]:
        """The candidates among ``legal`` for ``seat`` at ``node`` (progressive widening),
        best ranked first; actions unseen when the ranking was made rank after all seen."""
        rank = node.rank.get(seat)
        if rank is None:
            values = self._policy[seat].action_values(  # type: ignore[index]
                state.view(seat), legal)
            order = sorted(range(len(legal)), key=lambda i: -values[i]) if values else range(
                len(legal))
            rank = node.rank[seat] = {legal[i]: r for r, i in enumerate(order)}
        n = node.visits.get(seat, 0)
        node.visits[seat] = n + 1
        k = self.widening + int(math.sqrt(n) / 2)  # type: ignore[operator]
        unseen = len(rank)
        ranked = sorted(legal, key=lambda a: rank.get(a, unseen))
        return ranked[:k]

    def _policy_action(self, state: State, seat: int, legal: Sequence[Action]) -> Action:
        """``seat``'s move by the rollout policy (uniform random, or the policy bot)."""
        if self._policy is None:
            return legal[int(self.rng.random() * len(legal))]
        return self._policy[seat].act(state.view(seat), legal)

    def _policy_step(self, state: State, acting: Sequence[int]) -> None:
        """Every seat in ``acting`` moves by the rollout policy."""
        state.apply_actions({s: self._policy_action(state, s, state.legal_actions(s))
                             for s in acting})

    def _rollout(self, state: State) -> Sequence[float]:
        """Play on from ``state`` with the rollout policy; each seat's value in 0..1."""
        depth = self.rollout_depth
        if depth != 0 and not state.is_terminal():  # depth 0: the evaluator at once
            if self._policy is None:
                state.playout(self.rng, depth)
            else:
                steps = 0
                while not state.is_terminal() and (depth is None or steps < depth):
                    self._policy_step(state, state.current_players())
                    steps += 1
        if state.is_terminal():
            values: Sequence[float] = state.returns()
        else:
            values = self.evaluate(state)  # type: ignore[misc]  # depth is set only with one
        if self.cooperative:
            team = max(values)
            return (team,) * len(values)
        return values


#: ``math.log(n)`` for ``n`` in ``0..len - 1`` (index 0: 0.0), shared by every bot; replaced,
#: never changed, when a search needs it longer (a list a bot holds stays valid).
_LOG_TABLE: list[float] = [0.0]


def _logs(size: int) -> list[float]:
    """``math.log(n)`` for ``n`` in ``0..size`` or more (0 stands in for the undefined log
    0): the shared table, extended to ``size`` first if it is shorter (a bot built per
    decision no longer computes its own)."""
    global _LOG_TABLE
    table = _LOG_TABLE
    if len(table) <= size:
        table = _LOG_TABLE = table + [math.log(n) for n in range(len(table), size + 1)]
    return table


def ismcts_from_name(name: str, game: Game, seat: int, seed: int = 0) -> ISMCTSBot:
    """Build an :class:`ISMCTSBot` from a label (:func:`label_options` reads it).

    Raises:
        ParameterError: naming the part of the label that cannot be read.
    """
    return ISMCTSBot(game, seat, seed, name=name, **label_options(name))


def label_options(name: str) -> dict[str, Any]:
    """The settings an ISMCTS label asks for, as :class:`ISMCTSBot` keyword arguments:
    ``ismcts`` (the game's defaults), then any of ``-<iterations>`` (``ismcts-400``),
    ``-<seconds>s`` (``ismcts-0.5s``), ``-d<depth>`` (rollout cut after that many steps,
    scored by the game's evaluator; ``-d0``: evaluate at once), ``-c<constant>`` (the UCB1
    exploration constant, ``ismcts-400-c0.3``), ``-w<k>`` (progressive widening from the ``k``
    best moves, ``ismcts-w3``), ``-<bot>`` (the rollout policy, e.g.
    ``ismcts-200-heuristic``) and ``-policy`` or ``-tree`` (where other seats' moves come from
    in the tree), in any order.

    Raises:
        ParameterError: naming the part of the label that cannot be read.
    """
    parts = name.split("-")
    if parts[0] != "ismcts":
        raise ParameterError(f"{name!r} is not an ismcts label")
    options: dict[str, Any] = {}
    for part in parts[1:]:
        try:
            if is_budget_part(part):
                if part.isdigit():
                    options["iterations"] = int(part)
                else:
                    options["seconds"] = float(part[:-1])
            elif part.startswith("c") and _is_number(part[1:]):
                options["exploration"] = float(part[1:])
            elif part.startswith("d") and part[1:].isdigit():
                options["rollout_depth"] = int(part[1:])
            elif part.startswith("w") and part[1:].isdigit():
                options["widening"] = int(part[1:])
            elif part in OPPONENT_MODES:
                options["opponents"] = part
            elif part and part[0].isalpha():
                options["rollout"] = part
            else:
                raise ValueError(part)
        except ValueError:
            raise ParameterError(
                f"cannot read {part!r} in bot {name!r}: write ismcts[-ITERATIONS][-SECONDSs]"
                f"[-dDEPTH][-cEXPLORATION][-wWIDENING][-ROLLOUTBOT][-policy|-tree], e.g. "
                "ismcts-400 or ismcts-0.5s-heuristic") from None
    return options


def is_budget_part(part: str) -> bool:
    """Whether ``part`` (of a label split at ``-``) is a search budget: ``400`` (iterations)
    or ``0.5s`` (seconds a move)."""
    return part.isdigit() or (part.endswith("s") and _is_number(part[:-1]))


def _is_number(text: str) -> bool:
    try:
        return float(text) > 0
    except ValueError:
        return False


__all__ = ["DEFAULTS", "ISMCTSBot", "is_budget_part", "ismcts_from_name", "label_options"]
