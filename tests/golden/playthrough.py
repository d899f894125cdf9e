"""Golden playthroughs: seeded text transcripts of every registered game (engine-patterns 13).

Each transcript records, at every step of a seeded random game, the spectator view, what each
acting seat's view adds to it, each seat's legal actions, and the joint action applied; then
the result. A rule
change shows up as a reviewable diff of ``tests/golden/<game>.txt``. Regenerate after an
intended change with::

    python tests/golden/playthrough.py [GAME ...]
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).parent
MAX_STEPS = 40  # keeps each file reviewable
SEED = 2026


def transcript(name: str) -> str:
    """The golden text of game ``name`` (default variant and seats, seed ``SEED``)."""
    from meeple.engine.registry import load_game

    game = load_game(name)
    state = game.new_initial_state(SEED)
    rng = random.Random(SEED)
    lines = [f"# {game!r}, seed {SEED}, uniform random actions from random.Random({SEED})"]
    step = 0
    while not state.is_terminal() and step < MAX_STEPS:
        lines.append(f"\n## step {step}")
        public = json.loads(json.dumps(state.view(None)))
        lines.append("spectator: " + json.dumps(public, sort_keys=True))
        joint = {}
        for seat in state.current_players():
            legal = state.legal_actions(seat)
            own = json.loads(json.dumps(state.view(seat)))
            differs = {k: v for k, v in own.items() if public.get(k) != v}
            lines.append(f"seat {seat} view, where it differs from the spectator's: "
                         + json.dumps(differs, sort_keys=True))
            lines.append(f"seat {seat} legal ({len(legal)}): " + " | ".join(map(str, legal)))
            joint[seat] = rng.choice(legal)
        lines.append("joint: " + json.dumps({str(s): str(a) for s, a in joint.items()}))
        state.apply_actions(joint)
        step += 1
    lines.append(f"\n## end after {step} steps")
    lines.append("terminal: " + str(state.is_terminal()))
    lines.append("returns: " + json.dumps(list(state.returns())))
    lines.append("spectator: " + json.dumps(state.view(None), sort_keys=True))
    lines.append("digest: " + state.digest())
    return "\n".join(lines) + "\n"


def golden_path(name: str) -> Path:
    return HERE / f"{name}.txt"


def main() -> int:
    sys.path.insert(0, str(HERE.parent.parent))
    import examples.crazy_eights  # noqa: F401
    import examples.pig  # noqa: F401  (the template games have transcripts too)
    from meeple.engine.registry import game_names

    names = sys.argv[1:] or game_names()  # e.g. ``python tests/golden/playthrough.py damocles``
    for name in names:
        golden_path(name).write_text(transcript(name))
        print(f"wrote {golden_path(name)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
