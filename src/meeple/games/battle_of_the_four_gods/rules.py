"""Battle of the Four Gods: the game spec and state transitions.

Rules: seeds/battle-of-the-four-gods.md; decisions B4G-1..B4G-25 in
docs/rules/battle-of-the-four-gods.md. One round is one simultaneous decision: every alive
seat submits a :class:`~.actions.Selection` (Planning Phase), then the round resolves at once
(Results Phase): costs, attacks computed from the pre-round energies and summed (B4G-7), the
stall drain (B4G-14), eliminations at energy <= 0 (B4G-10), and the end check (Winning the
Game, B4G-13, B4G-21).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from meeple.engine.errors import ActionParseError, ParameterError
from meeple.engine.game import Capabilities, Game
from meeple.engine.registry import register
from meeple.engine.state import State
from meeple.engine.winners import RecordedWinners
from meeple.games.battle_of_the_four_gods.actions import (
    COLOURS,
    Selection,
    all_selections,
    parse_selection,
    selection_tags,
    selection_text,
)
from meeple.games.battle_of_the_four_gods.rollout import playout
from meeple.games.battle_of_the_four_gods.variants import PARAMETERS, VARIANTS

#: One round of history: (round number, per seat its public ``(attacked, defended)`` seats or
#: None if it was out, per seat the action-caused energy change, the stall drain applied).
RoundLog = tuple[int, tuple[Any, ...], tuple[int, ...], int]


@register
class FourGods(Game):
    """Battle of the Four Gods for 2-4 seats (B4G-1); see the module docstring."""

    name = "battle-of-the-four-gods"
    title = "Battle of the Four Gods"
    summary = "4 players, simultaneous secret attack/defend, energy, table talk"
    rules_page = "docs/rules/battle-of-the-four-gods.md"
    decisions = "meeple.games.battle_of_the_four_gods.decisions:decision_help"
    scenario = "meeple.games.battle_of_the_four_gods.scenario:build"
    score_name = "final energy"
    bots = {"heuristic": "meeple.games.battle_of_the_four_gods.bot:HeuristicBot"}
    renderer = "meeple.games.battle_of_the_four_gods.render:render_view"
    evaluator = "meeple.games.battle_of_the_four_gods.evaluate:evaluate"
    #: Fixed-size action table and observation tensor for the adapters (OpenSpiel, ...).
    encoding = "meeple.games.battle_of_the_four_gods.encoding"
    #: ISMCTS settings (docs/bots.md): the other seats play the heuristic bot (SelfOnly tree),
    #: one heuristic round after each leaf, then the evaluator. Chosen by the ladder against
    #: the heuristic bot; 56 iterations fit a default decision in 50 ms (issue 22, about 40 ms
    #: mean at heuristic-game positions, benchmarks/bench_search.py; 100 before).
    search = {"iterations": 56, "rollout": "heuristic", "rollout_depth": 1,
              "opponents": "policy", "exploration": 0.1}
    parameters = PARAMETERS
    variants = VARIANTS
    min_players = 2
    max_players = 4
    default_players = 4

    #: ``(attack_cost, defend_cost, damage, defend_refund, stall_rounds, stall_drain,
    #: max_rounds, energy_cap)``: the parameters the hot path reads, once per spec.
    constants: tuple[int, int, int, int, int, int, int, int]
    #: Energy cost of every selection that has appeared in a legal table of this spec (a memo
    #: filled with the tables, so every selection that reaches ``_apply`` is in it).
    costs: dict[Selection, int]
    __slots__ = ("constants", "costs")

    @property
    def capabilities(self) -> Capabilities:
        talk = self.params["talk"]
        return Capabilities(
            min_players=self.min_players,
            max_players=self.max_players,
            simultaneous=True,
            hidden_information=True,  # selections are secret until the reveal (B4G-19)
            chance=False,
            cooperative=False,
            max_length=self.params["max_rounds"],
            length_unit="rounds",
            talk_modes={"none": (), "public": ("public",), "private": ("public", "private")}[talk],
        )

    def seat_names(self) -> tuple[str, ...]:
        return COLOURS[: self.players]

    def seat_colours(self) -> tuple[str, ...]:
        """The gods' colours (Components: RED, BLUE, GREEN, ORANGE)."""
        return tuple(name.lower() for name in COLOURS[: self.players])

    def new_initial_state(self, seed: int = 0) -> FourGodsState:
        """Every seat at ``start_energy``, round 1's planning open (Game Setup)."""
        return FourGodsState(self, seed)

    def parse_action(self, text: str, seat: int) -> Selection:
        """Read a selection (notation in :mod:`.actions`); legality is checked on apply."""
        self.check_seat(seat)
        sel = parse_selection(text, self.players, seat)
        if sel.reveal and not self.params["reveal_lock"]:
            raise ActionParseError("'reveal' needs the variant parameter reveal_lock=true")
        return sel

    def action_tags(self, action: Selection) -> tuple[str, ...]:  # type: ignore[override]
        """Tags of a selection (:func:`.actions.selection_tags`): ``pass``, ``attack``,
        ``attack:left``, ``defend:across``, ``indicators:2``, ``reveal``..."""
        return selection_tags(action)

    def action_tag_names(self) -> tuple[str, ...]:
        """Every tag of seat 0's selections of at most ``max_actions`` indicators (tags are
        relative to the seat, so every seat has the same)."""
        reveals = (False, True) if self.params["reveal_lock"] else (False,)
        return tuple(sorted({t for r in reveals for sel in all_selections(self.players, 0, r)
                             if sel.size <= self.params["max_actions"]
                             for t in selection_tags(sel)}))

    def __init__(self, variant: str | None = None, players: int | None = None,
                 **params: Any) -> None:
        super().__init__(variant, players, **params)
        p = self.params
        unit = 1 if p["limit_mode"] == "count" else max(p["attack_cost"], p["defend_cost"])
        object.__setattr__(self, "constants", (
            p["attack_cost"], p["defend_cost"], p["damage"], p["defend_refund"],
            p["stall_rounds"], p["stall_drain"], p["max_rounds"], p["max_actions"] * unit,
        ))
        object.__setattr__(self, "costs", {})

    @property
    def energy_cap(self) -> int:
        """The energy from which every selection of at most ``max_actions`` indicators is
        affordable; legal tables are looked up with ``min(energy, energy_cap)``."""
        return self.constants[7]

    def legal_table(self, seat: int, alive_mask: int, energy: int) -> tuple[Any, ...]:
        """Legal selections of ``seat`` given who is alive and its energy (memoised).

        Returns ``(selections, frozenset of them, count, count.bit_length(), costs)``: the
        engine's legal entry (the first two) and what a rollout draws with (``costs[i]`` is
        the energy ``selections[i]`` costs).

        A selection is legal when it names only alive opponents (B4G-11), has at most
        ``max_actions`` indicators, and its cost (``limit_mode=cost``) or indicator count
        (``count``) is at most ``energy`` (Planning notes, B4G-5).
        """
        key = energy << 7 | alive_mask << 3 | seat  # an int key: the hottest look-up
        entry = self._cache.get(key)
        if entry is None:
            p = self.params
            ac, dc, most = p["attack_cost"], p["defend_cost"], p["max_actions"]
            by_count = p["limit_mode"] == "count"
            legal = []
            for reveal in (False, True) if p["reveal_lock"] else (False,):
                for sel in all_selections(self.players, seat, reveal):
                    if sel.size > most:
                        continue
                    if any(not alive_mask >> t & 1 for t in sel.attacks + sel.defends):
                        continue
                    self.costs[sel] = sel.cost(ac, dc)
                    need = sel.size if by_count else sel.cost(ac, dc)
                    if need <= energy:
                        legal.append(sel)
            entry = (tuple(legal), frozenset(legal), len(legal), len(legal).bit_length(),
                     tuple(self.costs[sel] for sel in legal))
            self._cache[key] = entry
        return entry

    def _determinizer(self, view: Mapping[str, Any]) -> Callable[[random.Random], FourGodsState]:
        """The view read once, then ``draw(rng)``: a copy (see :mod:`.determinize`)."""
        from meeple.games.battle_of_the_four_gods.determinize import determinizer

        return determinizer(self, view)

    def _validate_data(self, data: Mapping[str, Any]) -> None:
        """Energies, eliminations, history and the end agree (see :mod:`.validate`)."""
        from meeple.games.battle_of_the_four_gods.validate import validate

        validate(self, data)

    def _state_from_data(self, data: Mapping[str, Any]) -> FourGodsState:
        state = FourGodsState(self, 0)
        n = self.players
        try:
            state.energy = [int(e) for e in data["energy"]]
            state.eliminated_round = [int(r) for r in data["eliminated_round"]]
            state.round = int(data["round"])
            state.stall = int(data["stall"])
            state.history = [
                (int(r), tuple(None if t is None else parse_selection(t, n, s).public
                               for s, t in enumerate(sels)), tuple(int(d) for d in deltas),
                 int(drain))
                for r, sels, deltas, drain in data["history"]
            ]
            winners = data["winners"]
            state.winners_ = None if winners is None else tuple(int(w) for w in winners)
            state.truncated = bool(data["truncated"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ParameterError(f"malformed Four Gods state: {exc}") from None
        if len(state.energy) != n or len(state.eliminated_round) != n:
            raise ParameterError(f"malformed Four Gods state: expected {n} seats")
        state._refresh_acting()
        return state


class FourGodsState(RecordedWinners, State):
    """One point of a Four Gods playthrough.

    Attributes:
        energy: ENERGY POINTS per seat (may be <= 0 once eliminated; no cap, B4G-20).
        eliminated_round: per seat, the round it was eliminated in, 0 while alive.
        round: rounds completed (the round being planned is ``round + 1``).
        stall: consecutive rounds without an action-caused energy change (B4G-14).
        history: one :data:`RoundLog` per completed round (public, B4G-19).
        winners_: the winning seats once terminal (several = a tie, B4G-13), else None.
        truncated: the game hit ``max_rounds`` (X-5).
    """

    __slots__ = ("energy", "eliminated_round", "round", "stall", "history", "winners_",
                 "truncated", "_alive_mask", "_tables", "_low")

    def __init__(self, game: FourGods, seed: int) -> None:
        super().__init__(game, seed)
        n = game.players
        self.energy = [game.params["start_energy"]] * n
        self.eliminated_round = [0] * n
        self.round = 0
        self.stall = 0
        self.history: list[RoundLog] = []
        self.winners_: tuple[int, ...] | None = None
        self.truncated = False
        initial = game._cache.get("initial")  # the same for every seed: no chance in setup
        if initial is None:
            self._refresh_acting()
            game._cache["initial"] = (self._acting, self._alive_mask, self._tables, self._low)
        else:
            self._acting, self._alive_mask, self._tables, self._low = initial

    def _refresh_acting(self) -> None:
        rounds = self.eliminated_round
        alive = tuple([s for s in range(len(rounds)) if rounds[s] == 0])
        mask = 0
        for s in alive:
            mask |= 1 << s
        self._alive_mask = mask
        self._acting = () if self.winners_ is not None else alive
        self._refresh_tables()

    def _refresh_tables(self) -> None:
        """Look up each acting seat's legal selections (a dict shared by every state with the
        same acting seats and capped energies, never mutated, so clones share it). ``_low``
        records whether any seat was below the energy cap, i.e. whether the tables can change
        while nobody is eliminated."""
        game = self.game
        acting, energy, cap = self._acting, self.energy, game.constants[7]
        if not acting:
            self._tables, self._low = {}, False
            return
        capped = 0  # the acting seats' energies, capped, as digits of one int
        for s in acting:
            e = energy[s]
            capped = capped * (cap + 1) + (e if e < cap else cap)
        key = ("tables", self._alive_mask, capped)
        memo = game._cache.get(key)
        if memo is None:
            table, mask = game.legal_table, self._alive_mask
            tables = {s: table(s, mask, min(energy[s], cap)) for s in acting}
            memo = game._cache[key] = (tables, any(energy[s] < cap for s in acting))
        self._tables, self._low = memo

    # --------------------------------------------------------------------------- hooks
    def _legal_actions(self, seat: int) -> Sequence[Selection]:
        return self._tables[seat][0]

    def _legal_tables(self) -> Mapping[int, Any]:
        return self._tables

    def _illegal_reason(self, seat: int, action: Any) -> str:
        from meeple.games.battle_of_the_four_gods.decisions import illegal_reason

        return illegal_reason(self, seat, action)

    def _playout(self, rng: random.Random, limit: float) -> int:
        """The engine's random rollout (:meth:`State.playout`), specialised in
        :mod:`.rollout`: the same draws and the same Results Phase as :meth:`_apply`, in loops
        with local variables (a rollout is most of a search's time)."""
        return playout(self, rng, limit)

    def _apply(self, joint: Mapping[int, Selection]) -> None:  # type: ignore[override]
        """Results Phase: costs, simultaneous attacks, stall drain, eliminations, end."""
        game = self.game
        _, _, damage, refund, stall_limit, stall_drain, max_rounds, cap = game.constants
        cost = game.costs  # legal selections only reach here, and each has its cost
        energy = self.energy
        delta = [0] * len(energy)
        publics: list[Any] = [None] * len(energy)
        # Every effect is computed from the pre-round energies and summed (B4G-7), so one
        # pass serves: Results 1 (costs) and Results 2 (attacks, all at once; B4G-12).
        for seat, sel in joint.items():
            attacks = sel.attacks
            delta[seat] -= cost[sel]
            publics[seat] = sel.public
            if attacks:
                guard = 16 << seat
                for target in attacks:
                    if joint[target].mask & guard:
                        delta[target] += refund  # defended (B4G-8)
                    else:
                        delta[target] -= damage
        self.round += 1
        drain = 0
        if any(delta):
            self.stall = 0
        else:
            self.stall += 1
            if stall_limit and self.stall > stall_limit:  # B4G-14 drain, before eliminations
                drain = stall_drain
                for seat in self._acting:
                    energy[seat] -= drain
        self.history.append((self.round, tuple(publics), tuple(delta), drain))
        acting = self._acting  # ascending seats, the same set as ``joint``'s
        lowest = cap
        for seat in acting:
            e = energy[seat] = energy[seat] + delta[seat]
            if e < lowest:
                lowest = e
        if lowest > 0 and self.round < max_rounds:  # the common case: the next round opens
            if lowest < cap or self._low:  # some seat's legal selections may have changed
                self._refresh_tables()
            return
        self._end_round(acting)

    def _end_round(self, acting: tuple[int, ...]) -> None:
        """After a round in which a seat fell or the round cap was reached: eliminations
        (Results 3), the winners if the game ends (B4G-13, B4G-21, X-5), the new acting seats."""
        energy, max_rounds = self.energy, self.game.constants[6]
        fallen = [s for s in acting if energy[s] <= 0]
        for seat in fallen:
            self.eliminated_round[seat] = self.round
        alive = [s for s in acting if energy[s] > 0]
        if len(alive) == 1:  # Winning the Game (B4G-21)
            self.winners_ = (alive[0],)
        elif not alive:  # everyone left fell this round (B4G-13)
            best = max(energy[s] for s in fallen)
            self.winners_ = tuple(s for s in fallen if energy[s] == best)
        elif self.round >= max_rounds:  # safety cap (X-5, B4G-14)
            best = max(energy[s] for s in alive)
            self.winners_ = tuple(s for s in alive if energy[s] == best)
            self.truncated = True
        self._refresh_acting()

    def is_eliminated(self, seat: int) -> bool:
        """Whether ``seat`` fell to 0 energy or below in some round (Results 3)."""
        return self.eliminated_round[seat] > 0

    def scores(self) -> tuple[float, ...]:
        """Energy per seat (negative for a seat eliminated below zero)."""
        return tuple(self.energy)

    def is_truncated(self) -> bool:
        return self.truncated

    def length(self) -> int:
        return self.round

    def _view(self, seat: int | None) -> dict[str, Any]:
        """Public: energies, who is alive, every revealed round; plus face-up (``reveal``)
        pending selections. Never another seat's secret pending selection (B4G-19)."""
        return {
            "round": self.round + 1 if self.winners_ is None else self.round,
            "colours": list(COLOURS[: self.game.players]),
            "energy": list(self.energy),
            "alive": [r == 0 for r in self.eliminated_round],
            "eliminated_round": list(self.eliminated_round),
            "stall": self.stall,
            "history": tuple(self.history),
            "revealed": {str(s): str(a) for s, a in self._pending.items() if a.reveal},
            "winners": None if self.winners_ is None else list(self.winners_),
            "truncated": self.truncated,
        }

    def _copy(self) -> FourGodsState:
        new = self._blank()
        new.energy = self.energy.copy()
        new.eliminated_round = self.eliminated_round.copy()
        new.round = self.round
        new.stall = self.stall
        new.history = self.history.copy()
        new.winners_ = self.winners_
        new.truncated = self.truncated
        new._alive_mask = self._alive_mask
        new._tables = self._tables
        new._low = self._low
        return new

    def _data(self) -> dict[str, Any]:
        return {
            "energy": list(self.energy),
            "eliminated_round": list(self.eliminated_round),
            "round": self.round,
            "stall": self.stall,
            "history": [
                [r, [None if pub is None else selection_text(*pub) for pub in sels], list(deltas),
                 drain]
                for r, sels, deltas, drain in self.history
            ],
            "winners": None if self.winners_ is None else list(self.winners_),
            "truncated": self.truncated,
        }

