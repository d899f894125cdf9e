"""Epoch Ellipse: the seed's EXAMPLE TURN (scenarios T-EPE-1..11), the rules of each phase and
the decisions EPE-n, results, hidden information and the action notation.

Scenario ids T-EPE-n and decision ids EPE-n refer to /work/shared/notes/rules-questions.md
section 5 (seed: seeds/epoch-ellipse.txt). Scenarios are built by moving the cards of a fresh
state between zones (never inventing them: every instance stays in exactly one zone, and the
catastrophe tokens are recounted from the event decks), then reading the state back through
``game.state_from_json``, so every scenario is a state the engine can save. Chance is forced
with :class:`Rigged`, a chance stream whose shuffles keep the order unless told to bring named
cards to the top, and whose random picks and die rolls can be dictated. Moves are typed in the
canonical notation and applied through the public API, so legality is always the engine's own,
and the property-test invariants (tests/test_epoch_ellipse_properties.py) are checked after
every scenario step.

Where the implementation decides differently from the notes, the test follows the
implementation and says so: catastrophes resolve in the order they were flipped (EPE-17 "the
player chooses the order" as built: flip order); PLAN allows one trade *offer* per pair a day,
so a declined offer also uses the pair's trade (EPE-7); the Night card is drawn by the first
player (EPE-11, EPE-32), Alice in the example rather than Bob, which does not change AND THEY
TOOK MY STUFF, TOO (it hits every player with a COMBAT card in the discard pile).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from meeple import load_game
from meeple.engine.errors import (
    ActionParseError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
)
from meeple.games.epoch_ellipse.cards import CATASTROPHE, NIGHT, SALVAGE, SURVIVOR
from tests.test_epoch_ellipse_properties import check_invariants

GAME = "epoch-ellipse"
ALICE, BOB, CARL = 0, 1, 2
GRAVEYARD, APARTMENT = 0, 1  # location positions (notation: 1 and 2)


# ------------------------------------------------------------------------------ helpers
def make(players: int = 2, variant: str | None = None, **params: Any):
    return load_game(GAME, variant=variant, players=players, **params)


class Rigged(random.Random):
    """The state's chance stream with forced outcomes.

    ``tops``: for each coming shuffle, card names brought to the top of the shuffled list,
    the first named drawn first (other cards keep their order); with nothing queued a shuffle
    keeps the order. ``picks``: answers of the coming ``randrange`` calls (random cards of
    night cards and curses), ints or callables. ``rolls``: answers of ``randint`` (the d6 of
    explore_count=d6).
    """

    def __init__(self, game) -> None:
        super().__init__(7)
        self.game = game
        self.tops: list[Sequence[str]] = []
        self.picks: list[Any] = []
        self.rolls: list[int] = []

    def shuffle(self, x) -> None:  # type: ignore[override]
        if not self.tops:
            return
        by_name, ctype = self.game.content.by_name, self.game.ctype
        chosen: list[int] = []
        for name in self.tops.pop(0):
            chosen.append(next(c for c in x if ctype[c] == by_name[name] and c not in chosen))
        x[:] = [c for c in x if c not in chosen] + chosen[::-1]

    def randrange(self, *args, **kwargs) -> int:  # type: ignore[override]
        if self.picks:
            pick = self.picks.pop(0)
            return pick() if callable(pick) else pick
        return super().randrange(*args, **kwargs)

    def randint(self, a: int, b: int) -> int:
        if self.rolls:
            return self.rolls.pop(0)
        return super().randint(a, b)


def scenario(game, *, seed: int = 0, build: Sequence[str] = (),
             hands: Mapping[int, Sequence[str]] | None = None,
             draws: Mapping[int, Sequence[str]] | None = None,
             discards: Mapping[int, Sequence[str]] | None = None,
             events: Mapping[int, Sequence[str]] | None = None,
             tops: Mapping[str, Sequence[str]] | None = None,
             next_locations: Sequence[str] = (),
             pool: Sequence[Sequence[str]] = (),
             ms: Mapping[int, str] | None = None, **fields: Any):
    """A state of ``game`` made from a fresh one by moving cards, saved and read back, with a
    :class:`Rigged` chance stream.

    ``build``: locations put into play after the Graveyard (position 0) and the Apartment
    Building (1), at positions 2, 3, ... . Every seat's hand, deck and discard pile is emptied,
    then ``hands`` / ``discards`` {seat: names} (in order) and ``draws`` {seat: names, the
    first drawn first} are dealt. ``events`` {position: names, the first flipped first}
    replace those event decks (the others keep theirs). ``tops`` {kind: names, first drawn
    first} go on top of the shared decks, ``next_locations`` on top of the Location deck.
    ``pool``: survivor piles (survivor first); ``ms`` {seat: name}: Mournful cards. Cards are
    taken from the emptied zones first, then from the shared decks, then from event decks not
    in ``events``; the cards left over go to the bottom of their shared decks. ``fields``
    set state fields (default: the PLAN of day 1, seat 0 first and to act).
    """
    state = game.new_initial_state(seed)
    content = game.content
    for name in build:
        index = next(i for i, loc in enumerate(content.locations) if loc.name == name)
        state.location_deck.remove(index)
        state.build_location(index)
    for name in reversed(next_locations):
        index = next(i for i, loc in enumerate(content.locations) if loc.name == name)
        state.location_deck.remove(index)
        state.location_deck.append(index)
    loose: list[int] = []
    for seat in range(game.players):
        for zone in (state.hands, state.draws, state.discards):
            loose += zone[seat]
            zone[seat] = []
    events = dict(events or {})
    for pos in events:
        loose += state.event_decks[pos]
        state.event_decks[pos] = []
    others = [d for pos, d in enumerate(state.event_decks) if pos not in events]

    def take(name: str) -> int:
        wanted = content.by_name[name]
        for source in [loose, *state.decks.values(), *others]:
            for i, card in enumerate(source):
                if game.ctype[card] == wanted:
                    return source.pop(i)
        raise AssertionError(f"no free copy of {name} left")

    for seat, names in (hands or {}).items():
        state.hands[seat] = [take(n) for n in names]
    for seat, names in (discards or {}).items():
        state.discards[seat] = [take(n) for n in names]
    for seat, names in (draws or {}).items():
        state.draws[seat] = [take(n) for n in names][::-1]
    for pos, names in events.items():
        state.event_decks[pos] = [take(n) for n in names][::-1]
    state.pool = [[take(n) for n in pile] for pile in pool]
    for seat, name in (ms or {}).items():
        state.ms_card[seat] = take(name)
    for kind, names in (tops or {}).items():
        state.decks[kind].extend(reversed([take(n) for n in names]))
    for card in loose:
        state.decks[state.card(card).kind].insert(0, card)
    state.tokens = [state.catastrophes_in(deck) for deck in state.event_decks]
    settings = {"phase": "plan", "step": "plan", "day": 1, "first": 0, "passes": 0,
                "traded": set(), **fields}
    settings.setdefault("turn", settings["first"])
    for name, value in settings.items():
        setattr(state, name, value)
    state = game.state_from_json(json.loads(json.dumps(state.to_json())))
    state._rng = Rigged(game)
    check_invariants(state)
    return state


def exploring(*order: int, **extra: Any) -> dict[str, Any]:
    """Fields for the EXPLORE phase: ``order[0]`` chooses, the others follow."""
    return {"phase": "explore", "step": "choose", "explorer": order[0], "turn": order[0],
            "explore_queue": list(order[1:]), **extra}


def hungry(*order: int, **extra: Any) -> dict[str, Any]:
    """Fields for the HUNGER phase, ``order`` still to eat."""
    return {"phase": "hunger", "step": "hunger", "hungry": list(order), "turn": order[0],
            **extra}


def act(state, seat: int, text: str) -> None:
    """``seat`` plays ``text`` through the public API, then every invariant is checked."""
    state.apply_action(state.game.parse_action(text, seat), seat=seat)
    check_invariants(state)


def texts(state, seat: int | None = None) -> list[str]:
    if seat is None:
        (seat,) = state.current_players()
    return [str(m) for m in state.legal_actions(seat)]


def names(state, cards: Sequence[int]) -> list[str]:
    return [state.name(c) for c in cards]


def hand(state, seat: int) -> list[str]:
    return sorted(names(state, state.hands[seat]))


def refused(state, seat: int, text: str, error=IllegalActionError) -> None:
    """``text`` is refused with ``error`` and leaves the state exactly as it was."""
    digest = state.digest()
    with pytest.raises(error):
        state.apply_action(state.game.parse_action(text, seat), seat=seat)
    assert state.digest() == digest


def night_names(state) -> list[str]:
    return names(state, state.night_discard)


# ------------------------------------------------------ the seed's EXAMPLE TURN (T-EPE-1..6)
WAREHOUSE = 2  # position of the Warehouse in the example (notation: 3)
WAREHOUSE_FLIP = ["WILD DOGS", "SHOULDER INJURY", "JUSTICE LIN", "TINNED HAM", "BULLET",
                  "TINNED HAM"]
GRAVEYARD_FLIP = ["MUSTARD GAS ANGELS", "BROKEN FOOT", "RAIDERS", "PIPE BOMB"]


def example(**params: Any):
    """T-EPE-1: Alice (seat 0) and Bob (seat 1) at the start of PLAN with the example's hands;
    the Warehouse (4 catastrophes, 5 salvage, 1 survivor) and the Graveyard hold the
    example's draws; the Night deck's top card is AND THEY TOOK MY STUFF, TOO."""
    game = make(2, **params)
    return scenario(
        game, build=["WAREHOUSE"],
        hands={ALICE: ["BULLET", "BULLET", "BASEBALL BAT", "ADAM NATHAN", "CRACKED RIB"],
               BOB: ["TINNED HAM", "TINNED HAM", "TINNED HAM", "BULLET", "FIRST AID"]},
        draws={ALICE: ["TINNED HAM", "TINNED HAM", "BULLET", "BULLET", "MILD INJURY"],
               BOB: ["TINNED HAM", "BULLET", "BULLET", "ROSA DELGADO", "MILD INJURY"]},
        events={GRAVEYARD: GRAVEYARD_FLIP,
                WAREHOUSE: WAREHOUSE_FLIP + ["CRACKED RIB", "DEEP GASH", "HARDTACK",
                                             "BANDAGES"]},
        tops={NIGHT: ["AND THEY TOOK MY STUFF, TOO", "ALL QUIET"]})


def example_plan(state) -> None:
    """T-EPE-2's moves."""
    act(state, ALICE, "trade 1 bullet tinned-ham")
    act(state, BOB, "accept")
    act(state, BOB, "pass")
    act(state, ALICE, "use adam-nathan discard")
    act(state, ALICE, "treat cracked-rib")
    act(state, ALICE, "pass")
    act(state, BOB, "pass")


