"""meeple's game-agnostic core: game specs, states, actions, randomness, records, talk.

It imports no game, bot, lab or interface. The public names are re-exported here.
"""

from meeple.engine.action import Action, KindAction
from meeple.engine.agent import Agent, Bot
from meeple.engine.episode import play_episode
from meeple.engine.errors import (
    ActionArgumentError,
    ActionParseError,
    ArgumentError,
    GameOverError,
    IllegalActionError,
    MeepleError,
    NotAnActionError,
    NotYourTurnError,
    ParameterError,
    RecordError,
    SeatError,
    StateError,
    TalkError,
    UnknownGameError,
    UnknownVariantError,
    ViewError,
)
from meeple.engine.game import Capabilities, Game
from meeple.engine.params import Parameter, Variant
from meeple.engine.record import Record, replay
from meeple.engine.registry import game_class, game_names, load_game, register
from meeple.engine.rng import derive_seed
from meeple.engine.state import State
from meeple.engine.stepwise import StepChoice, StepCodes, step_codes
from meeple.engine.talk import Message, TalkLog
from meeple.engine.tensor import TensorWriter, observation_bounds, relative_seat, seats_from
from meeple.engine.winners import RecordedWinners, win_shares

__all__ = [
    "Action", "ActionArgumentError", "ActionParseError", "Agent", "ArgumentError", "Bot",
    "Capabilities", "Game", "GameOverError", "IllegalActionError", "KindAction", "MeepleError",
    "Message", "NotAnActionError", "NotYourTurnError", "Parameter", "ParameterError", "Record",
    "RecordError", "RecordedWinners", "SeatError", "State", "StateError", "StepChoice",
    "StepCodes", "TalkError", "TalkLog", "TensorWriter", "UnknownGameError", "UnknownVariantError",
    "Variant", "ViewError", "derive_seed", "game_class", "game_names", "load_game",
    "observation_bounds", "play_episode", "register", "relative_seat", "replay", "seats_from",
    "step_codes", "win_shares",
]
