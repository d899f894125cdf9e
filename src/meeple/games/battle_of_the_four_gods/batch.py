"""Many Four Gods games stepped together with NumPy: the fast path for bulk random playouts
and vectorised learners (issue 22), with action codes (``Game.action_table``) for actions.

:class:`FourGodsBatch` holds ``size`` games of one spec (variant, parameters, seats) as arrays
and steps all of them at once: one array of codes, one per (game, seat), per round. It runs the
same rules as :class:`~.rules.FourGodsState` (Planning legality B4G-5/B4G-11, Results Phase
costs and simultaneous attacks B4G-7/B4G-8, the stall drain B4G-14, eliminations, the winners
B4G-13/B4G-21 and the round cap X-5) on what those rules read: energy, who is alive, the round
and the stall count. It keeps no public history (the per-round reveals a seat's view shows),
so it serves playouts and learners, not views; a game's record is made by the scalar state.
``tests/test_four_gods_batch.py`` steps scalar states with the same codes and checks every
field after every round, in every variant.

Arrays (``size`` = B games, ``players`` = n seats):

* ``energy`` (B, n) int64 - ENERGY POINTS (<= 0 once eliminated);
* ``eliminated_round`` (B, n) int64 - the round a seat fell in, 0 while alive;
* ``round`` (B,), ``stall`` (B,) int64 - rounds completed, rounds without an energy change;
* ``done`` (B,) bool, ``winners`` (B, n) bool, ``truncated`` (B,) bool - the end (ties share).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from meeple.engine.errors import ArgumentError, IllegalActionError
from meeple.games.battle_of_the_four_gods.actions import DEFEND_SHIFT


class _Tables:
    """Per spec: each code's indicator mask and cost, and per (seat, alive mask, capped
    energy) the legal codes, padded, their count, and a (codes,) legality row."""

    def __init__(self, game: Any) -> None:
        n, table = game.players, game.action_table()
        index = {text: code for code, text in enumerate(table)}
        cap = game.constants[7]  # energy_cap
        self.legal = np.zeros((n, 1 << n, cap + 1, len(table)), dtype=bool)
        self.count = np.zeros((n, 1 << n, cap + 1), dtype=np.int64)
        self.mask = np.zeros(len(table), dtype=np.int64)
        self.cost = np.zeros(len(table), dtype=np.int64)
        rows: dict[tuple[int, int, int], list[int]] = {}
        for seat in range(n):
            for alive in range(1 << n):
                if not alive >> seat & 1:
                    continue
                for energy in range(cap + 1):
                    selections, _, _, _, costs = game.legal_table(seat, alive, energy)
                    codes = [index[str(sel)] for sel in selections]
                    for code, sel, cost in zip(codes, selections, costs, strict=True):
                        self.mask[code], self.cost[code] = sel.mask, cost
                    self.legal[seat, alive, energy, codes] = True
                    self.count[seat, alive, energy] = len(codes)
                    rows[seat, alive, energy] = codes
        width = max(len(c) for c in rows.values())
        self.codes = np.zeros((n, 1 << n, cap + 1, width), dtype=np.int64)
        for (seat, alive, energy), codes in rows.items():
            self.codes[seat, alive, energy, :len(codes)] = codes


class FourGodsBatch:
    """``size`` Four Gods games of ``game``'s spec, all at Game Setup (every seat at
    ``start_energy``), stepped together. See the module docstring for the arrays.

    Raises:
        ArgumentError: ``size`` is not an int >= 1.
    """

    def __init__(self, game: Any, size: int) -> None:
        if type(size) is not int or size < 1:
            raise ArgumentError(f"size must be an int >= 1; got {size!r}")
        tables = game._cache.get("batch_tables")
        if tables is None:
            tables = game._cache["batch_tables"] = _Tables(game)
        self.game, self.tables, self.size = game, tables, size
        n = self.players = game.players
        (_, _, self._damage, self._refund, self._stall_limit, self._stall_drain,
         self._max_rounds, self._cap) = game.constants
        self.energy = np.full((size, n), game.params["start_energy"], dtype=np.int64)
        self.eliminated_round = np.zeros((size, n), dtype=np.int64)
        self.round = np.zeros(size, dtype=np.int64)
        self.stall = np.zeros(size, dtype=np.int64)
        self.done = np.zeros(size, dtype=bool)
        self.winners = np.zeros((size, n), dtype=bool)
        self.truncated = np.zeros(size, dtype=bool)
        self._seats = np.arange(n)

    # ----------------------------------------------------------------- who acts, what is legal
    def acting(self) -> np.ndarray:
        """(B, n) bool: the seats that choose this round (alive seats of games not over)."""
        return (self.eliminated_round == 0) & ~self.done[:, None]

    def _keys(self) -> tuple[np.ndarray, np.ndarray]:
        alive = (self.eliminated_round == 0).astype(np.int64) << self._seats
        mask = alive.sum(axis=1)
        return mask, np.clip(self.energy, 0, self._cap)

    def legal_mask(self) -> np.ndarray:
        """(B, n, A) bool over the A codes of ``game.action_table()``: each seat's legal codes
        now (all False for a seat that does not act), the mask a learner reads."""
        mask, energy = self._keys()
        rows = self.tables.legal[self._seats, mask[:, None], energy]
        return rows & self.acting()[:, :, None]

    def random_codes(self, rng: np.random.Generator) -> np.ndarray:
        """(B, n) int64: a uniformly random legal code per acting seat (-1 elsewhere), drawn
        from ``rng``."""
        mask, energy = self._keys()
        count = self.tables.count[self._seats, mask[:, None], energy]
        pick = (rng.random(count.shape) * count).astype(np.int64)
        codes = self.tables.codes[self._seats, mask[:, None], energy, pick]
        return np.where(self.acting(), codes, -1)

    # ------------------------------------------------------------------------- one round
    def step(self, codes: np.ndarray) -> None:
        """Resolve one round of every game not over: ``codes[g, s]`` is seat ``s``'s selection
        in game ``g`` (read only for acting seats). Results Phase 1-3 (B4G-7: every effect
        from the pre-round energies, summed), the stall drain (B4G-14), eliminations and the
        end (B4G-13, B4G-21, X-5), as ``FourGodsState._apply`` and ``_end_round``.

        Raises:
            ArgumentError: ``codes`` is not an integer array of shape (B, n).
            IllegalActionError: an acting seat's code is not legal for it now (naming the
                first game and seat); nothing changes.
        """
        codes = np.asarray(codes)
        if codes.shape != (self.size, self.players) or codes.dtype.kind not in "iu":
            raise ArgumentError(f"codes must be an int array of shape {(self.size, self.players)}"
                                f"; got {codes.dtype} {codes.shape}")
        acting = self.acting()
        safe = np.where(acting, codes, 0)
        table_size = self.tables.mask.shape[0]
        inside = (safe >= 0) & (safe < table_size)
        mask, energy = self._keys()
        legal = self.tables.legal[self._seats, mask[:, None], energy, np.where(inside, safe, 0)]
        bad = acting & ~(inside & legal)
        if bad.any():
            g, s = (int(x) for x in np.argwhere(bad)[0])
            raise IllegalActionError(f"game {g}, seat {s} cannot play code {int(codes[g, s])} "
                                     "now (not among its legal codes)")
        self._resolve(acting, np.where(acting, self.tables.mask[safe], 0),
                      np.where(acting, self.tables.cost[safe], 0))

    def _resolve(self, acting: np.ndarray, picks: np.ndarray, cost: np.ndarray) -> None:
        n, live = self.players, ~self.done
        delta = -cost
        for s in range(n):  # attacks, all at once from the pre-round energies (B4G-7)
            guard = 1 << (DEFEND_SHIFT + s)
            for t in range(n):
                if t == s:
                    continue
                hit = acting[:, s] & (picks[:, s] >> t & 1).astype(bool)
                defended = (picks[:, t] & guard) != 0
                delta[:, t] += np.where(hit, np.where(defended, self._refund, -self._damage), 0)
        self.round += live
        changed = (delta != 0).any(axis=1)
        self.stall = np.where(live & changed, 0, self.stall + live)
        if self._stall_limit:  # B4G-14 drain, before eliminations
            drain = live & (self.stall > self._stall_limit)
            self.energy -= np.where(drain[:, None] & acting, self._stall_drain, 0)
        self.energy += np.where(acting, delta, 0)
        fallen = acting & (self.energy <= 0)
        self.eliminated_round = np.where(fallen, self.round[:, None], self.eliminated_round)
        self._end(acting, fallen, live)

    def _end(self, acting: np.ndarray, fallen: np.ndarray, live: np.ndarray) -> None:
        """Winners of the games that end this round (``FourGodsState._end_round``)."""
        alive = acting & ~fallen
        left = alive.sum(axis=1)
        low = np.iinfo(np.int64).min
        sole = live & (left == 1)
        wiped = live & (left == 0)
        capped = live & (left > 1) & (self.round >= self._max_rounds)
        pool = np.where(wiped[:, None], fallen, alive)  # best of the fallen, or of the alive
        best = np.where(pool, self.energy, low).max(axis=1)
        tied = pool & (self.energy == best[:, None])
        ends = sole | wiped | capped
        self.winners = np.where(ends[:, None], np.where(sole[:, None], alive, tied),
                                self.winners)
        self.truncated |= capped
        self.done |= ends

    def playout(self, rng: np.random.Generator) -> int:
        """Play uniformly random legal codes (:meth:`random_codes`) until every game is over;
        returns the number of rounds stepped (the longest game's)."""
        rounds = 0
        while not self.done.all():
            self.step(self.random_codes(rng))
            rounds += 1
        return rounds

    def returns(self) -> np.ndarray:
        """(B, n) float: win shares of the finished games (1/k to each of k tied winners, X-6;
        zeros while a game goes on)."""
        k = self.winners.sum(axis=1, keepdims=True)
        return np.where(self.winners, 1.0 / np.maximum(k, 1), 0.0)
