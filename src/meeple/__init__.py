"""meeple: tabletop game designs as software to play, and to playtest at scale.

``from meeple import load_game`` is the entry point; see README.md and docs/.
"""

from meeple.engine import (
    Game,
    MeepleError,
    Record,
    State,
    game_names,
    load_game,
    replay,
)

__version__ = "0.1.0"

__all__ = ["Game", "MeepleError", "Record", "State", "__version__", "game_names", "load_game",
           "replay"]