def example_alice(state) -> None:
    """T-EPE-3's moves."""
    state.rng.tops.append(WAREHOUSE_FLIP)
    act(state, ALICE, "explore 3 6")
    act(state, ALICE, "use baseball-bat discard")
    act(state, ALICE, "suffer")
    for text in ("give bullet", "give x bullet", "give x tinned-ham", "done"):
        act(state, ALICE, text)


def example_bob(state) -> None:
    """T-EPE-4's moves."""
    state.rng.tops.append(GRAVEYARD_FLIP)
    act(state, BOB, "explore 1 4")
    act(state, BOB, "suffer")
    act(state, BOB, "use first-aid discard")
    act(state, BOB, "use bullet trash")
    act(state, BOB, "use bullet trash")


def test_t_epe_1_example_setup() -> None:
    state = example()
    assert hand(state, ALICE) == sorted(["BULLET", "BULLET", "BASEBALL BAT", "ADAM NATHAN",
                                         "CRACKED RIB"])
    assert hand(state, BOB) == sorted(["TINNED HAM"] * 3 + ["BULLET", "FIRST AID"])
    assert state.location_name(WAREHOUSE) == "WAREHOUSE"
    assert state.tokens[WAREHOUSE] == 4 and len(state.event_decks[WAREHOUSE]) == 10
    assert state.tokens[GRAVEYARD] == 3 and len(state.event_decks[GRAVEYARD]) == 4
    assert (state.phase, state.step, state.current_players()) == ("plan", "plan", (ALICE,))


def test_t_epe_2_plan_trade_and_treatment() -> None:
    state = example()
    assert "trade 1 bullet tinned-ham" in texts(state)
    act(state, ALICE, "trade 1 bullet tinned-ham")
    assert state.step == "answer" and state.current_players() == (BOB,)
    assert texts(state) == ["accept", "decline"]
    act(state, BOB, "accept")
    assert hand(state, ALICE) == sorted(["BULLET", "BASEBALL BAT", "ADAM NATHAN",
                                         "CRACKED RIB", "TINNED HAM"])
    # a second Alice-Bob trade is illegal, whoever offers it (EPE-7)
    assert state.current_players() == (BOB,)
    assert not [t for t in texts(state) if t.startswith("trade")]
    refused(state, BOB, "trade 0 tinned-ham bullet")
    act(state, BOB, "pass")
    assert not [t for t in texts(state, ALICE) if t.startswith("trade")]
    # Alice discards ADAM NATHAN (1 Medical, EPE-8) and trashes her CRACKED RIB
    tokens, cards = state.tokens[GRAVEYARD], len(state.event_decks[GRAVEYARD])
    act(state, ALICE, "use adam-nathan discard")
    assert state.step == "treat" and texts(state) == ["treat cracked-rib", "done"]
    act(state, ALICE, "treat cracked-rib")
    assert state.step == "plan" and state.current_players() == (ALICE,)
    assert names(state, state.event_decks[GRAVEYARD][-1:]) == ["CRACKED RIB"]
    assert state.tokens[GRAVEYARD] == tokens + 1
    assert len(state.event_decks[GRAVEYARD]) == cards + 1
    assert names(state, state.discards[ALICE]) == ["ADAM NATHAN"]
    # the expected hands match the seed
    assert hand(state, ALICE) == sorted(["TINNED HAM", "BULLET", "BASEBALL BAT"])
    assert hand(state, BOB) == sorted(["TINNED HAM", "TINNED HAM", "BULLET", "BULLET",
                                       "FIRST AID"])
    act(state, ALICE, "pass")
    act(state, BOB, "pass")
    assert (state.phase, state.step, state.current_players()) == ("explore", "choose",
                                                                  (ALICE,))


def test_t_epe_3_alice_explores_the_warehouse() -> None:
    state = example()
    example_plan(state)
    warehouse, graveyard = state.tokens[WAREHOUSE], state.tokens[GRAVEYARD]
    choices = texts(state)
    assert "explore 3 6" in choices and "explore 3 7" not in choices  # 1..6 (EPE-15)
    state.rng.tops.append(WAREHOUSE_FLIP)
    act(state, ALICE, "explore 3 6")
    # catastrophes first, in flip order; tokens leave with the flipped catastrophes (3C)
    assert state.step == "combat" and state.name(state.current) == "WILD DOGS"
    assert state.tokens[WAREHOUSE] == warehouse - 2
    assert names(state, state.expl_cats) == ["SHOULDER INJURY"]
    assert names(state, state.expl_survivors) == ["JUSTICE LIN"]
    assert names(state, state.expl_salvage) == ["TINNED HAM", "BULLET", "TINNED HAM"]
    assert sorted(texts(state)) == ["suffer", "use baseball-bat discard", "use bullet trash"]
    act(state, ALICE, "use baseball-bat discard")  # 1 Weapon: that does it
    assert names(state, state.event_decks[GRAVEYARD][-1:]) == ["WILD DOGS"]  # trashed
    assert state.tokens[GRAVEYARD] == graveyard + 1
    # she can't deal with the COLLAPSE
    assert state.step == "collapse" and state.name(state.current) == "SHOULDER INJURY"
    assert texts(state) == ["suffer"]
    act(state, ALICE, "suffer")
    assert names(state, state.discards[ALICE]) == ["ADAM NATHAN", "BASEBALL BAT",
                                                   "SHOULDER INJURY"]
    assert state.catastrophes_in(state.discards[ALICE]) == 1
    # she rescues JUSTICE LIN, giving from her hand and from the exploration (3D; EPE-22)
    assert state.step == "rescue" and names(state, state.rescue) == ["JUSTICE LIN"]
    assert sorted(texts(state)) == ["done", "give bullet", "give tinned-ham", "give x bullet",
                                    "give x tinned-ham"]
    for text in ("give bullet", "give x bullet", "give x tinned-ham", "done"):
        act(state, ALICE, text)
    assert len(state.pool) == 1
    pile = names(state, state.pool[0])
    assert pile[0] == "JUSTICE LIN" and sorted(pile[1:]) == ["BULLET", "BULLET", "TINNED HAM"]
    # corrected expectation (EPE-48): she keeps the last TINNED HAM only
    assert hand(state, ALICE) == ["TINNED HAM", "TINNED HAM"]
    assert state.tokens[WAREHOUSE] == warehouse - 2
    assert len(state.event_decks[WAREHOUSE]) == 4
    assert state.current_players() == (BOB,) and state.step == "choose"


