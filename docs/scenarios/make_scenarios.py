"""Write the scenario positions of docs/scenarios/ (run from the repository root:
``PYTHONPATH=src python docs/scenarios/make_scenarios.py``). Each file is ``State.to_json``
output: ``meeple playtest GAME --from FILE`` plays from it, ``Game.state_from_json`` loads it."""

from __future__ import annotations

import json
import random
from pathlib import Path

from meeple import load_game

HERE = Path(__file__).parent


def save(name: str, state) -> None:
    (HERE / f"{name}.json").write_text(json.dumps(state.to_json(), indent=1) + "\n")


def mid_game(name: str, game_name: str, seed: int, steps: int, **options) -> None:
    """A position reached by random play (as ``meeple replay --at N --save`` writes it)."""
    state = load_game(game_name, **options).new_initial_state(seed)
    state.playout(random.Random(seed), max_steps=steps)
    assert not state.is_terminal()
    save(name, state)


def main() -> None:
    dam = load_game("damocles", players=3)
    # The rule document's Reflex example: a One Number codex of Demeter (1,4), ONE-01, with
    # the circle showing Demeter (1,3); Reflex (REF-01) in hand lets it ignore the blank.
    save("damocles-reflex-example", dam.build_scenario(
        circle="DEMETER HADES DEMETER POSEIDON ARTEMIS NYX HADES",
        hands={0: ["REF-01", "ONE-01", "GEN-01", "COM-01", "TWO-01", "HAS-01"]},
        active=0, next_draws=["ORA-01", "THR-02"]))
    # The last cycle: scores close, seat 2 to play, an Oracle's draws fixed.
    save("damocles-last-cycle", dam.build_scenario(
        points=[18, 21, 19], active=2, turns_taken=27,
        hands={2: ["ORA-02", "ONE-05", "HAS-03", "REF-02"]}, next_draws=["THR-01", "GEN-05"]))
    mid_game("damocles-midgame", "damocles", seed=11, steps=40, players=4)
    gods = load_game("battle-of-the-four-gods")
    save("four-gods-three-left", gods.build_scenario(energy=[5, 2, 8, 0], round=5))
    save("four-gods-duel", gods.build_scenario(energy=[3, 0, 4, 0], round=9,
                                               eliminated={1: 4, 3: 7}))
    # The rule document's trade example: red tops three sectors and blue one, so trading a red
    # card (R8, in seat 0's hand) for a blue one (B3, in the market) scores 2 VP.
    save("ozymandias-market-trade-example", load_game("ozymandias-market", players=2)
         .build_scenario(map={"0,0": "R", "1,0": "B R", "0,1": "R", "1,-1": "B", "2,-1": ""},
                         hands={0: ["R8", "W2", "K4"], 1: ["W12", "K10", "B16"]},
                         market=["B3", "W5", "K7", "B9", "R11"], vp=[5, 3], round=4,
                         next_draws=["R1", "B6"]))
    mid_game("ozymandias-market-midgame", "ozymandias-market", seed=3, steps=30)
    # The rule document's Collapse example: seat 0's tapped G4 holds three gold cubes and a
    # red one, a harvest worker and a laid-down worker; its intake scores level 3 + 1 = 10 VP.
    save("ozymandias-campaign-collapse-example", load_game("ozymandias-campaign", players=3)
         .build_scenario(tiles=["GOLD-1", "RED-1"], standing={"GOLD-1:i1": 0, "RED-1:i2": 1},
                         colonies={"GOLD-1:c1": [1, 0]},
                         tableaus={0: [{"card": "G4", "cubes": "GGGR", "tapped": True,
                                        "harvest": True, "laid": True}, "B3"]},
                         hands={0: ["R5", "B2"]}, incoming={0: [0, 0, 0]}, vp=[6, 9, 4],
                         unrest={1: 2}, active=0, turns=12, next_draws=["G7", "R6", "B7"],
                         next_tiles=["BLUE-1"]))
    mid_game("ozymandias-campaign-midgame", "ozymandias-campaign", seed=3, steps=40)
    # The rule document's EXAMPLE TURN: Alice (seat 0) and Bob (seat 1) at the start of PLAN,
    # the Warehouse and the Graveyard holding the cards they flip, the Night card fixed.
    save("epoch-ellipse-example-turn", load_game("epoch-ellipse", players=2).build_scenario(
        hands=[["BULLET", "BULLET", "BASEBALL BAT", "ADAM NATHAN", "CRACKED RIB"],
               ["TINNED HAM", "TINNED HAM", "TINNED HAM", "BULLET", "FIRST AID"]],
        locations={"WAREHOUSE": ["WILD DOGS", "SHOULDER INJURY", "JUSTICE LIN", "TINNED HAM",
                                 "BULLET", "TINNED HAM"],
                   "GRAVEYARD": ["MUSTARD GAS ANGELS", "BROKEN FOOT", "RAIDERS", "PIPE BOMB"]},
        next_draws={"NIGHT": ["AND THEY TOOK MY STUFF, TOO"]}))
    mid_game("epoch-ellipse-midgame", "epoch-ellipse", seed=3, steps=40)


if __name__ == "__main__":
    main()
