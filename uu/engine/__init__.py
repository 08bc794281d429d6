"""The rules engine: pure Python, never imports ipywidgets (a test enforces it)."""

from uu.engine.actions import Action, Decision, Target
from uu.engine.errors import AmbiguousAction, GameError, GameOver, IllegalAction, MalformedAction
from uu.engine.game import Game, new_game
from uu.engine.options import Options
from uu.engine.state import LogEntry

__all__ = [
    "Action", "AmbiguousAction", "Decision", "Game", "GameError", "GameOver", "IllegalAction", "LogEntry",
    "MalformedAction", "Options", "Target", "new_game",
]