def test_t_epe_4_bob_explores_the_graveyard() -> None:
    state = example()
    example_plan(state)
    example_alice(state)
    graveyard = state.tokens[GRAVEYARD]
    bullets = [c for c in state.hands[BOB] if state.name(c) == "BULLET"]
    assert graveyard == 5 and len(bullets) == 2  # 3 + CRACKED RIB + WILD DOGS
    state.rng.tops.append(GRAVEYARD_FLIP)
    act(state, BOB, "explore 1 4")
    assert state.step == "combat" and state.name(state.current) == "MUSTARD GAS ANGELS"
    assert state.tokens[GRAVEYARD] == graveyard - 3
    act(state, BOB, "suffer")  # 2 Weapon cannot beat difficulty 3
    assert names(state, state.discards[BOB]) == ["MUSTARD GAS ANGELS"]
    assert state.step == "collapse" and state.name(state.current) == "BROKEN FOOT"
    assert "use first-aid discard" in texts(state)  # Avoid 1 COLLAPSE
    assert "use first-aid trash" not in texts(state)  # Trash 1 Catastrophe is for PLAN
    act(state, BOB, "use first-aid discard")
    assert names(state, state.event_decks[GRAVEYARD][-1:]) == ["BROKEN FOOT"]  # trashed
    assert state.step == "combat" and state.name(state.current) == "RAIDERS"
    act(state, BOB, "use bullet trash")
    assert state.step == "combat" and state.paid == 1  # payments accumulate
    act(state, BOB, "use bullet trash")
    assert names(state, state.event_decks[GRAVEYARD][-1:]) == ["RAIDERS"]
    assert hand(state, BOB) == sorted(["TINNED HAM", "TINNED HAM", "PIPE BOMB"])
    assert names(state, state.discards[BOB]) == ["MUSTARD GAS ANGELS", "FIRST AID"]
    assert state.tokens[GRAVEYARD] == graveyard - 1  # -3 drawn, +2 trashed back
    assert set(bullets) <= set(state.event_decks[GRAVEYARD])
    assert (state.phase, state.current_players()) == ("hunger", (ALICE,))


def test_t_epe_5_and_6_hunger_and_night() -> None:
    """T-EPE-5 and T-EPE-6, with a day cap of 1 so the state after REST can be read."""
    state = example(max_days=1)
    example_plan(state)
    example_alice(state)
    example_bob(state)
    graveyard = len(state.event_decks[GRAVEYARD])
    assert sorted(texts(state)) == ["eat tinned-ham trash", "starve"]
    act(state, ALICE, "eat tinned-ham trash")
    assert hand(state, ALICE) == ["TINNED HAM"]
    assert len(state.event_decks[GRAVEYARD]) == graveyard + 1
    assert hand(state, BOB) == sorted(["TINNED HAM", "TINNED HAM", "PIPE BOMB"])
    alice_cards = set(state.hands[ALICE] + state.draws[ALICE] + state.discards[ALICE])
    bob_hams = [c for c in state.hands[BOB] if state.name(c) == "TINNED HAM"]
    bomb = next(c for c in state.hands[BOB] if state.name(c) == "PIPE BOMB")
    bob_cards = set(state.hands[BOB] + state.draws[BOB] + state.discards[BOB])
    # the random pick of AND THEY TOOK MY STUFF, TOO is forced to Bob's TINNED HAM
    state.rng.picks.append(lambda: names(state, state.hands[BOB]).index("TINNED HAM"))
    act(state, BOB, "eat tinned-ham trash")  # HUNGER, then REST runs by itself
    assert any("AND THEY TOOK MY STUFF, TOO" in e[2] for e in state.events)
    # both HAMs of Bob went to the Graveyard: one eaten, one taken at night; Alice (only a
    # COLLAPSE in her discard pile) lost nothing
    top = state.event_decks[GRAVEYARD][-2:]
    assert sorted(top) == sorted(bob_hams)
    assert len(state.event_decks[GRAVEYARD]) == graveyard + 3
    assert any(e[1] == BOB and "loses TINNED HAM" in e[2] for e in state.events)
    assert not any(e[1] == ALICE and "loses" in e[2] for e in state.events)
    # hands discarded, no deaths (counts 1 and 1), decks reshuffled with the discard piles
    assert state.status == ["alive", "alive"]
    assert state.hands == [[], []] and state.discards == [[], []]
    assert set(state.draws[ALICE]) == alice_cards
    assert set(state.draws[BOB]) == bob_cards - set(bob_hams) and bomb in state.draws[BOB]
    # the day cap of 1 ends the game after REST (EPE-46): truncated, a loss
    assert state.is_terminal() and state.is_truncated()
    assert state.outcome() == {"team_win": False, "cause": "truncation", "recovered_vp": 0,
                               "survivors": 2}
    assert state.returns() == (0.0, 0.0)


def test_t_epe_6_next_day() -> None:
    state = example()
    example_plan(state)
    example_alice(state)
    example_bob(state)
    act(state, ALICE, "eat tinned-ham trash")
    act(state, BOB, "eat tinned-ham trash")
    assert (state.day, state.phase, state.first) == (2, "plan", BOB)  # EPE-11
    assert state.current_players() == (BOB,) and state.traded == set()
    assert [len(h) for h in state.hands] == [5, 5]
    assert night_names(state) == ["AND THEY TOOK MY STUFF, TOO"]


# ---------------------------------------------------------- T-EPE-7: a NEW LOCATION (3A)
def new_location_state():
    game = make(2)
    return scenario(game, hands={ALICE: ["BULLET", "TINNED HAM"], BOB: ["TINNED HAM"]},
                    next_locations=["MALL"],
                    tops={CATASTROPHE: ["WILD DOGS", "RAIDERS", "CRACKED RIB", "BROKEN FOOT",
                                        "DEEP GASH", "CONCUSSION", "SMOKE LUNG"],
                          SALVAGE: ["HARDTACK", "BANDAGES", "BULLET", "SACK OF RICE"],
                          SURVIVOR: ["LITTLE PIP"]},
                    **exploring(ALICE, BOB))


def test_t_epe_7_new_location_resolves_exactly_one_card() -> None:
    state = new_location_state()
    assert "new" in texts(state)
    state.rng.tops.append(["WILD DOGS"])
    act(state, ALICE, "new")
    mall = len(state.locations) - 1
    assert state.location_name(mall) == "MALL" and len(state.location_deck) == 9
    # 7 + 4 + 1 cards, the top one drawn and resolved at once
    assert len(state.event_decks[mall]) == 11
    assert state.step == "combat" and state.name(state.current) == "WILD DOGS"
    assert state.tokens[mall] == 6 == state.catastrophes_in(state.event_decks[mall])
    assert not (state.expl_cats or state.expl_survivors or state.expl_salvage)
    act(state, ALICE, "use bullet trash")
    assert state.tokens[mall] == 6 and len(state.event_decks[mall]) == 11
    assert hand(state, ALICE) == ["TINNED HAM"]
    # EPE-13: Bob may explore the new location as an explored one
    assert state.current_players() == (BOB,)
    assert {f"explore {mall + 1} {k}" for k in range(1, 7)} <= set(texts(state))


@pytest.mark.parametrize("top", ["BANDAGES", "LITTLE PIP"])
def test_new_location_salvage_or_survivor_on_top(top) -> None:
    state = new_location_state()
    state.rng.tops.append([top])
    act(state, ALICE, "new")
    mall = len(state.locations) - 1
    assert state.tokens[mall] == 7 and len(state.event_decks[mall]) == 11
    if top == "BANDAGES":  # 3E: to the hand
        assert hand(state, ALICE) == ["BANDAGES", "BULLET", "TINNED HAM"]
        assert state.current_players() == (BOB,)
    else:  # 3D: a survivor to rescue
        assert state.step == "rescue" and names(state, state.rescue) == ["LITTLE PIP"]
        act(state, ALICE, "done")
        assert [names(state, p) for p in state.pool] == [["LITTLE PIP"]]


# ------------------------------------------------- T-EPE-8 / T-EPE-9: deaths and replacement
def death_day():
    """Round 3 of the seed's DEATH example: each of Alice, Bob and Carl has two catastrophes
    in the discard pile; two survivor piles wait in the pool."""
    game = make(3)
    return scenario(
        game, build=["WAREHOUSE"], day=3,
        hands={ALICE: ["TINNED HAM", "HARDTACK"], BOB: ["BULLET"],
               CARL: ["TINNED HAM", "CRACKED RIB"]},
        draws={ALICE: ["BULLET", "BULLET"], BOB: ["TINNED HAM"],
               CARL: ["BULLET", "MILD INJURY"]},
        discards={ALICE: ["CRACKED RIB", "DEEP GASH"], BOB: ["BROKEN FOOT", "WILD DOGS"],
                  CARL: ["SHOULDER INJURY", "SCAVENGERS"]},
        events={WAREHOUSE: ["RAIDERS", "BANDAGES", "HARDTACK", "LITTLE PIP", "TINNED HAM",
                            "CONCUSSION"]},
        pool=[["ROSA DELGADO", "TINNED HAM"], ["GIDEON PRICE", "BULLET", "HARDTACK"]],
        tops={CATASTROPHE: ["SMOKE LUNG"], NIGHT: ["ALL QUIET", "A QUIET FIRE"],
              SALVAGE: ["BANDAGES", "SAWED-OFF SHOTGUN", "CROSSBOW", "LOYAL MUTT",
                        "FIRST AID", "ANTIBIOTICS", "SCOUT"]},
        **exploring(ALICE, BOB, CARL))


