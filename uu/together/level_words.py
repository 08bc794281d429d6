"""The words a reader sees for a table's settings, in their language: a bot's level."""

from __future__ import annotations

from uu.i18n import N_, _

__all__ = ["LEVEL_LABELS", "level_word"]

LEVEL_LABELS = {"easy": N_("Easy"), "normal": N_("Normal"), "hard": N_("Hard")}


def level_word(level: object) -> str:
    """A bot level's word ("Normal"); a level this version does not know is shown as it is."""
    return _(LEVEL_LABELS[level]) if isinstance(level, str) and level in LEVEL_LABELS else str(level or "")
