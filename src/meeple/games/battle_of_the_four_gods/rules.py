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
from collections.abc import Mapping, Sequence
from typing import Annotated, Any

from pydantic import BeforeValidator

from meeple.engine.components import ComponentState, Shown, Value, recorded_winners
from meeple.engine.errors import ActionParseError, ParameterError
from meeple.engine.game import Capabilities, Game
from meeple.engine.registry import register
from meeple.engine.scenario import seat_values
from meeple.engine.validation import NonNegInt
from meeple.engine.winners import RecordedWinners
from meeple.games.battle_of_the_four_gods import invariants
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

#: One round of history in the JSON data: ``[round, [selection text or null per seat],
#: [change per seat], drain]`` (JSON has no tuples: a list is read as one).
RoundData = Annotated[tuple[NonNegInt, list[str | None], list[int], NonNegInt],
                      BeforeValidator(lambda v: tuple(v) if isinstance(v, list) else v)]


def _history_data(history: list[RoundLog]) -> list[Any]:
    """The history as JSON data: each public selection as its text."""
    return [[r, [None if pub is None else selection_text(*pub) for pub in sels], list(deltas),
             drain] for r, sels, deltas, drain in history]


def _history_from_data(data: list[Any]) -> list[RoundLog]:
    """The history from (validated) JSON data: each text read back to its public part."""
    return [(int(r), tuple(None if t is None else parse_selection(t, len(sels), s).public
                           for s, t in enumerate(sels)), tuple(int(d) for d in deltas),
             int(drain)) for r, sels, deltas, drain in data]


def _log_from_json(entry: Any) -> RoundLog:
    """One round's log of a view that went through JSON, its lists turned back into tuples."""
    r, publics, deltas, drain = entry
    return (r, tuple(None if p is None else (tuple(p[0]), tuple(p[1])) for p in publics),
            tuple(deltas), drain)


def _history_from_view(view: Mapping[str, Any], state: Any) -> list[RoundLog]:
    """The history a view shows: its entries are the state's tuples, shared by every draw
    of a search (immutable), unless the view went through JSON."""
    history = view["history"]
    if history and type(history[0]) is not tuple:
        return [_log_from_json(entry) for entry in history]
    return list(history)


def _round_from_view(view: Mapping[str, Any], state: Any) -> int:
    """Rounds completed: the view shows the round being planned until the game is over."""
    return view["round"] if view["winners"] is not None else view["round"] - 1