def test_t_epe_8_and_9_death_order_and_replacement() -> None:
    state = death_day()
    graveyard = len(state.event_decks[GRAVEYARD])
    tokens = state.tokens[GRAVEYARD]
    # Round 3: Alice dies exploring (a lost COMBAT is her third catastrophe)
    state.rng.tops.append(["RAIDERS"])
    act(state, ALICE, "explore 3 1")
    assert texts(state) == ["suffer"]
    act(state, ALICE, "suffer")
    assert state.status[ALICE] == "dead" and state.queue == [ALICE]
    assert state.death_cause[ALICE] == "combat"
    # hand, deck and discard pile went onto the Graveyard, with their tokens (EPE-37)
    assert len(state.event_decks[GRAVEYARD]) == graveyard + 7
    assert state.tokens[GRAVEYARD] == tokens + 3
    assert state.current_players() == (BOB,)
    state.rng.tops.append(["BANDAGES"])
    act(state, BOB, "explore 3 1")
    state.rng.tops.append(["HARDTACK"])
    act(state, CARL, "explore 3 1")
    # HUNGER: Bob has no food and starves to death (the top Catastrophe card)
    assert state.phase == "hunger" and state.current_players() == (BOB,)
    assert texts(state) == ["starve"]
    act(state, BOB, "starve")
    assert state.status[BOB] == "dead" and state.death_cause[BOB] == "starvation"
    assert state.queue == [ALICE, BOB]
    # Carl eats; at REST his CRACKED RIB is discarded with his hand and kills him before the
    # shuffle (T-EPE-9): hand, deck and discard pile all go to the Graveyard, with tokens
    carl = state.hands[CARL] + state.draws[CARL] + state.discards[CARL]
    assert state.catastrophes_in(carl) == 4 and len(carl) == 7
    tokens = state.tokens[GRAVEYARD]
    act(state, CARL, "eat tinned-ham trash")
    assert state.status[CARL] == "dead" and state.death_cause[CARL] == "collapse"
    assert set(carl) <= set(state.event_decks[GRAVEYARD])  # the eaten HAM included
    assert state.tokens[GRAVEYARD] == tokens + 4
    # Round 4 WAKE UP: the queue in death order; Alice picks first
    assert (state.day, state.step, state.queue) == (4, "pick", [ALICE, BOB, CARL])
    assert state.current_players() == (ALICE,) and texts(state) == ["pick 1", "pick 2"]
    gideon = list(state.pool[1])
    act(state, ALICE, "pick 2")
    alice = state.draws[ALICE] + state.hands[ALICE]
    assert set(gideon) <= set(alice) and len(alice) == len(gideon) + 2
    assert sorted(names(state, [c for c in alice if c not in gideon])) == [
        "BANDAGES", "SAWED-OFF SHOTGUN"]  # + 2 cards from the Salvage deck (EPE-38)
    assert state.status[ALICE] == "alive" and state.current_players() == (BOB,)
    act(state, BOB, "pick 1")
    bob = state.draws[BOB] + state.hands[BOB]
    assert sorted(names(state, bob)) == sorted(["ROSA DELGADO", "TINNED HAM", "CROSSBOW",
                                                "LOYAL MUTT"])
    # that's all the survivors that are left: Carl gets nothing and is a Mournful Sacrifice
    assert state.status[CARL] == "mournful" and state.queue == [CARL]
    assert state.name(state.ms_card[CARL]) == "FIRST AID"
    assert (state.phase, state.first, state.current_players()) == ("plan", BOB, (BOB,))
    assert [len(h) for h in state.hands] == [5, 4, 0]
    # Round 4: Bob finds a survivor; Carl never acts
    act(state, BOB, "pass")
    act(state, ALICE, "pass")
    assert state.phase == "explore"
    state.rng.tops.append(["LITTLE PIP"])
    act(state, BOB, "explore 3 1")
    assert state.step == "rescue"
    act(state, BOB, "done")
    assert [names(state, p) for p in state.pool] == [["LITTLE PIP"]]
    state.rng.tops.append(["CONCUSSION"])
    act(state, ALICE, "explore 3 1")
    act(state, ALICE, "use bandages trash")
    for seat in (BOB, ALICE):
        assert state.current_players() == (seat,)
        eat = [t for t in texts(state, seat) if t.startswith("eat")]
        act(state, seat, eat[0])
    # REST: Carl's Mournful card is trashed; Round 5 WAKE UP: Carl gets the new survivor
    assert state.ms_card[CARL] is None
    assert (state.day, state.step, state.current_players()) == (5, "pick", (CARL,))
    act(state, CARL, "pick 1")
    assert state.status == ["alive"] * 3 and state.queue == []
    carl = state.draws[CARL] + state.hands[CARL]
    assert sorted(names(state, carl)) == ["ANTIBIOTICS", "LITTLE PIP", "SCOUT"]
    assert len(state.hands[CARL]) == 3  # a short deck draws what is there (EPE-5)


def test_death_at_rest_takes_the_rest_of_the_hand() -> None:
    """Regression: a death during the REST hand discard sends the cards after the deadly
    one to the Graveyard too (they were lost before the fix)."""
    game = make(2)
    state = scenario(game, hands={ALICE: ["TINNED HAM", "CRACKED RIB", "BULLET", "HARDTACK"],
                                  BOB: ["TINNED HAM"]},
                     discards={ALICE: ["WILD DOGS", "DEEP GASH"]},
                     draws={ALICE: ["BULLET"]}, tops={NIGHT: ["ALL QUIET"]},
                     **hungry(ALICE, BOB))
    cards = state.hands[ALICE] + state.draws[ALICE] + state.discards[ALICE]
    act(state, ALICE, "eat tinned-ham trash")
    act(state, BOB, "eat tinned-ham trash")
    assert state.status[ALICE] == "mournful"  # dead, no pile: a Mournful Sacrifice today
    assert set(cards) <= set(state.event_decks[GRAVEYARD])


def test_death_mid_exploration_returns_the_rest() -> None:
    game = make(2)
    state = scenario(game, build=["WAREHOUSE"], hands={ALICE: ["TINNED HAM"]},
                     discards={ALICE: ["CRACKED RIB", "WILD DOGS"]},
                     events={WAREHOUSE: ["RAIDERS", "BROKEN FOOT", "LITTLE PIP", "TINNED HAM",
                                         "DEEP GASH"]},
                     **exploring(ALICE, BOB))
    state.rng.tops.append(["RAIDERS", "BROKEN FOOT", "LITTLE PIP", "TINNED HAM"])
    act(state, ALICE, "explore 3 4")
    assert state.tokens[WAREHOUSE] == 1
    act(state, ALICE, "suffer")
    assert state.status[ALICE] == "dead"
    # the rest of the exploration is back on the Warehouse, its tokens too (EPE-36)
    assert sorted(names(state, state.event_decks[WAREHOUSE])) == [
        "BROKEN FOOT", "DEEP GASH", "LITTLE PIP", "TINNED HAM"]
    assert state.tokens[WAREHOUSE] == 2
    assert state.pool == [] and state.current_players() == (BOB,)


# --------------------------------------------------------- T-EPE-10: a Graveyard survivor
@pytest.mark.parametrize("dead_survivor", ["back", "removed"])
def test_t_epe_10_survivor_found_in_the_graveyard(dead_survivor) -> None:
    game = make(2, dead_survivor=dead_survivor)
    state = scenario(game, hands={ALICE: ["TINNED HAM"]},
                     events={GRAVEYARD: ["LITTLE PIP", "BULLET"]},
                     tops={CATASTROPHE: ["WILD DOGS"]}, **exploring(ALICE, BOB))
    catastrophes = len(state.decks[CATASTROPHE])
    state.rng.tops.append(["LITTLE PIP"])
    act(state, ALICE, "explore 1 1")
    # dead: not in the pool; the top Catastrophe card is drawn and resolved (EPE-23)
    assert state.pool == [] and state.step == "combat"
    assert state.name(state.current) == "WILD DOGS"
    assert len(state.decks[CATASTROPHE]) == catastrophes - 1
    if dead_survivor == "back":
        assert names(state, state.event_decks[GRAVEYARD]) == ["BULLET", "LITTLE PIP"]
        assert state.removed == []
    else:
        assert names(state, state.event_decks[GRAVEYARD]) == ["BULLET"]
        assert names(state, state.removed) == ["LITTLE PIP"]
    assert state.tokens[GRAVEYARD] == 0
    act(state, ALICE, "suffer")
    assert names(state, state.discards[ALICE]) == ["WILD DOGS"]


