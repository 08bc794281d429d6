"""The Neigh moment of a shared table: every seat that may answer the top card is asked at once.

The engine asks one responder at a time, in seat order starting left of whoever played the top card
(option.responder-order). At a table of several people that would make each learner wait for the ones before
them, so the table asks all of them together, keeps the answers, and hands them to the engine in its own order.
An answer belongs to the top card it answered (its *moment*): once the top card changes (someone answered with
an Instant, or the pile resolved) the answers kept for the old one are void and those seats are asked again.
Pure functions over the game: what is asked of whom, and which moment it is.
"""

from __future__ import annotations

from uu.engine.actions import Action
from uu.engine.game import Game
from uu.engine.pile import asked_with

__all__ = ["answerers", "moment_of", "responses"]


def _pile_frame(game: Game) -> dict | None:
    d = game.pending
    if d is None or d.kind != "respond":
        return None
    return next((f for f in reversed(game.state.stack) if f.get("kind") == "pile"), None)


def moment_of(game: Game) -> tuple[tuple[int, int], ...] | None:
    """The Neigh pile as (card, who played it), bottom first, while the game waits for answers to its top
    card; None at any other decision. Two equal moments answer the same top card."""
    if _pile_frame(game) is None:
        return None
    return tuple((e["cid"], e["p"]) for e in game.state.pile)


def answerers(game: Game) -> tuple[int, ...]:
    """The seats still to be asked about the top card, in the engine's order (the first is the engine's
    decider); empty outside a Neigh moment. A table plays with option.neigh-ask everyone: every seat that may
    answer is asked, whether or not it holds an Instant, so being asked tells nobody what is in a hand."""
    f = _pile_frame(game)
    if f is None:
        return ()
    s = game.state
    return tuple(p for p in (f.get("ask") or ()) if asked_with(s, p))


def responses(game: Game, seat: int) -> tuple[Action, ...]:
    """What `seat` may answer the top card with (its Instants, then pass), the same list the engine will
    give it when its turn to answer comes; empty when it is not to be asked."""
    if seat not in answerers(game):
        return ()
    d = game.pending
    if d is not None and d.player == seat:
        return d.actions
    return asked_with(game.state, seat)
