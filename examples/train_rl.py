"""Train a masked PPO agent on a meeple game and save it as an ``rl:PATH`` bot.

Needs the extra ``meeple[rl]`` (sb3-contrib, PyTorch on the CPU). For example::

    python examples/train_rl.py battle-of-the-four-gods --steps 60000 --out runs/rl-b4g
    meeple playtest battle-of-the-four-gods --bots rl:runs/rl-b4g/model.zip,heuristic

It prints each evaluation point (win share against random and heuristic seats, with 95%
Wilson intervals) and leaves ``model.zip``, ``model.json``, ``curve.json`` and ``curve.png`` in
``--out`` (docs/adapters/gymnasium.md, "An agent that learns").
"""

from __future__ import annotations

import argparse
import json
from typing import Any


def _show(point: dict[str, Any]) -> None:
    shares = "  ".join(f"{r.get('policy', 'greedy')} vs {r['opponent']}: {r['share']:.3f} "
                       f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}]" for r in point["results"])
    print(f"{point['steps']:>8} steps  {point['seconds']:7.1f} s  {shares}", flush=True)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Parse the command line, train, print the curve and return its dict."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("game", help="a meeple game name, e.g. battle-of-the-four-gods")
    parser.add_argument("--variant", default=None, help="a named variant (None: the game's own)")
    parser.add_argument("--players", type=int, default=None,
                        help="seats (None: the game's default)")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="a rule parameter (repeatable)")
    parser.add_argument("--steps", type=int, default=60_000, help="training steps")
    parser.add_argument("--opponents", default="random",
                        help="comma-separated training opponents, one environment each "
                             "(e.g. random,heuristic)")
    parser.add_argument("--eval-every", type=int, default=10_000,
                        help="training steps between evaluation points")
    parser.add_argument("--eval-games", type=int, default=100,
                        help="games per evaluation opponent (and policy) at each point")
    parser.add_argument("--eval-opponents", default="random,heuristic",
                        help="comma-separated bots the policy is measured against")
    parser.add_argument("--eval-policies", default="greedy",
                        help="comma-separated: greedy (most probable code), sample (sampled)")
    parser.add_argument("--shaping", type=float, default=0.0,
                        help="weight of the potential-based reward shaping from the game's "
                             "evaluator (0: win share only)")
    parser.add_argument("--memory", type=float, default=0.0, metavar="DECAY",
                        help="follow each observation with its decaying trace (0: none)")
    parser.add_argument("--keep-best", default=None, metavar="OPPONENT",
                        help="save the point with the best share against OPPONENT as best.zip "
                             "and measure it again on fresh games")
    parser.add_argument("--imitate", type=int, default=0, metavar="GAMES",
                        help="imitation warm start: clone the teacher bot from GAMES "
                             "demonstration games before PPO (0: none; --steps 0: clone only)")
    parser.add_argument("--imitate-epochs", type=int, default=10, help="cloning epochs")
    parser.add_argument("--teacher", default="heuristic", help="the demonstrating bot")
    parser.add_argument("--imitate-target", default="ties", choices=("ties", "choice"),
                        help="clone any of the teacher's equally good codes (ties) or its "
                             "code (choice)")
    parser.add_argument("--imitate-fit", action="append", default=[], metavar="NAME=NUMBER",
                        help="a clone_policy setting: batch_size, learning_rate or value_weight, "
                             "e.g. batch_size=1024 (repeatable)")
    parser.add_argument("--actions", default="auto", choices=("auto", "compact", "full"),
                        help="the action codes: full table, step codes, or auto (step codes "
                             "for tables over 512 codes)")
    parser.add_argument("--ppo", action="append", default=[], metavar="NAME=NUMBER",
                        help="a MaskablePPO setting over PPO_DEFAULTS, e.g. learning_rate=1e-4 "
                             "(repeatable)")
    parser.add_argument("--net", default=None, metavar="UNITS,UNITS",
                        help="the policy and value networks' hidden layers, e.g. 128,128 "
                             "(None: sb3's 64,64)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seeds the policy, the environments and the evaluation games")
    parser.add_argument("--out", default="runs/rl", help="folder for the model and curve")
    args = parser.parse_args(argv)
    params = dict(item.split("=", 1) for item in args.param)

    def numbers(items: list[str]) -> dict[str, float | int]:
        return {k: float(v) if any(c in v for c in ".e") else int(v)
                for k, v in (item.split("=", 1) for item in items)}

    try:
        ppo, fit = numbers(args.ppo), numbers(args.imitate_fit)
        if args.net:
            ppo["policy_kwargs"] = {"net_arch": [int(units) for units in args.net.split(",")]}
    except ValueError as error:
        parser.error(f"--ppo, --imitate-fit and --net take numbers ({error})")

    from meeple.adapters.rl import train_maskable_ppo
    from meeple.engine.errors import ParameterError

    try:
        curve = train_maskable_ppo(
            args.game, variant=args.variant, players=args.players, params=params,
            opponents=args.opponents.split(","), steps=args.steps, seed=args.seed,
            eval_every=args.eval_every, eval_games=args.eval_games,
            eval_opponents=args.eval_opponents.split(","),
            eval_policies=args.eval_policies.split(","), actions=args.actions,
            shaping=args.shaping, memory=args.memory, keep_best=args.keep_best,
            imitate=args.imitate,
            imitate_epochs=args.imitate_epochs, teacher=args.teacher,
            imitate_target=args.imitate_target, imitate_fit=fit, ppo=ppo,
            out=args.out, on_point=_show)
    except ParameterError as error:
        parser.error(str(error))
    if curve["imitation"] is not None:
        im = curve["imitation"]
        held = {k: "-" if im[k] is None else f"{im[k]:.3f}"
                for k in ("agreement_before", "agreement_held_out", "tie_agreement_before",
                          "tie_agreement_held_out")}
        print(f"imitation: {im['decisions']} decisions of {im['teacher']} in {im['games']} "
              f"games, {im['epochs']} epochs, {im['seconds']:.1f} s; agreement at real "
              f"decisions of the held-out games: untrained {held['agreement_before']}, cloned "
              f"{held['agreement_held_out']} (cloned games: {im['agreement_train']:.3f}); "
              f"with any of its equally good codes (the teacher had several at "
              f"{im['tie_share']:.0%}): untrained {held['tie_agreement_before']}, cloned "
              f"{held['tie_agreement_held_out']}")
    for ref in curve["reference"]:
        print(f"reference {curve['reference_bot']} vs {ref['opponent']}: {ref['share']:.3f} "
              f"[{ref['ci_low']:.3f}, {ref['ci_high']:.3f}]")
    best = curve["best"]
    if best is not None:
        print(f"kept the model of {best['steps']} steps ({best['model']}); on fresh games:")
        for r in best["results"] + [{**ref, "policy": curve["reference_bot"]}
                                    for ref in best["reference"]]:
            print(f"  {r['policy']} vs {r['opponent']}: {r['share']:.3f} [{r['ci_low']:.3f}, "
                  f"{r['ci_high']:.3f}]")
    print(json.dumps({"steps": curve["steps"], "train_seconds": round(curve["train_seconds"], 1),
                      "eval_seconds": round(curve["eval_seconds"], 1),
                      "model": curve["model"]}))
    return curve


if __name__ == "__main__":
    main()
