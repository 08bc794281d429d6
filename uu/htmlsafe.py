"""`esc`: every text the package puts into HTML goes through it (a leaf module, so any module may import it)."""

from __future__ import annotations

import html
from typing import Any


def esc(text: Any) -> str:
    """Escape any value for HTML text and attributes. A message whose `.format` does more than `str`'s (French
    elision, uu.i18n.FrenchText) stays of its class, so `esc(_("...")).format(...)` still elides."""
    out = html.escape(str(text), quote=True)
    return type(text)(out) if getattr(text, "keeps_through_esc", False) else out
