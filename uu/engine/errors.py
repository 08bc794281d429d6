"""The three kinds of bad input (after python-chess): malformed, illegal, ambiguous.

Each error says what was wrong and what is allowed; raising one never changes the game.

A learner may read the message (a screen shows `str(error)`), so it speaks their language, but the words are
looked up when the message is shown, never when the error is raised: bots and searches raise and catch these
errors by the thousand and never read them. An error raised with named fields keeps its English template
(marked with `N_` for the catalogs) and the fields; `str()` translates the template in the language in use
and fills it. A field may be a function of no arguments (a move's label, a prompt): it is called when the
message is made, so it too comes out in the language in use. `args[0]` is always the English message.
"""

from __future__ import annotations

from typing import Any

from uu.i18n import _, current_language


def _filled(template: str, fields: dict[str, Any]) -> str:
    return template.format(**{k: v() if callable(v) else v for k, v in fields.items()})


class GameError(Exception):
    """Base class of every error the engine raises for bad input.

    `GameError("plain English")` as before (shown as is); or `GameError(N_("{card} is not ..."), card=...)`:
    a template with named fields, translated when shown."""

    def __init__(self, message: str = "", /, **fields: Any) -> None:
        self.template = message
        self.fields: dict[str, Any] = fields
        super().__init__(_filled(message, fields) if fields else message)

    def __str__(self) -> str:
        template = getattr(self, "template", None)  # None: made without __init__ (a copy, an unpickled error)
        if template is None or current_language() == "en":
            return super().__str__()
        return _filled(_(template), self.fields) if self.fields else _(template)

    def __reduce__(self) -> tuple[Any, ...]:
        # a field may be a function (a label made when shown), which pickle cannot carry: a pickled error
        # (a kernel sending it on, a copy) carries the fields' texts as they read now, in the language in use
        fields = {k: v() if callable(v) else v for k, v in getattr(self, "fields", {}).items()}
        return (_remade, (type(self), getattr(self, "template", None), fields, self.args))


def _remade(cls: type[GameError], template: str | None, fields: dict[str, Any], args: tuple[Any, ...]) -> GameError:
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    if template is not None:
        error.template = template
        error.fields = fields
    return error



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
