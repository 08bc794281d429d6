"""A seat's screen as JSON: what the server sends a learner's kernel, which hands it to the table widget.

The table, its actions and the steps to play back are the table widget's own messages (uu/table/seat_view.py,
uu/table/replay.py), made on the server for that seat only, so no hidden card ever leaves the server for a
screen that may not see it. In a Neigh moment a seat asked to answer is given its answers as actions even when
the engine has not reached it yet (uu/together/answers.py), and no seat is told who else is asked.
"""

from __future__ import annotations

from typing import Any

from uu.i18n import _
from uu.table.messages import ActionView
from uu.table.seat_view import action_view, legal_actions, observe
from uu.together.table import SharedTable, TableView

__all__ = ["seat_json"]


def _answers(table: SharedTable, view: TableView) -> list[ActionView]:
    assert table.session is not None
    game = table.session.game
    return [action_view(game, view.seat, a, i) for i, a in enumerate(view.legal)]


def seat_json(table: SharedTable, view: TableView) -> dict[str, Any]:
    """`view` (made by `table.view` for one seat) as the JSON its screen is sent."""
    out: dict[str, Any] = {
        "code": table.code, "phase": view.phase, "seat": view.seat, "maker": view.maker, "version": view.version,
        "revision": view.revision,
        "options": view.options.model_dump(),
        "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind, "away": s.away, "level": s.level}
                  for s in view.seats],
        "answering": view.answering, "table": None, "actions": [], "steps": view.steps,
        "answer_left": table.answer_left(),  # the countdown of a Neigh moment, when the maker set one
    }
    session = table.session
    if session is None:
        return out
    game = session.game
    shown = observe(game, view.seat)
    if view.observation is not None and view.observation.decider is None and shown["decision"] is not None:
        # a Neigh moment: who the engine asks first is not said (it would tell who holds an Instant)
        prompt = (_("Answer the top card of the Neigh pile, or pass.") if view.answering
                  else _("Waiting for answers to the top card of the Neigh pile."))
        if view.options.answer_s and view.answering:
            prompt += " " + _("Answer within {seconds} s of the card being played, or you pass.").format(
                seconds=view.options.answer_s)
        shown["decision"] = {"player": -1, "name": "", "kind": "respond", "yours": view.answering, "prompt": prompt}
    out["table"] = shown
    if view.answering:
        out["actions"] = _answers(table, view)
    elif view.legal:
        out["actions"] = legal_actions(game, view.seat)
    return out
