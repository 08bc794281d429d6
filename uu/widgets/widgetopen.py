"""Holding `ipywidgets.Widget.open` back while a screen is built (`uu.widgets.common.built_whole`).

It changes a third-party library, so it is listed with every other such change in `uu/server/patches.py`;
its code lives here, in the widgets' own layer, because it runs in the learners' kernels with the screens,
not in the server (and a lower layer never imports the server: tests/test_layers.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["hold_widget_open"]

_WIDGET_OPEN: dict[str, Callable[..., Any]] = {}


def hold_widget_open(note: Callable[[Any], None] | None) -> Callable[..., Any]:
    """While `note` is given, `ipywidgets.Widget.open` (a public method, called by every widget's constructor)
    only hands the widget to `note`; `hold_widget_open(None)` puts the original back. Returns the original
    `open` (to open the held widgets with). `uu.widgets.common.built_whole` uses it."""
    import ipywidgets

    original = _WIDGET_OPEN.setdefault("open", ipywidgets.Widget.open)
    ipywidgets.Widget.open = original if note is None else note  # type: ignore[method-assign]
    return original
