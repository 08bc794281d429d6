"""What the sandbox screen's panels share: `Panel` (a panel holds the session and one callback to the screen)
and `@handler`, the error-safe wrapper of a panel's widget callbacks.

A panel owns its widgets and talks only to the `uu.tutor.sandbox_session.SandboxSession` and to `changed(problem)`,
which asks the screen to show the problem (None: no problem) and redraw every panel from the session: a panel
never reads or sets another panel's attributes. `@handler` is the panels' `uu.widgets.common.safe`: an
exception in a callback is logged with its traceback (logger of the panel's module) and handed to `changed`,
which shows it as one readable line; the screen is redrawn either way.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Concatenate, ParamSpec, TypeVar

from uu.tutor.sandbox_session import SandboxSession

__all__ = ["FULL_WIDTH", "HIDDEN", "SHOWN", "Changed", "Panel", "handler"]

# The full width of a panel for a text box: a widget's own margins come on top of a width of 100%, which pushed
# the paste and export boxes a few pixels past the panel's right edge
FULL_WIDTH = "calc(100% - 2 * var(--jp-widgets-margin))"
HIDDEN = "none"
# shown: the default display, sent as "" (a trait set back to None never reaches the browser under the
# Pyodide kernel of the static build, docs/static-build.md)
SHOWN = ""

Changed = Callable[[Exception | None], None]


class Panel:
    """A part of the sandbox screen: its widgets, the session they show, and the screen's `changed`."""

    def __init__(self, session: SandboxSession, changed: Changed):
        self.session = session
        self.changed = changed


S = TypeVar("S", bound="Panel")
P = ParamSpec("P")
R = TypeVar("R")


def handler(method: Callable[Concatenate[S, P], R]) -> Callable[Concatenate[S, P], R | None]:
    """Run a panel's widget callback; whatever happens, the screen is told (and redraws). An error: None."""
    logger = logging.getLogger(method.__module__)

    @functools.wraps(method)
    def wrapper(self: S, *args: P.args, **kwargs: P.kwargs) -> R | None:
        problem: Exception | None = None
        try:
            return method(self, *args, **kwargs)
        except Exception as e:  # shown to the user by the screen, logged here with the traceback
            logger.exception("error in %s", method.__name__)
            problem = e
            return None
        finally:
            self.changed(problem)

    return wrapper
