"""Small Python hooks for the few cards whose behaviour the op language cannot say, registered by name.

A hook has the signature of a verb (see `uu.engine.verb_handlers`) plus an optional possibility check.
"""

from __future__ import annotations

from collections.abc import Callable

from uu.engine import moves
from uu.engine.actions import Action
from uu.engine.effects import finish
from uu.engine.frame_types import OpFrame
from uu.engine.frames import HOOK_CHECKS as POSSIBLE
from uu.engine.frames import HOOKS, Result, hook_possible
from uu.engine.state import GameState

Hook = Callable[[GameState, OpFrame, Action | None], Result]
__all__ = ["HOOKS", "POSSIBLE", "hook", "hook_possible"]


def hook(name: str, possible: Callable[[GameState, int, int | None], bool] | None = None
         ) -> Callable[[Hook], Hook]:
    def register(fn: Hook) -> Hook:
        HOOKS[name] = fn
        if possible is not None:
            POSSIBLE[name] = possible
        return fn

    return register


@hook("shake_up")
def shake_up(s: GameState, f: OpFrame, action: Action | None) -> Result:
    """Shake Up: this card, your hand and the discard pile are shuffled into the deck, then DRAW 5."""
    you, src = f["you"], f["src"]
    for c in [*s.hands[you], *s.discard] + ([src] if src is not None and s.zone_of[src] == "limbo" else []):
        s.place(c, "deck")
    moves.shuffle_deck(s)
    s.say(f"{s.players[you]} shuffles this card, their hand and the discard pile into the deck.",
          "verb.move-to-discard", player=you)
    moves.draw(s, you, 5)
    return finish(s, f, True)
