"""Screens are sent to the browser whole: one comm-open per widget with its final state, no follow-up updates
(uu/widgets/common.py `built_whole`)."""

from __future__ import annotations

from collections import Counter

import ipywidgets as widgets
import pytest
from ipywidgets.widgets import widget as widget_module

import uu.widgets.widgetopen
from uu.widgets import App
from uu.widgets.common import built_whole


@pytest.fixture
def messages(monkeypatch):
    """Counts what widgets send: `open` (comm-open, with the state it carries) and `update` messages."""
    seen: Counter[str] = Counter()
    opened: list[tuple[widgets.Widget, dict]] = []
    original_open, original_send = widget_module.Widget.open, widget_module.Widget._send

    def open_(self):
        if self.comm is None:
            seen["open"] += 1
            opened.append((self, self.get_state()))
        return original_open(self)

    def send(self, msg, buffers=None):
        # only what reaches the browser: anywidget's constructor calls send_state for its _esm and _css
        # before the widget has a comm (built_whole holds it back), and those go nowhere
        if self.comm is not None:
            seen["update"] += 1
        return original_send(self, msg, buffers)

    monkeypatch.setattr(widget_module.Widget, "open", open_)
    monkeypatch.setattr(widget_module.Widget, "_send", send)
    # built_whole restores the open uu.widgets.widgetopen.hold_widget_open first found: point it at the counting one
    monkeypatch.setitem(uu.widgets.widgetopen._WIDGET_OPEN, "open", open_)
    return seen, opened


def test_widgets_built_in_the_block_are_sent_once_in_their_final_state_children_first(messages):
    seen, opened = messages
    with built_whole():
        box = widgets.VBox()
        button = widgets.Button(description="first")
        button.add_class("uu-x")
        button.description = "final"
        box.children = [button]
        assert seen["open"] == 0 and seen["update"] == 0, "nothing is sent inside the block"
        assert button.comm is None
    assert seen["update"] == 0
    order = [w for w, _state in opened]
    assert order.index(button) < order.index(box), "a child is opened before the box that refers to it"
    assert order.index(button.layout) < order.index(button) and order.index(button.style) < order.index(button)
    state = next(s for w, s in opened if w is button)
    assert state["description"] == "final" and state["_dom_classes"] == ("uu-x",)
    assert widgets.Widget.open is widget_module.Widget.open and box.comm is not None


def test_nested_blocks_open_at_the_end_of_the_outermost(messages):
    seen, _opened = messages
    with built_whole():
        outer = widgets.HTML("a")
        with built_whole():
            inner = widgets.HTML("b")
        assert inner.comm is None and seen["open"] == 0
    assert outer.comm is not None and inner.comm is not None


def test_a_failed_block_sends_nothing_and_leaves_widgets_as_usual(messages):
    seen, _opened = messages
    with pytest.raises(RuntimeError), built_whole():
        widgets.HTML("never shown")
        raise RuntimeError("build failed")
    assert seen["open"] == 0
    later = widgets.HTML("after")
    assert later.comm is not None and seen["open"] == 3, "outside a block a widget (and its layout, style) opens when made"


def test_the_app_and_its_screens_are_sent_without_updates(messages):
    seen, opened = messages
    app = App()
    assert seen["update"] == 0, "the home screen went out with follow-up updates"
    assert seen["open"] == len(opened) > 20
    first = app.lessons[0].id
    state = next(s for w, s in opened if w is app.home.lessons)
    assert "uu-lesson-list" in state["_dom_classes"] and state["rows"][0]["id"] == first
    assert state["rows"][0]["button"] == "Start"
    seen.clear()
    app.open_play()
    # the play screen in its own messages; then the app's children change (1) and the Home button shows (1)
    assert seen["update"] <= 2, seen


def test_text_that_never_changes_its_look_shares_one_layout_and_style(messages):
    """The home's HTML widgets share one default Layout and HTMLStyle, every button one ButtonStyle: fewer
    models to open, relay and draw (64 before on the home). A change to a shared one raises, so a screen
    that needs a look of its own cannot silently restyle every other widget."""
    seen, opened = messages
    app = App()
    html = [w for w, _s in opened if type(w) is widgets.HTML]
    assert len(html) >= 8 and len({id(w.layout) for w in html}) == 1 and len({id(w.style) for w in html}) == 1
    buttons = [w for w, _s in opened if isinstance(w, widgets.Button)]
    assert len(buttons) >= 4 and len({id(b.style) for b in buttons}) == 1
    assert len({id(b.layout) for b in buttons}) == len(buttons), "a button is shown and hidden by its own layout"
    assert seen["open"] <= 48, f"the home opened {seen['open']} widget models"
    with pytest.raises(RuntimeError, match="never changed"):
        html[0].layout.display = "none"
    with pytest.raises(RuntimeError, match="never changed"):
        buttons[0].style.button_color = "red"
    assert html[0].layout.display is None and buttons[0].style.button_color is None  # left as they were
    app.open_play()  # another screen built on the same shared ones
    assert app.play_screen is not None and app.play_screen.error_box.layout is html[0].layout
