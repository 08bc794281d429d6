"""Why a card or place on the table cannot be chosen now, in one sentence (a click on an element that is not
lit). The sentence comes from the engine's why-not (`uu.words.whynot`) when the click names a move; else it
says what the table is waiting for. Pure Python, no ipywidgets.
"""

from __future__ import annotations

from uu.engine.actions import Action
from uu.engine.game import Game

# The why-not code is moving to uu.words (a separate change): this is the one import to update then.
from uu.words.whynot import why_not

__all__ = ["click_reason"]

_KIND_WORDS = {"baby": "choose your Baby Unicorn from the Nursery", "action": "play a card from your hand or DRAW",
               "respond": "answer the card on the Neigh pile with a Neigh, or pass",
               "target": "choose one of the lit cards or players", "discard": "choose a card of your hand to discard",
               "sacrifice": "choose a card of your Stable to sacrifice", "use": "use or skip the lit effect",
               "choose": "pick one of the choices shown", "order": "pick an order for the cards"}


def _action_for(game: Game, viewer: int, key: str) -> Action | None:
    """The move a click on `key` most likely meant, for the pending decision (None when it names none)."""
    d = game.pending
    parts = key.split(":")
    if d is None or parts[0] != "card" or len(parts) < 4:
        return None
    zone, owner, name = parts[1], parts[2], ":".join(parts[3:])
    if zone == "hand" and owner == str(viewer):
        if d.kind == "respond":
            return Action("respond", card=name)
        if d.kind == "discard":
            return Action("discard", card=name)
        return Action("play", card=name)
    if zone == "stable" and owner == str(viewer) and d.kind == "sacrifice":
        return Action("sacrifice", card=name)
    if zone == "nursery" and d.kind == "baby":
        return Action("baby", card=name)
    return None


def click_reason(game: Game | None, viewer: int | None, key: str, name: str = "") -> str:
    """One sentence: why the element `key` (a data-key of the table) cannot be chosen now."""
    what = name or "That"
    if game is None or game.pending is None:
        return "The game is over: nothing can be chosen now."
    d = game.pending
    if viewer is None or d.player != viewer:
        return f"It is {game.players[d.player]}'s decision now: wait until the table lights your choices."
    action = _action_for(game, viewer, key)
    if action is not None:
        try:
            reason = why_not(game, action, viewer)
        except Exception:  # a reason is a courtesy: never let it break the click
            reason = None
        if reason is not None and reason.text:
            return reason.text
    task = _KIND_WORDS.get(d.kind, "choose one of the lit cards or places")
    if key.startswith("back:"):
        return f"You cannot choose a card you cannot see now: {task}."
    return f"{what} is not one of the choices now: {task}."
