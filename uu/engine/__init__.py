"""The rules engine: Python (compiled by mypyc when built, see uu.native), never imports ipywidgets (a test
enforces it)."""

from uu import native as _native

_native.activate("engine", __path__)  # before any engine module is imported: the compiled ones, when built, come first

from uu.engine.actions import Action, Decision, Target
from uu.engine.errors import (
    AmbiguousAction,
    GameError,
    GameOver,
    IllegalAction,
    MalformedAction,
    NothingToUndo,
    SaveError,
)
from uu.engine.game import Game, new_game
from uu.engine.options import Options
from uu.engine.state import LogEntry

__all__ = [
    "Action", "AmbiguousAction", "Decision", "Game", "GameError", "GameOver", "IllegalAction", "LogEntry",
    "MalformedAction", "NothingToUndo", "Options", "SaveError", "Target", "new_game",
]
