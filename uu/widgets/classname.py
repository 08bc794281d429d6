"""`ClassNameBox`: on the home when the teacher runs the class view (`uu app --class`, uu/server/classroom.py): the
learner types the name their teacher knows them by, under a notice saying what the teacher then sees. Nothing
is reported before a name is given. CSS classes: uu-class-box, uu-class-name (the text box), uu-class-join,
uu-class-notice, uu-class-msg.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from uu.i18n import N_, _
from uu.render import esc
from uu.tutor.class_store import MAX_NAME
from uu.widgets.common import make_button, safe
from uu.widgets.host import AppHost

__all__ = ["NOTICE", "ClassNameBox"]

NOTICE = N_("Your teacher can see your progress in this class: your name, lesson, step, wrong moves and quiz "
            "results. It stays on this class's server; nothing else is kept.")


class ClassNameBox(widgets.VBox):
    def __init__(self, app: AppHost, **kwargs: Any):
        super().__init__(**kwargs)
        self.app = app
        self.add_class("uu-class-box")
        self.notice = widgets.HTML(f"<p class='uu-class-notice' role='note'><b>{esc(_(NOTICE))}</b></p>")
        self.name_input = widgets.Text(placeholder=_("Your name"), description=_("Your name:"),
                                       style={"description_width": "initial"})
        self.name_input.add_class("uu-class-name")
        self.join_button = make_button(_("Join the class"), "uu-class-join", self.on_join, style="primary",
                                       tooltip=_("At most {count} characters").format(count=MAX_NAME))
        self.msg = widgets.HTML()
        self.msg.add_class("uu-class-msg")
        self.children = [widgets.HTML("<h3>" + esc(_("Your class")) + "</h3>"), self.notice,
                         widgets.HBox([self.name_input, self.join_button],
                                      layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
                         self.msg]
        self.show_name(None)

    @safe
    def on_join(self, _b: object = None) -> None:
        name = str(self.name_input.value or "").strip()
        problem = self.app.set_learner_name(name)
        if problem:
            self.msg.value = f"<div class='uu-fb uu-fb-illegal' role='alert'>{esc(problem)}</div>"

    # what @safe calls around a callback
    def _set_error(self, message: str | None) -> None:
        if message:
            self.msg.value = f"<div class='uu-fb uu-fb-illegal' role='alert'>{esc(message)}</div>"

    def refresh(self) -> None:
        pass

    def show_name(self, name: str | None) -> None:
        if name is None:
            self.msg.value = "<div>" + esc(_("Type your name and press Join the class to start.")) + "</div>"
            return
        if self.name_input.value != name:
            self.name_input.value = name
        self.join_button.description = _("Change my name")
        self.msg.value = ("<div class='uu-fb uu-fb-right' role='status'>"
                          + esc(_("You are in the class as {name}.")).format(name=f"<b>{esc(name)}</b>") + "</div>")
