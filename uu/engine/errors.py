"""The three kinds of bad input (after python-chess): malformed, illegal, ambiguous.

Each error says what was wrong and what is allowed; raising one never changes the game.
"""

from __future__ import annotations


class GameError(Exception):
    """Base class of every error the engine raises for bad input."""


class MalformedAction(GameError, ValueError):
    """The action is not well formed (unknown kind, missing or unknown field)."""


class IllegalAction(GameError, ValueError):
    """The action is well formed but not among the legal actions of the pending decision."""


class AmbiguousAction(GameError, ValueError):
    """The action description matches more than one legal action."""


class GameOver(GameError):
    """The game has ended; nothing more can be applied."""


class NothingToUndo(GameError, IndexError):
    """`Game.pop` with an empty move stack (an IndexError, as popping an empty list is)."""


class SaveError(GameError, ValueError):
    """A save (docs/save-format.md) that cannot be loaded: the message says what is wrong and where."""