# ------------------------------------------------------------------- T-EPE-11: the win
def win_state(**params: Any):
    """Carl is a Mournful Sacrifice; 7 VP are Recovered and the SUBWAY TUNNELS (3 VP) hold a
    last catastrophe."""
    game = make(3, **params)
    return scenario(
        game, build=["WAREHOUSE", "MALL", "EMPTY SKYSCRAPER", "HOSPITAL", "SUBWAY TUNNELS"],
        hands={ALICE: ["TINNED HAM"], BOB: ["TINNED HAM"]},
        events={APARTMENT: ["TINNED HAM"], 2: ["BULLET"], 3: ["HARDTACK"], 4: ["BANDAGES"],
                5: ["SACK OF RICE"], 6: ["WAR RIG", "TINNED HAM", "BULLET"]},
        status=["alive", "alive", "mournful"], queue=[CARL], ms={CARL: "BULLET"},
        **exploring(ALICE, BOB))


def test_t_epe_11_win_mid_exploration() -> None:
    state = win_state()
    assert state.recovered_vp() == 7
    state.rng.tops.append(["WAR RIG", "TINNED HAM"])
    act(state, ALICE, "explore 7 2")
    # the last token left with the flip: 10 VP Recovered at once, the game ends at once
    assert state.is_terminal() and state.phase == "over" and state.current is None
    assert names(state, state.expl_cats) == ["WAR RIG"]  # never fought
    assert state.returns() == (1.0, 1.0, 0.0)  # the Mournful Sacrifice loses (EPE-28)
    assert state.winners() == (ALICE, BOB)
    assert state.outcome() == {"team_win": True, "cause": "recovered", "recovered_vp": 10,
                               "survivors": 2}
    assert state.scores() == (10.0,) * 3
    refused(state, ALICE, "suffer", GameOverError)


def test_win_by_a_charm_and_lower_target() -> None:
    """The win is checked after every token change, e.g. a SIGNAL FLARE in PLAN (3F)."""
    game = make(2, target_vp=2)
    state = scenario(game, build=["WAREHOUSE"], hands={ALICE: ["SIGNAL FLARE"]},
                     events={APARTMENT: ["HARDTACK"], WAREHOUSE: ["RAIDERS", "BULLET"]})
    assert "charm signal-flare" in texts(state)
    act(state, ALICE, "charm signal-flare")
    assert state.is_terminal() and state.outcome()["team_win"]
    assert names(state, state.event_decks[GRAVEYARD]) == ["RAIDERS"]
    assert state.returns() == (1.0, 1.0)


# ----------------------------------------------------------------------------- setup
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_setup(players) -> None:
    game = make(players)
    assert (load_game(GAME).players, game.min_players, game.max_players) == (3, 1, 5)
    state = game.new_initial_state(11)
    check_invariants(state)
    for seat in range(players):
        cards = state.hands[seat] + state.draws[seat]
        assert len(state.hands[seat]) == 5 and len(cards) == 10 and not state.discards[seat]
        kinds = sorted(names(state, [c for c in cards if state.card(c).kind != SURVIVOR]))
        assert kinds == ["BULLET"] * 4 + ["MILD INJURY"] + ["TINNED HAM"] * 4
        assert sum(1 for c in cards if state.card(c).kind == SURVIVOR) == 1
        assert set(game.starters[seat]) <= set(cards)  # the separate starter supply (EPE-2)
    assert [state.location_name(p) for p in range(2)] == ["GRAVEYARD", "APARTMENT BUILDING"]
    assert state.event_decks[GRAVEYARD] == [] and state.tokens[GRAVEYARD] == 0
    apartment = state.event_decks[APARTMENT]
    assert len(apartment) == 8 and state.tokens[APARTMENT] == 3
    assert state.catastrophes_in(apartment) == 3
    assert len(state.location_deck) == 10 and state.recovered_vp() == 0
    sizes = {kind: len(deck) for kind, deck in state.decks.items()}
    assert sizes == {SALVAGE: 56, SURVIVOR: 13 - players, CATASTROPHE: 77, NIGHT: 12}
    assert (state.day, state.phase, state.step, state.first) == (1, "plan", "plan", 0)
    assert state.current_players() == (0,) and state.status == ["alive"] * players
    assert state.pool == [] and state.queue == [] and state.outcome() == {}
    assert game.new_initial_state(11).digest() == state.digest()
    assert game.new_initial_state(12).digest() != state.digest()


# ------------------------------------------------------------------------------ plan
TRADE_HANDS = {ALICE: ["BULLET", "ADAM NATHAN", "CRACKED RIB", "TINNED HAM"],
               BOB: ["TINNED HAM", "FIRST AID", "MILD INJURY", "GIDEON PRICE"],
               CARL: ["BANDAGES", "BULLET"]}


def trade_state(hands=TRADE_HANDS, **fields: Any):
    return scenario(make(3), hands=hands, **fields)


def test_trades_are_one_for_one_salvage_once_a_pair() -> None:
    state = trade_state()
    offers = sorted(t for t in texts(state) if t.startswith("trade"))
    assert offers == sorted([
        "trade 1 bullet tinned-ham", "trade 1 bullet first-aid", "trade 1 tinned-ham first-aid",
        "trade 2 bullet bandages", "trade 2 tinned-ham bandages", "trade 2 tinned-ham bullet"])
    # survivors and catastrophes are never traded; nor a card not held; nor with oneself
    for text in ("trade 1 adam-nathan tinned-ham", "trade 1 cracked-rib tinned-ham",
                 "trade 1 bullet mild-injury", "trade 1 bullet gideon-price",
                 "trade 1 bandages first-aid", "trade 0 bullet tinned-ham",
                 "trade 2 bullet bullet"):
        refused(state, ALICE, text)
    act(state, ALICE, "trade 1 bullet first-aid")
    refused(state, ALICE, "pass", NotYourTurnError)
    act(state, BOB, "decline")
    assert hand(state, ALICE) == sorted(["BULLET", "ADAM NATHAN", "CRACKED RIB",
                                         "TINNED HAM"])
    # the declined offer used the pair's trade for today (implementation: one offer a pair)
    assert state.current_players() == (BOB,)
    assert sorted(t for t in texts(state) if t.startswith("trade")) == [
        "trade 2 first-aid bandages", "trade 2 first-aid bullet",
        "trade 2 tinned-ham bandages", "trade 2 tinned-ham bullet"]
    act(state, BOB, "pass")
    act(state, CARL, "trade 0 bandages tinned-ham")
    assert state.current_players() == (ALICE,)
    act(state, ALICE, "accept")
    assert hand(state, ALICE) == sorted(["BULLET", "ADAM NATHAN", "CRACKED RIB", "BANDAGES"])
    assert hand(state, CARL) == ["BULLET", "TINNED HAM"]
    assert not [t for t in texts(state) if t.startswith("trade")]  # Alice traded with both


def test_no_trades_with_seats_without_a_survivor() -> None:
    state = trade_state(status=["alive", "alive", "mournful"], queue=[CARL],
                        hands={ALICE: ["BULLET"], BOB: ["TINNED HAM"]})
    assert [t for t in texts(state) if t.startswith("trade")] == ["trade 1 bullet tinned-ham"]


def test_medical_treatment_in_plan() -> None:
    game = make(2)
    state = scenario(game, hands={ALICE: ["FIRST AID", "ANTIBIOTICS", "CRACKED RIB",
                                          "BROKEN FOOT", "ADAM NATHAN"], BOB: ["BULLET"]})
    uses = sorted(t for t in texts(state) if t.startswith("use"))
    # FIRST AID's discard mode only avoids a COLLAPSE: not a treatment (EPE-9)
    assert uses == ["use adam-nathan discard", "use antibiotics trash", "use first-aid trash"]
    refused(state, ALICE, "use first-aid discard")
    refused(state, ALICE, "treat cracked-rib")  # first pay
    graveyard, tokens = len(state.event_decks[GRAVEYARD]), state.tokens[GRAVEYARD]
    act(state, ALICE, "use antibiotics trash")  # 2 Medical: 2 catastrophes
    assert state.step == "treat" and state.credits == 2
    act(state, ALICE, "treat cracked-rib")
    assert state.step == "treat"
    act(state, ALICE, "treat broken-foot")
    assert state.step == "plan" and state.credits == 0
    assert hand(state, ALICE) == ["ADAM NATHAN", "FIRST AID"]
    assert len(state.event_decks[GRAVEYARD]) == graveyard + 3
    assert state.tokens[GRAVEYARD] == tokens + 2
    assert not [t for t in texts(state) if t.startswith("use")]  # nothing left to treat


