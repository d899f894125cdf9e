"""The Ozymandias (campaign edition) heuristic bot: feeds its tableau, harvests, and picks
wars it can win. From its seat's view only (its hand; the public map, tableaus and cubes).

The scoring cycle it plays for (Collapse): a card enters the tableau by a colony; at the next
intake it is left empty and taps; a campaign puts a harvest worker on it (and a laid-down
worker, for the bonus level); at the following intake the incoming cubes are placed on it and
it collapses and scores. The left-most untapped card serves as a *bank* for cubes no scoring
card can use; a migration later moves the bank's cubes right, onto the tapped cards.

* **mode**: intake when the incoming cubes make a harvested tapped card score now (or when
  fresh empty cards wait to tap); campaign when a tapped card lacks its harvest worker or a free
  colony can take a new card; migration when unrest is high, the supply is empty but workers
  stand on the map, or the bank can feed a harvested tapped card;
* **intake**: places cubes by a plan that maximises this intake's collapse points (matching
  cubes up to rank - unrest, then any cubes up to the threshold), the rest on the bank or
  passed on;
* **campaign**: harvest, then lay down bag workers on untapped cards, then colonise free
  colonies (cards to the tableau), fight a colony war only with a strong card (doubled on the
  sector's suit), stand only to explore or to reach a free colony; then end;
* **war**: the strongest card for the sector; **explore**: a tile port at a colony.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meeple.engine.agent import Bot
from meeple.games.ozymandias_campaign.actions import Move
from meeple.games.ozymandias_campaign.board import SectorMap, view_map
from meeple.games.ozymandias_campaign.scoring import collapse_points, war_strength
from meeple.games.ozymandias_campaign.vocab import COLONY, SUITS

#: War strength (rank, doubled on the sector's suit) the bot wants before attacking a colony.
WAR_STRENGTH = 9
#: Largest tableau the bot grows by colonies (each card costs a worker until it collapses).
MAX_TABLEAU = 5


def _rows(player: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The view's tableau as rows with suit indexes and cube lists."""
    return [{"suit": SUITS.index(c["suit"]), "rank": c["rank"],
             "cubes": [c["cubes"][s] for s in SUITS], "tapped": c["tapped"],
             "laid": c["laid"], "harvest": c["harvest"]} for c in player["tableau"]]


def _card(name: str) -> tuple[int, int]:
    return "GRB".index(name[0]), int(name[1:])


