"""The sandbox's game tree (`TimelinePanel`, a part of `uu.widgets.sandbox.SandboxScreen`): Undo / Redo (with
auto-play on, undo goes back to the last decision of a user seat), and the tree of moves drawn as buttons, the
current node highlighted; clicking a node jumps there, and another move from there makes a branch. The tree
is a `uu.tutor.timeline.Timeline`, so every decision, the user's and the bots', is one of its nodes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from uu.i18n import _
from uu.render import plural
from uu.tutor.timeline import Timeline
from uu.widgets.common import make_button, safe

__all__ = ["TIMELINE_ROWS", "TimelinePanel"]

TIMELINE_ROWS = 120  # the tree shows at most this many nodes (a window around the current one)


class TimelinePanel:
    """Undo, redo, jump and the tree view of the sandbox screen (mixed into `SandboxScreen`)."""

    timeline: Timeline | None
    message: tuple[str, str] | None
    node_buttons: dict[int, widgets.Button]
    timeline_box: widgets.VBox
    timeline_note: widgets.HTML
    auto_input: widgets.ToggleButton

    bot_to_decide: Callable[[], bool]  # the screen's method: is the decision at the current node a bot's?

    def undo(self) -> None:
        tl = self.timeline
        if tl is None or not tl.can_undo:
            self.message = ("other", _("Nothing to undo: this is the starting position."))
            return
        tl.undo()
        if self.auto_input.value:  # back to the last decision of one of your seats
            while self.bot_to_decide() and tl.can_undo:
                tl.undo()
        self.message = None

    def redo(self) -> None:
        tl = self.timeline
        if tl is None or not tl.can_redo:
            self.message = ("other", _("Nothing to redo from here."))
            return
        tl.redo()
        if self.auto_input.value:
            while self.bot_to_decide() and tl.can_redo:
                tl.redo()
        self.message = None

    def jump(self, node_id: int) -> None:
        if self.timeline is None:
            raise ValueError(_("there is no game yet"))
        self.timeline.jump(node_id)
        self.message = None

    @safe
    def on_undo(self, _b: Any = None) -> None:
        self.undo()

    @safe
    def on_redo(self, _b: Any = None) -> None:
        self.redo()

    @safe
    def on_jump(self, node_id: int) -> None:
        self.jump(node_id)


    def _tree_rows(self) -> list[tuple[int, int]]:
        """(node id, indent level) in reading order: a node's first child continues its line, later children
        (branches) are indented one more step."""
        tl = self.timeline
        assert tl is not None
        nodes = tl.nodes
        out: list[tuple[int, int]] = []
        stack = [(0, 0)]
        while stack:
            nid, level = stack.pop()
            out.append((nid, level))
            kids = nodes[nid].children
            # LIFO: the first child (the line itself) is pushed last, so its whole line is listed before the
            # branches, which follow it, indented
            for k in reversed(kids[1:]):
                stack.append((k, level + 1))
            if kids:
                stack.append((kids[0], level))
        return out

    def _node_button(self, nid: int) -> widgets.Button:
        b = self.node_buttons.get(nid)
        if b is None:
            assert self.timeline is not None
            n = self.timeline.node(nid)
            if n.parent is None:
                text = "Start: the built position"
            else:
                text = f"{n.depth}. {n.actor}: {n.description}"
                if n.result:
                    text += f" — {n.result}"
            t = n.turn
            tip = f"{text} (turn {t.get('number')}, {t.get('player')}, {t.get('phase')} phase)"
            b = make_button(text, ("uu-tl-node", f"uu-tl-node-{nid}"), tooltip=tip)
            b.layout.width = "auto"
            b.layout.max_width = "100%"
            b.on_click(lambda _b, nid=nid: self.on_jump(nid))
            self.node_buttons[nid] = b
        return b

    def _refresh_timeline(self) -> None:
        tl = self.timeline
        if tl is None:
            self.timeline_box.children = []
            self.timeline_note.value = ""
            return
        rows = self._tree_rows()
        cur = tl.current_id
        pos = next(i for i, (nid, _) in enumerate(rows) if nid == cur)
        lo = max(0, min(pos - TIMELINE_ROWS // 2, len(rows) - TIMELINE_ROWS))
        shown = rows[lo:lo + TIMELINE_ROWS]
        children: list[widgets.Widget] = []
        if lo > 0:
            children.append(widgets.HTML(f"<i>… {plural(lo, 'earlier node')} not shown</i>"))
        for nid, level in shown:
            b = self._node_button(nid)
            if nid == cur:
                b.add_class("uu-tl-current")
                b.button_style = "info"
            else:
                b.remove_class("uu-tl-current")
                b.button_style = ""
            b.layout.margin = f"1px 0 1px {1.5 * level}em"
            children.append(b)
        after = len(rows) - lo - len(shown)
        if after > 0:
            children.append(widgets.HTML(f"<i>… {plural(after, 'later node')} not shown</i>"))
        self.timeline_box.children = children
        branches = tl.branches()
        self.timeline_note.value = (f"<div class='uu-why'>{plural(len(tl), 'node')}, "
                                    f"{plural(len(branches), 'line')} of play; at node {cur} "
                                    f"(move {tl.current.depth}).</div>")
