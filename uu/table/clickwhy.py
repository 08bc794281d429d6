"""Why a card or place on the table cannot be chosen now, in one sentence (a click on an element that is not
lit). The sentence comes from the engine's why-not (`uu.words.whynot`) when the click names a move; else it
says what the table is waiting for. Pure Python, no ipywidgets.
"""

from __future__ import annotations

from uu.engine.actions import Action
from uu.engine.game import Game
from uu.i18n import N_, _

# The why-not code is moving to uu.words (a separate change): this is the one import to update then.
from uu.words.whynot import why_not

__all__ = ["click_reason"]

# what the table waits for, by decision kind (English, translated with _() where said)
_KIND_WORDS = {"baby": N_("choose your Baby Unicorn from the Nursery"),
               "action": N_("play a card from your hand or DRAW"),
               "respond": N_("answer the card on the Neigh pile with a Neigh, or pass"),
               "target": N_("choose one of the lit cards or players"),
               "discard": N_("choose a card of your hand to discard"),
               "sacrifice": N_("choose a card of your Stable to sacrifice"), "use": N_("use or skip the lit effect"),
               "choose": N_("pick one of the choices shown"), "order": N_("pick an order for the cards")}


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
    if game is None or game.pending is None:
        return _("The game is over: nothing can be chosen now.")
    d = game.pending
    if viewer is None or d.player != viewer:
        return _("It is {player}'s decision now: wait until the table lights your choices.").format(
            player=game.players[d.player])
    action = _action_for(game, viewer, key)
    if action is not None:
        try:
            reason = why_not(game, action, viewer)
        except Exception:  # a reason is a courtesy: never let it break the click
            reason = None
        if reason is not None and reason.text:
            return reason.text
    task = _(_KIND_WORDS[d.kind]) if d.kind in _KIND_WORDS else _("choose one of the lit cards or places")
    if key.startswith("back:"):
        return _("You cannot choose a card you cannot see now: {task}.").format(task=task)
    if name:  # the name as the table shows it (the caller's words, already in the language in use)
        return _("{card} is not one of the choices now: {task}.").format(card=name, task=task)
    return _("That is not one of the choices now: {task}.").format(task=task)