class HeuristicBot(Bot):
    """Tableau feeder and harvester (module docstring)."""

    name = "heuristic"

    def __init__(self, game, seat: int, seed: int = 0) -> None:
        super().__init__(game, seat, seed)
        self._tiles = {t.id: t for t in game.tiles}

    # ------------------------------------------------------------------------ helpers
    def _map(self, view: Mapping[str, Any]) -> SectorMap:
        """The view's map, shared by every bot and determinization of this game spec
        (:func:`.board.view_map`)."""
        return view_map(self.game, view["map"])

    def _points(self, row: Mapping[str, Any], cubes: Sequence[int], unrest: int) -> int:
        p = self.game.params
        return collapse_points(row["suit"], row["rank"], cubes, unrest, row["harvest"],
                               row["laid"], p["threshold"], p["bonus_from_zero"])

    def _plan(self, rows: list[dict[str, Any]], incoming: Sequence[int], unrest: int
              ) -> tuple[int, list[tuple[int, int]]]:
        """This intake's best collapse: (points, [(suit, position), ...] cubes to place)."""
        avail = list(incoming)
        total, plan = 0, []
        order = sorted((i for i, r in enumerate(rows) if r["tapped"] and r["harvest"]),
                       key=lambda i: (-rows[i]["laid"], -rows[i]["rank"]))
        cap_rule = self.game.params["card_cap"] == "rank"
        for i in order:
            row = rows[i]
            cubes = list(row["cubes"])
            cap = max(0, row["rank"] - unrest)
            room = (row["rank"] - sum(cubes)) if cap_rule else 99
            placed: list[tuple[int, int]] = []
            want = max(0, min(cap, 5) - cubes[row["suit"]])
            take = min(want, avail[row["suit"]], room)
            placed += [(row["suit"], i)] * take
            cubes[row["suit"]] += take
            room -= take
            for s in sorted(range(3), key=lambda s: -avail[s]):  # fill the threshold
                if s == row["suit"]:
                    continue
                short = cap - sum(cubes)
                extra = min(max(0, short), avail[s], room)
                placed += [(s, i)] * extra
                cubes[s] += extra
                room -= extra
            before = self._points(row, row["cubes"], unrest)
            after = self._points(row, cubes, unrest)
            if after > before:
                for s, _ in placed:
                    avail[s] -= 1
                plan += placed
                total += after
            else:
                total += before
        return total, plan

    def _bank(self, rows: list[dict[str, Any]]) -> int | None:
        """The left-most untapped card, when some card to its right is tapped or will tap
        (untapped and empty): a migration can move the bank's cubes onto it."""
        for i, row in enumerate(rows):
            if not row["tapped"]:
                if any(r["tapped"] or not sum(r["cubes"]) for r in rows[i + 1:]):
                    return i
                return None
        return None

    # --------------------------------------------------------------------------- act
    def act(self, view: Mapping[str, Any], legal_actions: Sequence[Move]) -> Move:
        if len(legal_actions) == 1:
            return legal_actions[0]
        me = view["players"][self.seat]
        kinds = {m.kind for m in legal_actions}
        step = view["step"]
        if step == "mode":
            return self._by_kind(legal_actions, self._mode(view, me))
        if step == "war":
            suit = SUITS.index(view["war"]["sector_suit"])
            return max(legal_actions, key=lambda m: (war_strength(*m.args, suit), -m.args[1]))
        if step == "play":
            return max(legal_actions, key=lambda m: self._play_value(m, me))
        if step == "explore":
            tile = self._tiles[view["explore"]["tile"]]
            kind = dict(tile.points)
            ports = dict(tile.ports)
            return max(legal_actions, key=lambda m: kind[ports[m.args[1]]] == COLONY)
        if "cube" in kinds or step == "distribute":
            return self._distribute(legal_actions, me)
        if step == "migrate":
            return self._migrate(view, legal_actions, me)
        if step == "recover_colony":
            return self._recover_colony(view, legal_actions)
        if step == "recover_standing":
            for m in legal_actions:
                if m.kind == "recover" and m.args[0] != "card":
                    return m
            return self._by_kind(legal_actions, "done")
        return self._campaign(view, legal_actions, me)

    @staticmethod
    def _by_kind(moves: Sequence[Move], kind: str) -> Move:
        for m in moves:
            if m.kind == kind:
                return m
        return moves[-1]

    # ------------------------------------------------------------------------- modes
    def _mode(self, view: Mapping[str, Any], me: Mapping[str, Any]) -> str:
        rows = _rows(me)
        unrest = me["unrest"]
        incoming = [me["incoming"][s] for s in SUITS]
        points, _ = self._plan(rows, incoming, unrest)
        if points > 0:
            return "intake"
        standing = sum(1 for s in view["standing"].values() if s == self.seat)
        unharvested = [r for r in rows if r["tapped"] and not r["harvest"]
                       and r["rank"] - unrest > 0]
        if unharvested and me["supply"]:
            return "campaign"
        fresh = [r for r in rows if not r["tapped"] and not sum(r["cubes"])]
        bank = self._bank(rows)
        feedable = bank is not None and sum(rows[bank]["cubes"]) >= 2 and any(
            r["tapped"] and r["harvest"] for r in rows[bank + 1:])
        if feedable or (unrest >= 3 and any(sum(r["cubes"]) for r in rows)):
            return "migrate"
        waiting = [r for r in rows if r["tapped"] and r["harvest"]]  # harvested, no cubes yet
        grow = me["supply"] >= 2 and len(rows) < MAX_TABLEAU and me["hand_size"] and \
            self._free_colony_reachable(view)
        if fresh and not (waiting and grow):
            return "intake"  # the fresh cards tap, ready for harvest
        if not me["supply"] and standing:
            return "migrate"
        if grow:
            return "campaign"  # a colony brings a card and a cube for the waiting cards
        if any(r["tapped"] for r in rows) or sum(incoming):
            return "intake"
        return "campaign" if me["supply"] else "intake"

    def _free_colony_reachable(self, view: Mapping[str, Any]) -> bool:
        sector_map = self._map(view)
        stacks = view["stacks"]
        mine = [p for p, s in stacks.items() if self.seat in s]
        mine += [p for p, s in view["standing"].items() if s == self.seat]
        if not mine:
            return any(k == COLONY and p not in stacks for p, k in sector_map.kinds.items())
        adjacency, kinds = sector_map.adjacency, sector_map.kinds
        if any(kinds[q] == COLONY and q not in stacks for a in mine for q in adjacency[a]):
            return True
        explore = self.game.params["explore"] and view["tile_deck_size"]
        return any(kinds[q] != COLONY and q not in view["standing"] and (
            (explore and sector_map.ports_of(q))
            or any(kinds[r] == COLONY and r not in stacks for r in adjacency[q]))
            for a in mine if a in stacks for q in adjacency[a])

    # ----------------------------------------------------------------------- intake
    def _distribute(self, moves: Sequence[Move], me: Mapping[str, Any]) -> Move:
        rows = _rows(me)
        incoming = [me["incoming"][s] for s in SUITS]
        _, plan = self._plan(rows, incoming, me["unrest"])
        legal = set(moves)
        for suit, pos in plan:
            for m in moves:
                if m.kind == "cube" and m.args == (suit, pos) and m in legal:
                    return m
        bank = self._bank(rows)
        if bank is not None:
            for m in moves:
                if m.kind == "cube" and m.args[1] == bank:
                    return m
        return self._by_kind(moves, "pass")

    def _recover_colony(self, view: Mapping[str, Any], moves: Sequence[Move]) -> Move:
        stacks = view["stacks"]

        def value(m: Move) -> tuple[int, int]:
            if m.kind != "recover":
                return (-1, 0)
            stack = stacks[m.args[0]]
            return (stack[-1] != self.seat or stack.count(self.seat) > 1, -len(stack))
        return max(moves, key=value)

    # -------------------------------------------------------------------- migration
    def _migrate(self, view: Mapping[str, Any], moves: Sequence[Move],
                 me: Mapping[str, Any]) -> Move:
        rows = _rows(me)
        pos = view["migrating"]
        unrest = me["unrest"]
        if "keep" in {m.kind for m in moves}:  # free migration: keep a scoring card's cubes
            row = rows[pos]
            if row["tapped"] and row["harvest"] and self._points(row, row["cubes"], unrest):
                return self._by_kind(moves, "keep")

        def value(m: Move) -> float:
            if m.kind != "move":
                return -1.0
            suit, dest = m.args
            if dest == -1:
                return 2.0 if unrest else 0.5
            row = rows[dest]
            if row["tapped"] and row["harvest"]:
                cubes = list(row["cubes"])
                before = self._points(row, cubes, unrest)
                cubes[suit] += 1
                gain = self._points(row, cubes, unrest) - before
                need = max(0, row["rank"] - unrest) - sum(row["cubes"])
                return 3.0 + gain + (suit == row["suit"]) + (need > 0)
            return 1.0 if sum(row["cubes"]) else 0.2
        return max(moves, key=value)

    # --------------------------------------------------------------------- campaign
    def _campaign(self, view: Mapping[str, Any], moves: Sequence[Move],
                  me: Mapping[str, Any]) -> Move:
        rows = _rows(me)
        unrest = me["unrest"]
        by_kind: dict[str, list[Move]] = {}
        for m in moves:
            by_kind.setdefault(m.kind, []).append(m)
        harvest = [m for m in by_kind.get("harvest", ())
                   if rows[m.args[0]]["rank"] - unrest > 0]
        if harvest:
            return max(harvest, key=lambda m: rows[m.args[0]]["rank"])
        if by_kind.get("lay") and (me["bag"] or me["supply"] > 1):
            return max(by_kind["lay"], key=lambda m: (not sum(rows[m.args[0]]["cubes"]),
                                                      rows[m.args[0]]["rank"]))
        stacks = view["stacks"]
        hand = view.get("hand", [])
        grow = len(rows) < MAX_TABLEAU and hand and (me["supply"] >= 2 or not rows)
        if grow:
            free = [m for m in by_kind.get("colony", ()) if m.args[0] not in stacks]
            if free:
                return free[0]
            sector_map = self._map(view)
            best = max(((war_strength(*_card(c), sector_map.suits[m.args[0]]), m)
                        for c in hand for m in by_kind.get("colony", ())),
                       key=lambda pair: pair[0]) if (
                by_kind.get("colony") and len(hand) > 1 and unrest <= 1) else None
            if best is not None and best[0] >= WAR_STRENGTH:
                return best[1]
            stand = self._stand(view, by_kind.get("stand", ()), sector_map)
            if stand is not None:
                return stand
        return self._by_kind(moves, "end")

    def _stand(self, view: Mapping[str, Any], stands: Sequence[Move],
               sector_map: SectorMap) -> Move | None:
        """A free point that explores or reaches a free colony, or None."""
        if view["players"][self.seat]["supply"] < 2:
            return None
        stacks, standing = view["stacks"], view["standing"]
        for m in stands:
            point = m.args[0]
            if point in standing:
                continue
            if view["tile_deck_size"] and sector_map.ports_of(point) and \
                    self.game.params["explore"]:
                return m
            if any(sector_map.kinds[q] == COLONY and q not in stacks
                   for q in sector_map.adjacency[point]):
                return m
        return None

    def _play_value(self, m: Move, me: Mapping[str, Any]) -> float:
        suit, rank = m.args
        cap = rank - me["unrest"]
        return -abs(cap - 3) + 0.5 * me["incoming"][SUITS[suit]]
