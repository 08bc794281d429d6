"""`TableWidget`: the table drawn in the browser by an ES module shipped with the package (anywidget, no
JavaScript build step), for Voila, JupyterLab and JupyterLite alike.

Python sends the viewer's observation and the legal actions with their gestures (`uu.table.observation`);
the browser sends back only `{"type": "choose", "id": i, "version": v}`. The id is checked against the
actions on show and the version against the table the click was made on (a bot may have moved since), so a
stale or forged message is ignored; only then is `on_choose(i)` called, and the caller hands the engine the
legal action with that index.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from uu.engine.game import Game
from uu.table.observation import legal_actions, observe

__all__ = ["TableWidget"]

log = logging.getLogger(__name__)
HERE = Path(__file__).parent


class TableWidget(anywidget.AnyWidget):
    _esm = HERE / "table.js"
    _css = HERE / "table.css"

    observation = traitlets.Dict().tag(sync=True)
    actions: traitlets.List[Any] = traitlets.List().tag(sync=True)
    # Grows with every update: a choice made on an older table names an index of an older list.
    version = traitlets.Int(0).tag(sync=True)
    hint: traitlets.List[Any] = traitlets.List().tag(sync=True)  # action ids the hint lights (data-hinted)

    def __init__(self, game: Game | None = None, viewer: int = 0,
                 on_choose: Callable[[int], Any] | None = None,
                 on_refused: Callable[[], Any] | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.on_choose = on_choose
        # called when a click from the browser is refused (made on an older table): a screen says so in
        # plain words instead of leaving the learner wondering why nothing happened
        self.on_refused = on_refused
        self.on_msg(self._on_message)
        if game is not None:
            self.show(game, viewer)

    def show(self, game: Game, viewer: int | None) -> None:
        """Draw `game` as `viewer` sees it (None: everything, no moves), with the viewer's legal actions."""
        self.set_table(observe(game, viewer), legal_actions(game, viewer))

    def set_table(self, observation: dict[str, Any], actions: list[dict[str, Any]]) -> None:
        if observation == self.observation and actions == self.actions:
            # nothing new (a screen redrawn for a message or a setting): no message, and the version stays,
            # so a click the learner is making on this table still counts
            return
        with self.hold_sync():  # one message: the browser never draws an observation with the old actions
            self.version += 1
            self.observation = observation
            self.actions = actions

    def choose(self, index: int, version: int | None = None) -> bool:
        """What a click in the browser does: call `on_choose(index)` if the index is one of the actions on
        show (and `version` is the table's, when given). Returns whether it was called."""
        if isinstance(index, bool) or not isinstance(index, int):
            return False
        if version is not None and version != self.version:
            return False
        if index not in {a.get("id") for a in self.actions}:
            return False
        if self.on_choose is not None:
            self.on_choose(index)
        return True

    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict) or content.get("type") != "choose":
            return
        version = content.get("version")
        try:
            done = self.choose(content.get("id"), version if isinstance(version, int) else -1)  # type: ignore[arg-type]
            if not done and self.on_refused is not None:
                self.on_refused()
        except Exception:  # the page must never show a traceback; the log keeps it
            log.exception("error while applying the table's choice %r", content)
