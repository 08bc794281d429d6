"""`LessonScreen`: one lesson on the live engine, driven by a `uu.tutor.runner.LessonRunner`.

The screen only renders what the runner and the engine offer: one button per legal action of the learner's
pending decision, labelled with `game.describe(action)` (the runner judges every click: right, illegal, or
legal but not what the step asks), one button per choice of a question, a Next button on page steps, and
Hint / Back / Restart. A legal move the step does not take is shown on the board as it would play out, marked
"taken back", until the learner's next click. When the lesson is done the screen shows its recap and the quiz
score. The narration is Markdown rendered safely (escaped first, uu.render.markdown_html); rules are shown in
a learner's words (uu.tutor.rulewords), never by id.

CSS classes for browser tests: uu-lesson, uu-lesson-<id>, uu-narration, uu-progress, uu-action, uu-choice,
uu-next, uu-hint, uu-hint-text, uu-back, uu-restart, uu-feedback, uu-coach, uu-preview-note, uu-recap,
uu-quiz-score, uu-home, uu-board, uu-log.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from uu.engine.actions import Action
from uu.render import esc, markdown_html, rules_html
from uu.tutor.runner import Feedback, LessonRunner
from uu.widgets.board import BoardView
from uu.widgets.common import STALE_CHOICE, ActionButtons, ScreenBase, make_button, safe

__all__ = ["LessonScreen"]

HIDDEN = "none"


class LessonScreen(ScreenBase):
    """A lesson: narration, the learner's moves as buttons, feedback, hint, back, next, restart, progress."""

    def __init__(self, runner: LessonRunner, on_home: Callable[[], Any] | None = None,
                 on_change: Callable[[LessonScreen], Any] | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.runner = runner
        self.on_home = on_home
        self.on_change = on_change
        self.feedback: Feedback | None = None
        self.hint_text: str | None = None
        self.new_from: int | None = None
        lid = runner.lesson.id
        self.add_class("uu-lesson")
        self.add_class(f"uu-lesson-{lid}")

        self.title = widgets.HTML()
        self.title.add_class("uu-lesson-title")
        self.progress_label = widgets.HTML()
        self.progress_label.add_class("uu-progress")
        self.narration = widgets.HTML()
        self.narration.add_class("uu-narration")
        self.actions_box = widgets.Box(layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        self.actions_box.add_class("uu-actions")
        self.move_head = widgets.HTML(layout=widgets.Layout(width="100%", display=HIDDEN))
        self.move_head.add_class("uu-prompt")
        self.choices = ActionButtons(self.actions_box, self.on_action, self.on_stale_choice,
                                     prefix=(self.move_head,))
        self.choice_buttons = [make_button("", "uu-choice", lambda _b, i=i: self.on_choice(i))
                               for i in range(1, 6)]
        self.choice_box = widgets.Box(self.choice_buttons,
                                      layout=widgets.Layout(flex_flow="row wrap", display=HIDDEN))
        self.choice_box.add_class("uu-choices")
        self.preview_note = widgets.HTML()
        self.preview_note.add_class("uu-preview-note")
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
        self.board_view = BoardView()

        self.children = [
            widgets.HBox([self.title, self.progress_label], layout=widgets.Layout(align_items="baseline")),
            self.narration,
            self.choice_box,
            self.actions_box,
            self.feedback_box,
            widgets.HBox([self.next_button, self.hint_button, self.back_button, self.restart_button,
                          self.home_button], layout=widgets.Layout(flex_flow="row wrap")),
            self.hint_box,
            self.error_box,
            self.preview_note,
            self.board_view,
        ]
        self.refresh()

    # ---- callbacks ---------------------------------------------------------------------------------
    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self)

    def _mark(self) -> None:
        self.new_from = len(self.runner.game.log)
        self.hint_text = None

    @safe
    def on_action(self, action: Action) -> None:
        start = len(self.runner.game.log)
        fb = self.runner.try_move(action)
        self.feedback = fb
        self.hint_text = None
        self.new_from = start if fb.log else self.new_from
        self._changed()

    @safe
    def on_choice(self, option: int) -> None:
        start = len(self.runner.game.log)
        fb = self.runner.choose(option)
        self.feedback = fb
        self.hint_text = None
        self.new_from = start if fb.log else self.new_from
        self._changed()

    @safe
    def on_stale_choice(self) -> None:
        self.feedback = Feedback(ok=False, kind="info", text=STALE_CHOICE)

    @safe
    def on_next(self, _b: Any = None) -> None:
        start = len(self.runner.game.log)
        fb = self.runner.next()
        self.feedback = fb if (fb.text or not fb.ok) else None
        self.hint_text = None
        self.new_from = start
        self._changed()

    @safe
    def on_hint(self, _b: Any = None) -> None:
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
    def button_for(self, action: Action | None) -> widgets.Button | None:
        """The action button standing for `action` (equal by names), or None."""
        for b, a in self.action_buttons:
            if action is not None and a == action:
                return b
        return None

    def click_answer(self) -> bool:
        """Click what the current step wants (Next on a page, the expected move's button otherwise)."""
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
        b = self.button_for(self.runner.answer())
        if b is None:
            return False
        b.click()
        return True

    # ---- drawing -----------------------------------------------------------------------------------
    @property
    def action_buttons(self) -> list[tuple[widgets.Button, Action]]:
        """(button, action) for every move on offer now (the spare pooled buttons are not included)."""
        return self.choices.shown

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
                b.layout.display = None if shown else HIDDEN
        self.choice_box.layout.display = None if question is not None else HIDDEN

        items: list[tuple[str, Action]] = []
        if st is not None and st.kind not in ("page", "question") and not r.stuck:
            d = r.game.pending
            items = [(r.describe(a), a) for a in r.learner_actions()]
            if d is not None and d.player == r.learner:
                prompt = d.prompt.removeprefix(f"{r.game.players[d.player]}: ")
                self.move_head.value = f"<b>Your move</b>: {esc(prompt)}"
            elif d is None:
                self.move_head.value = f"<b>The game is over</b>: {esc(r.game.result_text())}."
            else:
                self.move_head.value = f"Waiting for {esc(r.game.players[d.player])}."
            self.move_head.layout.display = None
        else:
            self.move_head.layout.display = HIDDEN
        self.choices.show(items)
        self.next_button.layout.display = None if (st is not None and st.kind == "page") else HIDDEN
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
        preview = fb.preview if fb is not None else None
        if preview is not None:
            self.preview_note.value = ("<div class='uu-fb uu-fb-info'><b>What that move would do</b> (taken back: "
                                       "the table below shows it; your next click goes on from before it)</div>")
            self.board_view.show(preview, r.learner, len(r.game.log))
        else:
            self.preview_note.value = ""
            self.board_view.show(r.game, r.learner, self.new_from)

    def _done_html(self) -> str:
        r = self.runner
        recap = "".join(f"<li>{esc(line)}</li>" for line in r.lesson.spec.recap)
        quiz = r.quiz_results
        score = (f"<p class='uu-quiz-score'>Quiz: {sum(quiz.values())} of {len(quiz)} right at the first try.</p>"
                 if quiz else "")
        return ("<div class='uu-done'><h3>Lesson complete!</h3>"
                + (f"<div class='uu-recap'><b>Remember</b><ul>{recap}</ul></div>" if recap else "")
                + score + "<p>Pick the next lesson, or press Restart to do this one again.</p></div>")