class FourGodsState(RecordedWinners, ComponentState):
    """One point of a Four Gods playthrough.

    Attributes:
        energy: ENERGY POINTS per seat (may be <= 0 once eliminated; no cap, B4G-20).
        eliminated_round: per seat, the round it was eliminated in, 0 while alive.
        round: rounds completed (the round being planned is ``round + 1``).
        stall: consecutive rounds without an action-caused energy change (B4G-14).
        history: one :data:`RoundLog` per completed round (public, B4G-19).
        winners_: the winning seats once terminal (several = a tie, B4G-13), else None.
        truncated: the game hit ``max_rounds`` (X-5).

    Every field is public; the only hidden information is the seats' pending selections,
    which the engine holds (``_pending``): another seat's is never shown, but one submitted
    face up (``reveal``, variant ``reveal_lock``, B4G-16) is, as ``revealed``.
    """

    #: What a Four Gods state is made of (docs/rules/battle-of-the-four-gods.md, section 6):
    #: the copy, JSON data, validation, views, determinization and scenarios derive from it
    #: (meeple.engine.components). Nothing is dealt: a determinization copies the view, and
    #: the engine draws the other seats' pending selections (:meth:`after_deal` narrows what
    #: they may be under ``reveal_lock``).
    COMPONENTS = (
        Shown("round", show=lambda st, seat: st.round + 1 if st.winners_ is None else st.round),
        Shown("colours", show=lambda st, seat: list(COLOURS[: st.game.players])),
        Value("energy", type=int, per_seat=True, copy=list.copy),
        Shown("alive", show=lambda st, seat: [r == 0 for r in st.eliminated_round]),
        Value("eliminated_round", type=NonNegInt, per_seat=True, copy=list.copy),
        Value("round", type=NonNegInt, view=None, restore=_round_from_view),  # shown above
        Value("stall", type=NonNegInt),
        Value("history", type=list[RoundData], copy=list.copy,  # entries immutable, shared
              show=lambda st: tuple(st.history), restore=_history_from_view,
              to_data=_history_data, from_data=_history_from_data),
        Shown("revealed", show=lambda st, seat: {str(s): str(a) for s, a in st._pending.items()
                                                 if a.reveal}),
        recorded_winners(key="winners"),  # saved as "winners": winners() is a method
        Value("truncated", type=bool),
    )
    #: Besides them, caches: the alive seats as a bit mask, the acting seats' legal tables
    #: (shared through the spec's memo) and whether they may change while nobody falls.
    __slots__ = (*(c.name for c in COMPONENTS if not isinstance(c, Shown)), "_alive_mask",
                 "_tables", "_low")

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

    # ------------------------------------------------------------------ components' hooks
    def after_deal(self, view: Mapping[str, Any]) -> None:
        """A determinization's caches: the legal tables of the state the view shows (read once
        per view: every draw of a search shares them); under ``reveal_lock``, a submitted
        seat's pending selection is its revealed one if the view shows it, else one of its
        face-down (non-``reveal``) legal selections, so the engine draws it from that."""
        game = self.game
        memo = game._cache.get("deal")
        if memo is not None and memo[0] is view:  # the same view as the last draw's
            _, self._alive_mask, self._tables, self._low = memo
            return
        self._refresh_acting()
        if game.params["reveal_lock"] and view["submitted"]:
            self._narrow_tables(view)
        game._cache["deal"] = (view, self._alive_mask, self._tables, self._low)

    def _narrow_tables(self, view: Mapping[str, Any]) -> None:
        revealed, me, n = view["revealed"], view["seat"], self.game.players
        tables = dict(self._tables)
        for seat in view["submitted"]:
            if seat == me:
                continue
            text = revealed.get(str(seat))
            if text is not None:
                sel = parse_selection(text, n, seat)
                tables[seat] = ((sel,), frozenset((sel,)))
            else:
                face_down = tuple(sel for sel in tables[seat][0] if not sel.reveal)
                tables[seat] = (face_down, frozenset(face_down))
        self._tables = tables
        self._low = True  # the narrowed tables must not outlive this round

    @classmethod
    def check_invariants(cls, game: Game, data: Any, base: str) -> None:
        """Energies, eliminations, history and the end agree (:mod:`.invariants`)."""
        invariants.check(game, data, base)

    @classmethod
    def scenario_keys(cls) -> Mapping[str, str]:
        return {"eliminated": "{seat: round} the round each seat out fell in (default: round)"}

    def scenario_setup(self, described: Mapping[str, Any], extra: Mapping[str, Any]) -> None:
        """A position before round ``round + 1`` is planned (issue 18): ``energy`` per seat
        (a list, or ``{seat: value}``, the others at ``start_energy``), ``round`` completed
        (0..``max_rounds`` - 1), ``stall``, and ``eliminated``, the round each seat at 0 or
        below fell in (1..``round``; default ``round``). At least two seats must stand; the
        history starts empty (validation accepts a short one); the game has no chance, so
        there are no draws to fix."""
        game = self.game
        n, p = game.players, game.params
        if "energy" in described:
            self.energy = [int(e) for e in seat_values(described["energy"], n,
                                                       p["start_energy"], "energy")]
        round_ = self.round
        if round_ < 0 or round_ >= p["max_rounds"]:
            raise ParameterError(f"round: {round_} must be in 0..{p['max_rounds'] - 1}")
        fallen = dict(extra.get("eliminated") or {})
        out = []
        for s, e in enumerate(self.energy):
            if e > 0:
                if s in fallen:
                    raise ParameterError(f"eliminated: seat {s} has {e} energy (out means <= 0)")
                out.append(0)
            else:
                when = int(fallen.get(s, round_))
                if not 1 <= when <= round_:
                    raise ParameterError(f"seat {s} is out: it fell in a round 1..{round_} "
                                         f"(round must be at least 1), got {when}")
                out.append(when)
        if sum(1 for r in out if r == 0) < 2:
            raise ParameterError("a scenario needs at least two seats standing (else it is "
                                 "over)")
        self.eliminated_round, self.round, self.stall = out, int(round_), int(self.stall)
        self.history, self.winners_, self.truncated = [], None, False

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


@register
class FourGods(Game):
    """Battle of the Four Gods for 2-4 seats (B4G-1); see the module docstring."""

    name = "battle-of-the-four-gods"
    title = "Battle of the Four Gods"
    summary = "4 players, simultaneous secret attack/defend, energy, table talk"
    rules_page = "docs/rules/battle-of-the-four-gods.md"
    score_name = "final energy"
    #: The state and its components: copy, JSON data, validation, views, determinization
    #: and scenarios derive from ``FourGodsState.COMPONENTS`` (meeple.engine.components).
    state_class = FourGodsState
    #: Fixed-size action table and observation tensor for the adapters (OpenSpiel, ...).
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
