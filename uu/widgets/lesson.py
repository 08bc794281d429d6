"""`LessonScreen`: one lesson on the live engine, driven by a `uu.tutor.runner.LessonRunner`.

The screen only renders what the runner and the engine offer. The learner moves on the table
(`uu.table.widget.TableWidget`: the cards and places of their legal actions light up; the text list of moves
is one toggle away on the table), and the runner judges every move: right, or legal but not what the step
asks. A question's choices are buttons, a page step has Next, and there are Hint / Back / Restart. A legal move
the step does not take is shown on the table as it would play out, marked "taken back", with nothing to click
on it, until the learner presses "Back to my move" (or Hint, Back, Restart) and gets the live table again.
When the lesson is done the screen shows its recap and the quiz score. The narration is Markdown rendered
safely (escaped first, uu.render.markdown_html); rules are shown in a learner's words (uu.tutor.rulewords).

CSS classes for browser tests: uu-lesson, uu-lesson-<id>, uu-narration, uu-progress, uu-choice, uu-next,
uu-hint, uu-hint-text, uu-back, uu-restart, uu-feedback, uu-coach, uu-preview-note, uu-preview-back,
uu-recap, uu-quiz-score, uu-home, uu-table (the table: its data-* contract is in uu/table/table.js).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from uu.engine.actions import Action
from uu.render import esc, markdown_html, rules_html
from uu.table.observation import legal_actions, observe
from uu.table.widget import TableWidget
from uu.tutor.runner import Feedback, LessonRunner
from uu.widgets.common import ScreenBase, make_button, safe

__all__ = ["LessonScreen"]

STALE_CLICK = ("That click was made on an older table (the screen had not caught up with your previous move "
               "yet). Nothing was changed: choose again on the table shown now.")

HIDDEN = "none"
# shown: the default display, sent as "" (a trait set back to None never reaches the browser under the
# Pyodide kernel of the static build, docs/static-build.md)
SHOWN = ""


class LessonScreen(ScreenBase):
    """A lesson: narration, the table to move on, feedback, hint, back, next, restart, progress."""

    def __init__(self, runner: LessonRunner, on_home: Callable[[], Any] | None = None,
                 on_change: Callable[[LessonScreen], Any] | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.runner = runner
        self.on_home = on_home
        self.on_change = on_change
        self.feedback: Feedback | None = None
        self.hint_text: str | None = None
        # a wrong move's consequence is on the table until the learner asks for the live table again
        self.showing_preview = False
        lid = runner.lesson.id
        self.add_class("uu-lesson")
        self.add_class(f"uu-lesson-{lid}")

        self.title = widgets.HTML()
        self.title.add_class("uu-lesson-title")
        self.progress_label = widgets.HTML()
        self.progress_label.add_class("uu-progress")
        self.narration = widgets.HTML()
        self.narration.add_class("uu-narration")
        self.choice_buttons = [make_button("", "uu-choice", functools.partial(self._on_choice_click, i))
                               for i in range(1, 6)]
        self.choice_box = widgets.Box(self.choice_buttons,
                                      layout=widgets.Layout(flex_flow="row wrap", display=HIDDEN))
        self.choice_box.add_class("uu-choices")
        self.preview_note = widgets.HTML()
        self.preview_note.add_class("uu-preview-note")
        self.preview_back = make_button("Back to my move", "uu-preview-back", self.on_preview_back,
                                        style="primary", tooltip="Take that move back and show the live table")
        self.preview_back.layout.display = HIDDEN
        self.next_button = make_button("Next", "uu-next", self.on_next, style="primary")
        self.feedback_box = widgets.HTML()
        self.feedback_box.add_class("uu-feedback")
        self.hint_button = make_button("Hint", "uu-hint", self.on_hint, style="info")
        self.hint_box = widgets.HTML()
        self.hint_box.add_class("uu-hint-text")
        self.back_button = make_button("Back", "uu-back", self.on_back, tooltip="Back to the start of this step")
        self.restart_button = make_button("Restart", "uu-restart", self.on_restart, style="warning",
                                          tooltip="Start this lesson again")
        self.home_button = make_button("All lessons", ("uu-home", "uu-lesson-home"), self.on_home_click)
        if on_home is None:
            self.home_button.layout.display = HIDDEN
        self.table = TableWidget(on_choose=self.on_table_choice, on_refused=self.on_stale_choice)
        self.table.add_class("uu-table")

        self.children = [
            widgets.HBox([self.title, self.progress_label], layout=widgets.Layout(align_items="baseline")),
            self.narration,
            self.choice_box,
            self.feedback_box,
            widgets.HBox([self.next_button, self.hint_button, self.back_button, self.restart_button,
                          self.home_button], layout=widgets.Layout(flex_flow="row wrap")),
            self.hint_box,
            self.error_box,
            self.preview_note,
            self.preview_back,
            self.table,
        ]
        self.refresh()

    # ---- callbacks ---------------------------------------------------------------------------------
    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self)

    def _mark(self) -> None:
        self.hint_text = None
        self.showing_preview = False

    @safe
    def on_table_choice(self, index: int) -> None:
        """A move chosen on the table: `index` names one of the live game's legal actions (the table offers
        no move while it shows a preview, and TableWidget refuses a click made on an older table)."""
        self._move(self.runner.game.legal_actions[index])

    @safe
    def on_action(self, action: Action) -> None:
        """A move given as an Action (a notebook, a test): judged exactly as a click on the table."""
        self._move(action)

    def _move(self, action: Action) -> None:
        fb = self.runner.try_move(action)
        self.feedback = fb
        self._mark()
        self.showing_preview = fb.preview is not None
        self._changed()

    def _on_choice_click(self, option: int, _button: Any) -> None:
        self.on_choice(option)

    @safe
    def on_choice(self, option: int) -> None:
        self.feedback = self.runner.choose(option)
        self._mark()
        self._changed()

    @safe
    def on_stale_choice(self) -> None:
        self.feedback = Feedback(ok=False, kind="info", text=STALE_CLICK)

    @safe
    def on_preview_back(self, _b: Any = None) -> None:
        self.showing_preview = False

    @safe
    def on_next(self, _b: Any = None) -> None:
        fb = self.runner.next()
        self.feedback = fb if (fb.text or not fb.ok) else None
        self._mark()
        self._changed()

    @safe
    def on_hint(self, _b: Any = None) -> None:
        self.showing_preview = False
        self.hint_text = self.runner.hint()

    @safe
    def on_back(self, _b: Any = None) -> None:
        self.runner.back()
        self.feedback = None
        self._mark()
        self._changed()

    @safe
    def on_restart(self, _b: Any = None) -> None:
        self.runner.restart()
        self.feedback = None
        self._mark()
        self._changed()

    @safe
    def on_home_click(self, _b: Any = None) -> None:
        if self.on_home is not None:
            self.on_home()

    def choice_for(self, option: int) -> widgets.Button | None:
        """The button of a question's choice number `option` (from 1), when a question is asked."""
        st = self.runner.step
        if st is None or st.question is None or not 1 <= option <= len(st.question.options):
            return None
        return self.choice_buttons[option - 1]

    # ---- driving it from Python (tests, notebooks) ---------------------------------------------------
    @property
    def moves(self) -> list[Action]:
        """The moves the table offers now, in the order of their ids (none on a preview or a page)."""
        legal = self.runner.game.legal_actions
        return [legal[a["id"]] for a in self.table.actions]

    def click_move(self, action: Action | None) -> bool:
        """What a click on the table does for `action` (equal by names): True if the table offered it."""
        for a in self.table.actions:
            if action is not None and self.runner.game.legal_actions[a["id"]] == action:
                return self.table.choose(a["id"], self.table.version)
        return False

    def click_answer(self) -> bool:
        """Click what the current step wants (Next on a page, the expected move on the table otherwise)."""
        st = self.runner.step
        if st is None:
            return False
        if st.kind == "page":
            self.next_button.click()
            return True
        if st.question is not None:
            c = self.choice_for(st.question.answer)
            if c is None:
                return False
            c.click()
            return True
        if self.showing_preview:
            self.preview_back.click()
        return self.click_move(self.runner.answer())

    # ---- drawing -----------------------------------------------------------------------------------
    def refresh(self) -> None:
        r = self.runner
        k, n = r.progress
        st = r.step
        self.title.value = f"<h2 style='margin:4px 0'>{esc(r.lesson.title)}</h2>"
        self.progress_label.value = (f"<span class='uu-progress-text'>Step {k} of {n}"
                                     f"{' · lesson complete' if r.done else ''}</span>")
        if st is None:
            self.narration.value = self._done_html()
        else:
            self.narration.value = markdown_html(st.say) + rules_html(st.rules, "The rules in this step")
        question = st.question if st is not None and not r.stuck else None
        for i, b in enumerate(self.choice_buttons, 1):
            shown = question is not None and i <= len(question.options)
            with b.hold_sync():
                b.description = question.options[i - 1] if question is not None and shown else ""
                b.layout.display = SHOWN if shown else HIDDEN
        self.choice_box.layout.display = SHOWN if question is not None else HIDDEN
        self.next_button.layout.display = SHOWN if (st is not None and st.kind == "page") else HIDDEN
        self.hint_button.disabled = st is None

        fb = self.feedback
        if fb is None:
            self.feedback_box.value = ""
        else:
            label = {"right": "Right!", "illegal": "Not allowed", "other": "Not this one",
                     "info": ""}[fb.kind]
            rules = rules_html(fb.rules, "The rule" if fb.kind in ("illegal", "other") else "Rules",
                               open_=fb.kind in ("illegal", "other"))
            body = markdown_html(fb.text) if fb.text else ""
            head = f"<b>{esc(label)}</b>" if label else ""
            coach = (f"<div class='uu-coach'><b>Coach</b>{markdown_html(fb.coach)}</div>" if fb.coach else "")
            self.feedback_box.value = (f"<div class='uu-fb uu-fb-{esc(fb.kind)}' role='status'>{head}{body}"
                                       f"{coach}{rules}</div>")
        self.hint_box.value = ("" if not self.hint_text else
                               f"<div class='uu-fb uu-fb-info'><b>Hint</b>{markdown_html(self.hint_text)}</div>")
        preview = fb.preview if fb is not None and self.showing_preview else None
        if preview is not None:
            self.preview_note.value = ("<div class='uu-fb uu-fb-info'><b>What that move would do</b> (taken back: "
                                       "the table below shows it. Press \"Back to my move\" to choose again "
                                       "from before it.)</div>")
            self.preview_back.layout.display = SHOWN
            self.table.set_table(observe(preview, r.learner), [])  # a picture: nothing on it can be chosen
        else:
            self.preview_note.value = ""
            self.preview_back.layout.display = HIDDEN
            moving = st is not None and st.kind not in ("page", "question") and not r.stuck
            self.table.set_table(observe(r.game, r.learner),
                                 legal_actions(r.game, r.learner) if moving else [])

    def _done_html(self) -> str:
        r = self.runner
        recap = "".join(f"<li>{esc(line)}</li>" for line in r.lesson.spec.recap)
        quiz = r.quiz_results
        score = (f"<p class='uu-quiz-score'>Quiz: {sum(quiz.values())} of {len(quiz)} right at the first try.</p>"
                 if quiz else "")
        return ("<div class='uu-done'><h3>Lesson complete!</h3>"
                + (f"<div class='uu-recap'><b>Remember</b><ul>{recap}</ul></div>" if recap else "")
                + score + "<p>Pick the next lesson, or press Restart to do this one again.</p></div>")