def test_treatment_can_stop_early_and_strict_bars_survivors() -> None:
    game = make(2)
    hands = {ALICE: ["ANTIBIOTICS", "CRACKED RIB", "BROKEN FOOT", "ADAM NATHAN"],
             BOB: ["BULLET"]}
    state = scenario(game, hands=hands)
    act(state, ALICE, "use antibiotics trash")
    act(state, ALICE, "treat broken-foot")
    act(state, ALICE, "done")
    assert state.step == "plan" and state.credits == 0
    assert hand(state, ALICE) == ["ADAM NATHAN", "CRACKED RIB"]
    strict = scenario(make(2, variant="strict"), hands=hands)
    assert "use adam-nathan discard" not in texts(strict)  # medical_salvage_only (EPE-8)
    assert "use antibiotics trash" in texts(strict)


def test_a_charm_resolves_then_is_discarded() -> None:
    game = make(2)
    state = scenario(game, hands={ALICE: ["LUCKY COIN"], BOB: ["BULLET"]},
                     discards={ALICE: ["CRACKED RIB", "HARDTACK"]})
    act(state, ALICE, "charm lucky-coin")
    assert names(state, state.discards[ALICE]) == ["HARDTACK", "LUCKY COIN"]
    assert names(state, state.event_decks[GRAVEYARD]) == ["CRACKED RIB"]


# --------------------------------------------------------------------------- explore
def explore_state(events: Sequence[str], hands: Sequence[str] = ("TINNED HAM",),
                  players: int = 2, variant: str | None = None,
                  params: Mapping[str, Any] | None = None, **fields: Any):
    """Alice explores first (then Bob, ...); the Warehouse (position 2, notation 3) holds
    ``events``, the first flipped first (the shuffle keeps the order unless rigged)."""
    game = make(players, variant, **(params or {}))
    return scenario(game, build=["WAREHOUSE"], hands={ALICE: list(hands), BOB: ["TINNED HAM"]},
                    events={WAREHOUSE: list(events)}, **fields, **exploring(*range(players)))


def test_explore_count_is_a_choice_of_1_to_6() -> None:
    state = explore_state(["BULLET"] * 8)
    choices = texts(state)
    assert [t for t in choices if t.startswith("explore 3")] == [
        f"explore 3 {k}" for k in range(1, 7)]
    assert "new" in choices
    assert not [t for t in choices if t.startswith("explore 1")]  # an empty Graveyard
    state = explore_state(["BULLET"] * 8, params={"explore_max": 8})
    assert "explore 3 8" in texts(state)
    state = explore_state(["BULLET", "BULLET"])  # fewer cards than 6: up to the deck size
    assert [t for t in texts(state) if t.startswith("explore 3")] == ["explore 3 1",
                                                                      "explore 3 2"]


def test_explore_count_d6_draws_at_most_the_deck() -> None:
    state = explore_state(["BULLET", "HARDTACK"], variant="d6")
    assert [t for t in texts(state) if t.startswith("explore 3")] == ["explore 3 roll"]
    state.rng.rolls.append(5)
    act(state, ALICE, "explore 3 roll")
    assert hand(state, ALICE) == ["BULLET", "HARDTACK", "TINNED HAM"]
    assert state.event_decks[WAREHOUSE] == []
    assert not [t for t in texts(state) if t.startswith("explore 3")]  # empty (EPE-42)


def test_skip_when_nothing_can_be_explored() -> None:
    game = make(2)
    state = scenario(game, events={APARTMENT: []}, hands={ALICE: ["TINNED HAM"]},
                     location_deck=[], **exploring(ALICE, BOB))
    assert texts(state) == ["skip"]
    act(state, ALICE, "skip")
    assert state.current_players() == (BOB,)


def test_recovered_locations_and_strict() -> None:
    state = scenario(make(2, variant="strict"), events={GRAVEYARD: ["BULLET"]},
                     **exploring(ALICE, BOB))
    assert not [t for t in texts(state) if t.startswith("explore 1")]  # EPE-41
    state = scenario(make(2), events={GRAVEYARD: ["BULLET"]}, **exploring(ALICE, BOB))
    assert "explore 1 1" in texts(state)


def test_combat_payments_accumulate_and_a_win_is_trashed() -> None:
    state = explore_state(["RAIDERS", "WAR RIG"], hands=["BULLET", "BASEBALL BAT",
                                                         "FIRST AID", "TINNED HAM"])
    state.rng.tops.append(["RAIDERS"])
    act(state, ALICE, "explore 3 1")
    # only weapons pay a COMBAT
    assert sorted(texts(state)) == ["suffer", "use baseball-bat discard", "use bullet trash"]
    act(state, ALICE, "use bullet trash")
    assert state.step == "combat" and state.paid == 1
    assert state.view(ALICE)["exploration"]["paid"] == 1
    assert names(state, state.event_decks[GRAVEYARD]) == ["BULLET"]
    act(state, ALICE, "use baseball-bat discard")
    assert names(state, state.event_decks[GRAVEYARD]) == ["BULLET", "RAIDERS"]
    assert state.tokens[GRAVEYARD] == 1 and state.tokens[WAREHOUSE] == 1
    assert names(state, state.discards[ALICE]) == ["BASEBALL BAT"]
    assert state.current_players() == (BOB,)


def test_overpaying_and_mournful_cards_pay_for_others() -> None:
    state = explore_state(["RAIDERS", "WILD DOGS"], hands=["PIPE BOMB"], players=3,
                          status=["alive", "alive", "mournful"], queue=[CARL],
                          ms={CARL: "BASEBALL BAT"})
    state.rng.tops.append(["WILD DOGS", "RAIDERS"])
    act(state, ALICE, "explore 3 2")
    assert "use ms 2 discard" in texts(state) and state.current_players() == (ALICE,)
    act(state, ALICE, "use pipe-bomb trash")  # 3 Weapon against difficulty 1
    assert state.name(state.current) == "RAIDERS"
    act(state, ALICE, "use ms 2 discard")  # Carl's card, on Alice's behalf (EPE-6)
    assert state.ms_card[CARL] is None and state.paid == 1
    assert names(state, state.discards[ALICE]) == ["BASEBALL BAT"]
    act(state, ALICE, "suffer")
    assert names(state, state.discards[ALICE]) == ["BASEBALL BAT", "RAIDERS"]


@pytest.mark.parametrize("payment", ["use first-aid discard", "use bandages trash"])
def test_collapse_avoided_by_medical_is_trashed(payment) -> None:
    state = explore_state(["CRACKED RIB"], hands=["FIRST AID", "BANDAGES", "BULLET"])
    act(state, ALICE, "explore 3 1")
    assert state.step == "collapse"
    assert sorted(texts(state)) == ["suffer", "use bandages trash", "use first-aid discard"]
    act(state, ALICE, payment)
    assert state.name(state.event_decks[GRAVEYARD][-1]) == "CRACKED RIB"
    assert state.tokens[GRAVEYARD] == 1 and state.tokens[WAREHOUSE] == 0
    assert state.catastrophes_in(state.discards[ALICE]) == 0


def test_suffering_goes_to_the_discard_pile() -> None:
    state = explore_state(["CRACKED RIB"], hands=["BULLET"])
    act(state, ALICE, "explore 3 1")
    act(state, ALICE, "suffer")
    assert names(state, state.discards[ALICE]) == ["CRACKED RIB"]
    assert state.tokens[WAREHOUSE] == 0 and state.tokens[GRAVEYARD] == 0


def test_death_at_three_catastrophes() -> None:
    state = explore_state(["RAIDERS"], hands=["TINNED HAM", "DEEP GASH"],
                          draws={ALICE: ["BULLET", "HARDTACK"]},
                          discards={ALICE: ["CRACKED RIB", "WILD DOGS"]})
    act(state, ALICE, "explore 3 1")
    act(state, ALICE, "suffer")
    assert state.status[ALICE] == "dead" and state.queue == [ALICE]
    assert state.hands[ALICE] == state.draws[ALICE] == state.discards[ALICE] == []
    assert len(state.event_decks[GRAVEYARD]) == 7
    assert state.tokens[GRAVEYARD] == 4  # RIB, DOGS, RAIDERS, GASH
    assert state.is_eliminated(ALICE) and not state.is_terminal()


