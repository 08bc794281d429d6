"""The sandbox's game tree panel (`TimelinePanel`): Undo / Redo (with auto-play on, undo goes back to the last
decision of a user seat), and the tree of moves drawn as buttons, the current node highlighted; clicking a node
jumps there, and another move from there makes a branch. The tree is the session's `uu.tutor.timeline.Timeline`
(`uu.tutor.sandbox_session.SandboxSession.timeline`), so every decision, the user's and the bots', is one of its nodes.

Its widgets sit in the play panel, which is given them to place: `controls` (Undo, Redo) in its row of buttons,
`view` (the heading, a note and the tree) at its end.
"""

from __future__ import annotations

import ipywidgets as widgets

from uu.engine.movetext import describe_action
from uu.i18n import _, ngettext
from uu.render import PHASE_LABELS, esc, plural
from uu.tutor.sandbox_session import SandboxSession
from uu.tutor.timeline import Timeline
from uu.widgets.common import make_button
from uu.widgets.sandbox_panel import Changed, Panel, handler

__all__ = ["TIMELINE_ROWS", "TimelinePanel"]

TIMELINE_ROWS = 120  # the tree shows at most this many nodes (a window around the current one)


class TimelinePanel(Panel):
    """Undo, redo, jump and the tree view."""

    def __init__(self, session: SandboxSession, changed: Changed):
        super().__init__(session, changed)
        self.node_buttons: dict[int, widgets.Button] = {}
        self._drawn: Timeline | None = None  # the tree the node buttons are of
        self.undo_button = make_button(_("Undo"), "uu-sb-undo", self.on_undo, style="warning",
                                       tooltip=_("Go back one decision (with auto-play: to your last decision)"))
        self.redo_button = make_button(_("Redo"), "uu-sb-redo", self.on_redo,
                                       tooltip=_("Go forward again along the line you came back from"))
        self.timeline_note = widgets.HTML()
        self.timeline_box = widgets.VBox(layout=widgets.Layout(max_height="22em", overflow="auto"))
        self.timeline_box.add_class("uu-sb-timeline")
        self.controls: list[widgets.Widget] = [self.undo_button, self.redo_button]
        self.view: list[widgets.Widget] = [
            widgets.HTML("<h3>" + esc(_("Game tree")) + "</h3><p class='uu-why'>"
                         + esc(_("Every decision so far; the current one is highlighted. Click one to go back to "
                                 "it; a different move from there starts a new branch.")) + "</p>"),
            self.timeline_note,
            self.timeline_box,
        ]

    @handler
    def on_undo(self, _b: object = None) -> None:
        self.session.undo()

    @handler
    def on_redo(self, _b: object = None) -> None:
        self.session.redo()

    @handler
    def on_jump(self, node_id: int) -> None:
        self.session.jump(node_id)

    def _tree_rows(self) -> list[tuple[int, int]]:
        """(node id, indent level) in reading order: a node's first child continues its line, later children
        (branches) are indented one more step."""
        tl = self.session.timeline
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
            assert self.session.timeline is not None
            n = self.session.timeline.node(nid)
            if n.parent is None:
                text = _("Start: the built position")
            else:
                names = self.session.timeline.game.players
                move = n.description if n.action is None else describe_action(n.action, names)
                text = f"{n.depth}. {n.actor}: {move}"
                if n.result:
                    text += f" — {n.result}"
            t = n.turn
            phase = str(t.get("phase"))
            tip = _("{move} (turn {number}, {player}, {phase})").format(
                move=text, number=t.get("number"), player=t.get("player"), phase=_(PHASE_LABELS.get(phase, phase)))
            b = make_button(text, ("uu-tl-node", f"uu-tl-node-{nid}"), tooltip=tip)
            b.layout.width = "auto"
            b.layout.max_width = "100%"
            b.on_click(lambda _b, nid=nid: self.on_jump(nid))
            self.node_buttons[nid] = b
        return b

    def refresh(self) -> None:
        """Redraw from the session: Undo and Redo, the tree with the current node highlighted."""
        tl = self.session.timeline
        if tl is not self._drawn:  # a new game tree: its node ids name other nodes
            self.node_buttons = {}
            self._drawn = tl
        self.undo_button.disabled = tl is None or not tl.can_undo
        self.redo_button.disabled = tl is None or not tl.can_redo
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
            children.append(widgets.HTML("<i>" + esc(ngettext("… {n} later node not shown", "… {n} later nodes not shown",
                                                              after).format(n=after)) + "</i>"))
        self.timeline_box.children = children
        branches = tl.branches()
        note = _("{nodes}, {lines}; at node {node} (move {move}).").format(
            nodes=ngettext("{n} node", "{n} nodes", len(tl)).format(n=len(tl)),
            lines=ngettext("{n} line of play", "{n} lines of play", len(branches)).format(n=len(branches)),
            node=cur, move=tl.current.depth)
        self.timeline_note.value = f"<div class='uu-why'>{esc(note)}</div>"
