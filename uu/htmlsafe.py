"""`esc`: every text the package puts into HTML goes through it (a leaf module, so any module may import it)."""

from __future__ import annotations

import html
from typing import Any


def esc(text: Any) -> str:
    """Escape any value for HTML text and attributes."""
    return html.escape(str(text), quote=True)
