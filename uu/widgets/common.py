"""Pieces every screen shares: the error-safe callback wrapper, buttons with CSS classes, the error box.

A screen is a `widgets.VBox` with an `error` attribute (None or the message shown), an `error_box`
(`widgets.HTML`) and a `refresh()` that redraws it from the Python state. `@safe` wraps every callback: an
exception is logged with its traceback (logger of the screen's module) and shown as one readable line; the
screen is redrawn either way, so the app is never left blank or half drawn.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from uu.engine.errors import GameError
from uu.render import STYLE, esc

__all__ = ["ScreenBase", "error_html", "make_button", "safe", "style_widget"]


def error_html(message: str | None) -> str:
    return "" if not message else f"<div class='uu-error-box' role='alert'>{esc(message)}</div>"


def readable(e: Exception) -> str:
    kind = "The game refused that" if isinstance(e, GameError) else "Something went wrong"
    text = str(e)
    return f"{kind}: {text}" if text else f"{kind} ({type(e).__name__})."


def safe(method: Callable[..., Any]) -> Callable[..., Any]:
    """Run a screen callback; on any error, log it and show a readable message instead of a traceback."""
    logger = logging.getLogger(method.__module__)

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            self._set_error(None)
            return method(self, *args, **kwargs)
        except Exception as e:  # shown to the user, logged with the traceback
            logger.exception("error in %s", method.__name__)
            self._set_error(readable(e))
            return None
        finally:
            try:
                self.refresh()
            except Exception:  # a broken render must not hide the message above
                logger.exception("error while redrawing after %s", method.__name__)
                if not self.error:
                    self._set_error("Something went wrong while drawing this screen.")

    return wrapper


def make_button(text: str, css: str | tuple[str, ...], handler: Callable[[Any], Any] | None = None,
                style: str = "", tooltip: str | None = None, width: str | None = None) -> widgets.Button:
    b = widgets.Button(description=text, button_style=style, tooltip=tooltip if tooltip is not None else text)
    for c in (css,) if isinstance(css, str) else css:
        b.add_class(c)
    if width:
        b.layout.width = width
    if handler is not None:
        b.on_click(handler)
    return b


def style_widget() -> widgets.HTML:
    """The stylesheet (one `<style>` element; it applies to the whole page)."""
    w = widgets.HTML(STYLE)
    w.add_class("uu-style")
    return w


class ScreenBase(widgets.VBox):
    """An app screen: error box, `error` attribute, `refresh()`. Subclasses build their children."""

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.add_class("uu-root")
        self.add_class("uu-screen")
        self.error: str | None = None
        self.error_box = widgets.HTML()
        self.error_box.add_class("uu-error")

    def _set_error(self, message: str | None) -> None:
        self.error = message
        self.error_box.value = error_html(message)

    def refresh(self) -> None:  # pragma: no cover - overridden
        pass