def test_stabilization_during_ones_own_exploration() -> None:
    state = explore_state(["CRACKED RIB"], hands=["BANDAGES", "TINNED HAM"],
                          discards={ALICE: ["WILD DOGS", "HARDTACK"]})
    assert "stabilize bandages trash" in texts(state)
    act(state, ALICE, "stabilize bandages trash")
    assert names(state, state.discards[ALICE]) == ["HARDTACK"]
    assert names(state, state.draws[ALICE]) == ["WILD DOGS"]
    assert state.current_players() == (ALICE,) and state.step == "choose"


def test_justice_lin_redraws() -> None:
    state = explore_state(["RAIDERS", "WILD DOGS", "HARDTACK", "BULLET"],
                          hands=["JUSTICE LIN", "TINNED HAM"])
    state.rng.tops.append(["RAIDERS", "WILD DOGS"])
    act(state, ALICE, "explore 3 2")
    assert state.step == "flip" and state.tokens[WAREHOUSE] == 0
    assert sorted(texts(state)) == ["redraw justice-lin", "resolve"]
    state.rng.tops.append(["HARDTACK", "BULLET"])
    act(state, ALICE, "redraw justice-lin")
    assert state.tokens[WAREHOUSE] == 2  # the catastrophes went back with their tokens
    assert hand(state, ALICE) == ["BULLET", "HARDTACK", "TINNED HAM"]
    assert names(state, state.discards[ALICE]) == ["JUSTICE LIN"]


# --------------------------------------------------------------------------- curses
def test_curse_effect_then_discard() -> None:
    state = explore_state(["BUTTERFINGERS"], hands=["TINNED HAM", "BULLET"])
    state.rng.picks.append(1)  # the BULLET
    act(state, ALICE, "explore 3 1")
    assert names(state, state.discards[ALICE]) == ["BULLET", "BUTTERFINGERS"]
    assert hand(state, ALICE) == ["TINNED HAM"] and state.current_players() == (BOB,)
    assert state.tokens[WAREHOUSE] == 0


def test_curse_after_trash() -> None:
    state = explore_state(["PICKPOCKET"], hands=["TINNED HAM", "BULLET"], variant="forgiving")
    assert state.game.params["curse_after"] == "trash"
    state.rng.picks.append(0)
    act(state, ALICE, "explore 3 1")
    assert names(state, state.event_decks[GRAVEYARD]) == ["TINNED HAM", "PICKPOCKET"]
    assert state.tokens[GRAVEYARD] == 1 and state.discards[ALICE] == []


def test_a_deadly_curse() -> None:
    state = explore_state(["BAD WATER", "BULLET"], hands=["TINNED HAM"],
                          discards={ALICE: ["CRACKED RIB", "DEEP GASH"]})
    state.rng.tops.append(["BAD WATER", "BULLET"])
    act(state, ALICE, "explore 3 2")
    assert state.status[ALICE] == "dead" and state.death_cause[ALICE] == "curse"
    assert names(state, state.event_decks[WAREHOUSE]) == ["BULLET"]  # returned (EPE-36)
    assert state.current_players() == (BOB,)


# --------------------------------------------------------------------------- rescue
def test_rescue_gifts_are_salvage_only() -> None:
    state = explore_state(["LITTLE PIP", "CRACKED RIB", "HARDTACK"],
                          hands=["BULLET", "ADAM NATHAN", "DEEP GASH"])
    state.rng.tops.append(["LITTLE PIP", "HARDTACK"])
    act(state, ALICE, "explore 3 2")
    assert sorted(texts(state)) == ["done", "give bullet", "give x hardtack"]
    refused(state, ALICE, "give adam-nathan")
    refused(state, ALICE, "give deep-gash")
    refused(state, ALICE, "give x little-pip")
    act(state, ALICE, "give x hardtack")
    assert texts(state) == ["give bullet", "done"]
    act(state, ALICE, "done")
    assert [names(state, p) for p in state.pool] == [["LITTLE PIP", "HARDTACK"]]
    assert state.view(BOB)["pool"] == [["LITTLE PIP", "HARDTACK"]]  # public (EPE-22)


def test_rescue_with_nothing_to_give_sets_the_survivor_aside() -> None:
    state = explore_state(["LITTLE PIP"], hands=["CRACKED RIB"])
    act(state, ALICE, "explore 3 1")
    assert [names(state, p) for p in state.pool] == [["LITTLE PIP"]]
    assert state.current_players() == (BOB,)


def test_hand_limit_returns_to_the_location() -> None:
    state = explore_state(["SACK OF RICE", "BANDAGES", "RAIDERS"],
                          hands=["TINNED HAM", "TINNED HAM", "BULLET", "CRACKED RIB",
                                 "HARDTACK"])
    state.rng.tops.append(["SACK OF RICE", "BANDAGES"])
    act(state, ALICE, "explore 3 2")
    assert state.step == "limit" and len(state.hands[ALICE]) == 7
    assert sorted(texts(state)) == ["return bandages", "return bullet", "return cracked-rib",
                                    "return hardtack", "return sack-of-rice",
                                    "return tinned-ham"]
    act(state, ALICE, "return cracked-rib")  # any card; a catastrophe brings its token
    assert state.tokens[WAREHOUSE] == 2 and state.step == "limit"
    act(state, ALICE, "return tinned-ham")
    assert len(state.hands[ALICE]) == 5 and state.current_players() == (BOB,)
    assert names(state, state.event_decks[WAREHOUSE]) == ["RAIDERS", "CRACKED RIB",
                                                          "TINNED HAM"]


# ---------------------------------------------------------------------------- hunger
def test_hunger_eat_or_starve() -> None:
    game = make(3)
    state = scenario(game, hands={ALICE: ["TINNED HAM", "HARDTACK", "GIDEON PRICE", "BULLET"],
                                  BOB: ["BULLET"], CARL: []},
                     tops={CATASTROPHE: ["CONCUSSION"], NIGHT: ["ALL QUIET"]},
                     status=["alive", "alive", "mournful"], queue=[CARL],
                     ms={CARL: "SACK OF RICE"}, **hungry(ALICE, BOB))
    assert sorted(texts(state)) == ["eat gideon-price discard", "eat hardtack discard",
                                    "eat ms 2 trash", "eat tinned-ham trash", "starve"]
    act(state, ALICE, "eat hardtack discard")
    assert names(state, state.discards[ALICE]) == ["HARDTACK"]
    assert texts(state) == ["eat ms 2 trash", "starve"]
    act(state, BOB, "starve")  # the top Catastrophe card into his discard pile
    assert any(e[1] == BOB and e[2] == "goes hungry: CONCUSSION" for e in state.events)
    assert "CONCUSSION" in names(state, state.hands[BOB] + state.draws[BOB])
    assert state.day == 2


def test_hunger_ms_food_and_an_empty_catastrophe_deck() -> None:
    game = make(3, variant="strict")
    state = scenario(game, hands={ALICE: ["GIDEON PRICE"], BOB: ["BULLET"]},
                     tops={NIGHT: ["ALL QUIET"]}, status=["alive", "alive", "mournful"],
                     queue=[CARL], ms={CARL: "TINNED HAM"}, **hungry(ALICE, BOB))
    assert texts(state) == ["eat ms 2 trash", "starve"]  # strict: survivors don't feed
    act(state, ALICE, "eat ms 2 trash")
    assert state.ms_card[CARL] is None
    state.event_decks[GRAVEYARD] += state.decks[CATASTROPHE]
    state.tokens[GRAVEYARD] = state.catastrophes_in(state.event_decks[GRAVEYARD])
    state.decks[CATASTROPHE] = []
    state._legal = None
    check_invariants(state)
    act(state, BOB, "starve")  # nothing to take (EPE-31)
    assert state.status[BOB] == "alive" and state.day == 2


