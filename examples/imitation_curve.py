"""How close a cloned policy comes to its teacher as the demonstrations grow: the imitation
learning curve of docs/adapters/gymnasium.md ("More demonstrations").

Needs the extra ``meeple[rl]``. For each number of demonstration games it clones the teacher
(``train_maskable_ppo(..., steps=0, imitate=GAMES)``: no PPO step) and measures the cloned
policy, greedy, on two sets of ``--eval-games`` games against each evaluation opponent (the
trainer's per-point games and its fresh games); the teacher is measured in the same seats on
the same games. Shares are pooled over both sets, with 95% Wilson intervals. For example::

    python examples/imitation_curve.py ozymandias-market --players 2 \\
        --games 500,1000,2000,4000,8000 --out runs/imitation

It leaves one trainer folder per size (``GAMES/model.zip`` is an ``rl:`` bot), ``curve.json``
and ``curve.png`` in ``--out``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any


def pooled(parts: list[dict[str, Any]]) -> dict[str, float]:
    """Win shares of several ``win_share`` results against one opponent, pooled: ``{"games",
    "share", "ci_low", "ci_high"}`` (Wilson, 95%)."""
    from meeple.lab.analysis.stats import wilson

    games = sum(p["games"] for p in parts)
    wins = sum(p["share"] * p["games"] for p in parts)
    low, high = wilson(wins, games)
    return {"games": games, "share": wins / games, "ci_low": low, "ci_high": high}


def summary(curve: dict[str, Any], opponent: str) -> dict[str, Any]:
    """The cloned policy's and the reference bot's pooled shares against ``opponent`` in one
    trainer curve (its point 0 and its kept model, which is the clone when ``steps=0``)."""
    best = curve["best"]

    def of(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [r for r in rows if r["opponent"] == opponent and r.get("policy", "greedy")
                == "greedy"]

    return {"clone": pooled(of(curve["points"][0]["results"]) + of(best["results"])),
            "reference": pooled(of(curve["reference"]) + of(best["reference"]))}


def plot(rows: list[dict[str, Any]], opponents: list[str], teacher: str, fair: float,
         title: str, path: Path) -> None:
    """Share against each opponent by demonstration games, the teacher's as a band, and the
    held-out agreement with the teacher."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games = [r["games"] for r in rows]
    fig, axes = plt.subplots(1, len(opponents) + 1, figsize=(4.2 * (len(opponents) + 1), 3.8))
    for ax, opponent in zip(axes, opponents, strict=False):
        clone = [r["vs"][opponent]["clone"] for r in rows]
        ref = rows[-1]["vs"][opponent]["reference"]
        ax.axhspan(ref["ci_low"], ref["ci_high"], color="tab:orange", alpha=0.2)
        ax.axhline(ref["share"], color="tab:orange", label=f"{teacher} in its place")
        ax.axhline(fair, color="grey", linestyle=":", label="fair share")
        ax.errorbar(games, [c["share"] for c in clone],
                    yerr=[[max(0.0, c["share"] - c["ci_low"]) for c in clone],
                          [max(0.0, c["ci_high"] - c["share"]) for c in clone]],
                    marker="o", capsize=3, color="tab:blue", label="cloned policy (greedy)")
        ax.set_xscale("log")
        ax.set_xticks(games, [f"{g:,}" for g in games])
        ax.minorticks_off()
        ax.set_ylim(0, 1.02)
        ax.set_xlabel("demonstration games")
        ax.set_ylabel(f"win share against {opponent} seats")
        ax.legend(loc="best", fontsize=8)
    ax = axes[-1]
    for key, label, colour in (("tie_agreement_held_out", "any equally good code", "tab:green"),
                               ("agreement_held_out", "the teacher's own code", "tab:purple")):
        ax.plot(games, [r["imitation"][key] for r in rows], marker="o", label=label,
                color=colour)
    ax.set_xscale("log")
    ax.set_xticks(games, [f"{g:,}" for g in games])
    ax.minorticks_off()
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("demonstration games")
    ax.set_ylabel("held-out agreement (real decisions)")
    ax.legend(loc="lower right", fontsize=8)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("game", help="a meeple game name, e.g. ozymandias-market")
    parser.add_argument("--players", type=int, default=None,
                        help="seats (None: the game's default)")
    parser.add_argument("--games", default="500,1000,2000,4000",
                        help="demonstration game counts, comma-separated")
    parser.add_argument("--epochs", type=int, default=5, help="cloning epochs")
    parser.add_argument("--batch-size", type=int, default=1024, help="cloning batch size")
    parser.add_argument("--learning-rate", type=float, default=2e-3,
                        help="cloning learning rate (Adam)")
    parser.add_argument("--net", default="128,128", metavar="UNITS,UNITS",
                        help="the policy and value networks' hidden layers")
    parser.add_argument("--target", default="ties", choices=("ties", "choice"),
                        help="clone any of the teacher's equally good codes (ties) or its "
                             "code (choice); train_rl.py's --imitate-target")
    parser.add_argument("--teacher", default="heuristic", help="the demonstrating bot")
    parser.add_argument("--opponents", default="heuristic",
                        help="the bots the teacher plays against in the demonstrations")
    parser.add_argument("--eval-opponents", default="heuristic,random",
                        help="comma-separated bots the clone is measured against")
    parser.add_argument("--eval-games", type=int, default=200,
                        help="games per opponent in each of the two sets (per size)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="runs/imitation",
                        help="folder: one trainer folder per size, curve.json, curve.png")
    args = parser.parse_args(argv)

    from meeple.adapters.rl import train_maskable_ppo

    out = Path(args.out)
    opponents = args.eval_opponents.split(",")
    rows = []
    for games in [int(g) for g in args.games.split(",")]:
        curve = train_maskable_ppo(
            args.game, players=args.players, steps=0, imitate=games,
            imitate_epochs=args.epochs, imitate_target=args.target,
            imitate_fit={"batch_size": args.batch_size, "learning_rate": args.learning_rate},
            teacher=args.teacher, reference=args.teacher,
            opponents=args.opponents.split(","), eval_opponents=opponents,
            eval_games=args.eval_games, keep_best=opponents[0], seed=args.seed,
            ppo={"policy_kwargs": {"net_arch": [int(u) for u in args.net.split(",")]}},
            out=out / str(games))
        im = curve["imitation"]
        row = {"games": games, "model": curve["best"]["model"], "imitation": im,
               "vs": {o: summary(curve, o) for o in opponents}}
        rows.append(row)
        shares = "; ".join(
            f"vs {o}: clone {v['clone']['share']:.3f} [{v['clone']['ci_low']:.3f}, "
            f"{v['clone']['ci_high']:.3f}], {args.teacher} {v['reference']['share']:.3f}"
            for o, v in row["vs"].items())
        print(f"{games} games ({im['decisions']} decisions, {im['seconds']:.0f} s): agreement "
              f"{im['agreement_held_out']:.3f}, any equally good code "
              f"{im['tie_agreement_held_out']:.3f}; {shares}", flush=True)
    (out / "curve.json").write_text(json.dumps(rows, indent=2) + "\n")
    plot(rows, opponents, args.teacher, 1 / curve["players"],
         f"{args.game}: cloning the {args.teacher} ({args.target}, {args.net} network, "
         f"{args.epochs} epochs)", out / "curve.png")
    return rows


if __name__ == "__main__":
    main()