# ------------------------------------------------------------------------------ rest
def test_rest() -> None:
    game = make(3)
    state = scenario(game,
                     hands={ALICE: ["TINNED HAM", "BULLET", "SHOULDER INJURY"],
                            BOB: ["TINNED HAM", "BULLET"]},
                     draws={ALICE: ["HARDTACK"], BOB: ["BULLET"] * 2},
                     discards={ALICE: ["CRACKED RIB", "DEEP GASH"], BOB: ["HARDTACK"]},
                     tops={NIGHT: ["COLD SNAP"], CATASTROPHE: ["BROKEN FOOT"],
                           SALVAGE: ["BANDAGES", "SCOUT"]},
                     status=["alive", "alive", "mournful"], queue=[CARL],
                     ms={CARL: "FIRST AID"}, first=BOB, **hungry(BOB, ALICE))
    ms = state.ms_card[CARL]
    alice = set(state.hands[ALICE] + state.draws[ALICE] + state.discards[ALICE])
    act(state, BOB, "eat tinned-ham trash")
    act(state, ALICE, "eat tinned-ham trash")
    # the first player drew COLD SNAP (the top Catastrophe card to the reader's discard)
    assert night_names(state) == ["COLD SNAP"]
    # Alice died when her SHOULDER INJURY was discarded, before any shuffle: her whole deck
    # went to the Graveyard
    assert alice <= set(state.event_decks[GRAVEYARD])
    assert state.status[ALICE] == "mournful" and state.death_cause[ALICE] == "collapse"
    assert state.queue == [CARL, ALICE]
    # Bob reshuffled: his deck holds his BROKEN FOOT; he drew 5 of the 5 cards
    assert hand(state, BOB) == sorted(["BULLET", "BULLET", "BULLET", "HARDTACK",
                                       "BROKEN FOOT"])
    # Carl's leftover Mournful card was trashed; he is still waiting and a Mournful
    # Sacrifice again today, as is Alice (no pile in the pool)
    assert ms in state.event_decks[GRAVEYARD]
    assert [c if c is None else state.name(c) for c in state.ms_card] == [
        "SCOUT", None, "BANDAGES"]  # drawn in death order: Carl, then Alice
    assert (state.day, state.first, state.current_players()) == (2, CARL, (BOB,))


# ---------------------------------------------------------------------- results and ends
def test_a_win_at_night_ends_the_day_at_once() -> None:
    """Regression: DAWN PATROL recovers the last location needed; the game ends before the
    hands are discarded, so Alice, whose CRACKED RIB would be her third catastrophe, wins
    alive (it killed her after the win before the fix, and she got 0)."""
    game = make(2, target_vp=1)
    state = scenario(game, hands={ALICE: ["TINNED HAM", "CRACKED RIB"], BOB: ["TINNED HAM"]},
                     discards={ALICE: ["WILD DOGS", "DEEP GASH"]},
                     events={APARTMENT: ["RAIDERS", "HARDTACK"]},
                     tops={NIGHT: ["DAWN PATROL"]}, **hungry(ALICE, BOB))
    act(state, ALICE, "eat tinned-ham trash")
    act(state, BOB, "eat tinned-ham trash")
    assert state.is_terminal() and state.result == "won" and state.day == 1
    assert names(state, state.event_decks[GRAVEYARD])[-1] == "RAIDERS"
    assert state.status == ["alive", "alive"] and state.returns() == (1.0, 1.0)
    assert state.outcome() == {"team_win": True, "cause": "recovered", "recovered_vp": 1,
                               "survivors": 2}


def test_loss_when_nobody_is_alive_at_wake() -> None:
    game = make(1)
    state = scenario(game, hands={ALICE: ["BULLET"]}, discards={ALICE: ["CRACKED RIB",
                                                                        "WILD DOGS"]},
                     tops={CATASTROPHE: ["DEEP GASH"], NIGHT: ["ALL QUIET"]},
                     **hungry(ALICE))
    assert texts(state) == ["starve"]
    act(state, ALICE, "starve")
    # dead in HUNGER; the pool is empty, so nobody is alive at the next WAKE UP (EPE-29)
    assert state.is_terminal() and state.result == "lost" and state.day == 2
    assert state.outcome() == {"team_win": False, "cause": "starvation", "recovered_vp": 0,
                               "survivors": 0}
    assert state.returns() == (0.0,) and state.winners() == ()
    refused(state, ALICE, "pass", GameOverError)


def test_a_survivor_pile_prevents_the_loss() -> None:
    game = make(1)
    state = scenario(game, hands={ALICE: ["BULLET"]}, discards={ALICE: ["CRACKED RIB",
                                                                        "WILD DOGS"]},
                     tops={CATASTROPHE: ["DEEP GASH"], NIGHT: ["ALL QUIET"]},
                     pool=[["LITTLE PIP", "TINNED HAM"]], **hungry(ALICE))
    act(state, ALICE, "starve")
    assert not state.is_terminal() and state.step == "pick" and texts(state) == ["pick 1"]
    act(state, ALICE, "pick 1")
    assert state.status == ["alive"] and len(state.hands[ALICE]) == 4


def test_truncation_at_max_days() -> None:
    game = make(3, max_days=1)
    state = game.new_initial_state(5)
    state.playout(random.Random(5))
    check_invariants(state)
    assert state.is_terminal() and state.is_truncated() and state.length() == 1
    assert state.outcome()["team_win"] is False and state.outcome()["cause"] == "truncation"
    assert state.returns() == (0.0,) * 3
    assert game.capabilities.max_length == 1 and game.capabilities.cooperative


def test_outcome_is_empty_mid_game() -> None:
    state = make(3).new_initial_state(0)
    assert state.outcome() == {} and state.returns() == (0.0,) * 3
    assert not state.is_truncated() and state.winners() == ()


# -------------------------------------------------------------------- illegal actions
def test_illegal_actions_leave_the_state_unchanged() -> None:
    state = trade_state()
    for text in ("explore 2 3", "new", "suffer", "accept", "decline", "treat cracked-rib",
                 "starve", "eat tinned-ham trash", "pick 1", "done", "resolve", "skip",
                 "give bullet", "return bullet", "use bullet trash", "charm lucky-coin",
                 "stabilize bandages trash", "redraw justice-lin", "use ms 2 trash"):
        refused(state, ALICE, text)
    refused(state, BOB, "pass", NotYourTurnError)
    bob_pass = state.game.parse_action("pass", BOB)
    digest = state.digest()
    with pytest.raises(IllegalActionError):  # another seat's action
        state.apply_action(bob_pass, seat=ALICE)
    assert state.digest() == digest
    for text in ("fly away", "explore 0 1", "explore 2", "pick 0", "use bullet burn",
                 "trade x bullet tinned-ham", "give y bullet", "use no-such-card trash", "",
                 "use ms x trash", "treat"):
        with pytest.raises(ActionParseError):
            state.game.parse_action(text, ALICE)
    with pytest.raises(ActionParseError):
        state.game.parse_action("pass", 3)
    assert state.digest() == digest


# ---------------------------------------------------------------------------- views
def test_views_show_hands_but_not_deck_orders() -> None:
    state = example()
    spectator = state.view(None)
    for seat in (None, ALICE, BOB):
        view = state.view(seat)
        # hands and discard piles are public (EPE-4): every view is the spectator's
        assert {k: v for k, v in view.items() if k != "seat"} == {
            k: v for k, v in spectator.items() if k != "seat"}
        assert [p["hand"] for p in view["players"]] == [names(state, h) for h in state.hands]
        assert [p["deck"] for p in view["players"]] == [len(d) for d in state.draws]
    shuffled = state.clone()
    for deck in shuffled.draws + shuffled.event_decks + list(shuffled.decks.values()):
        deck.reverse()
    shuffled.location_deck.reverse()
    assert shuffled.digest() != state.digest()
    for seat in (None, ALICE, BOB):  # deck and event-deck orders are hidden
        assert shuffled.view(seat) == state.view(seat)
    json.dumps(spectator)


# ----------------------------------------------------------------------- notation
@pytest.mark.parametrize("variant,players,seed", [(None, 3, 1), ("d6", 2, 2),
                                                  ("strict", 4, 3), ("forgiving", 5, 4),
                                                  ("hard", 1, 5), (None, 2, 6)])
def test_notation_round_trip(variant, players, seed) -> None:
    game = make(players, variant, stabilize_window="anytime" if seed % 2 else "explore")
    rng = random.Random(seed)
    seen: set[str] = set()
    for game_seed in range(3):
        state = game.new_initial_state(seed * 10 + game_seed)
        while not state.is_terminal():
            (seat,) = state.current_players()
            moves = state.legal_actions(seat)
            assert len({str(m) for m in moves}) == len(moves)
            for move in moves:
                text = str(move)
                again = game.parse_action(text, seat)
                assert again == move and str(again) == text
                seen.add(move.kind)
            state.apply_action(rng.choice(moves), seat=seat)
    assert {"pass", "new", "explore", "suffer"} <= seen


def test_an_unreachable_target_is_refused_when_the_game_is_made() -> None:
    """3F / EPE-27: the Recovered VP can never exceed the VP of all locations (21 in the
    reference file), so a higher target is refused with the total named."""
    from meeple.engine.errors import ParameterError

    load_game("epoch-ellipse", target_vp=21)
    with pytest.raises(ParameterError, match="target_vp = 22 cannot be reached: the locations "
                       "are worth 21 VP in all"):
        load_game("epoch-ellipse", target_vp=22)
