"""`LessonScreen`: one lesson on the live engine, driven by a `uu.tutor.lesson_runner.LessonRunner`.

The screen only renders what the runner and the engine offer. The learner moves on the table
(`uu.table.widget.TableWidget`: the cards and places of their legal actions light up; the text list of moves
is one toggle away on the table), and the runner judges every move: right, or legal but not what the step
asks. A question's choices are buttons, a page step has Next, and there are Hint / Back / Restart. A legal move
the step does not take is shown on the table itself as it would play out, under a marked "What would happen"
banner with "Try again" (`GameTable` banner), with nothing to click on it, until the learner presses Try
again (or Hint, Back, Restart) and gets the live table again. When the lesson is done the panel ends on a
card: the recap, the quiz result and "Next lesson". The narration is Markdown rendered safely (escaped
first, uu.render.markdown_html); rules are shown in a learner's words (uu.words.rulewords).

Layout (uu/widgets/screen.css): the panel (narration, the step's prompt, choices, feedback, buttons) beside
the table on a wide screen and as a bottom sheet on a phone; the page itself never scrolls.

Contract for browser tests (docs/architecture.md): data-role="prompt" (the step's instruction or question),
"choice" (each answer), "next" (Next, Next lesson), "feedback" (the answer to the last move); CSS classes
uu-lesson, uu-lesson-<id>, uu-narration, uu-progress, uu-choice, uu-next, uu-next-lesson, uu-hint,
uu-hint-text, uu-back, uu-restart, uu-feedback, uu-coach, uu-recap, uu-quiz-score, uu-home, uu-review-game (after a lesson with a game: "Review my game"), uu-table (the
table: its data-* contract is in uu/table/table.js).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from uu.engine.actions import Action
from uu.i18n import N_, _
from uu.render import esc, markdown_html, rules_html
from uu.table.seat_view import legal_actions
from uu.tutor.lesson_model import ScriptStep
from uu.widgets.common import ScreenBase, make_button, safe
from uu.widgets.gametable import STALE_CLICK, GameTable
from uu.widgets.review import ReviewScreen
from uu.words.lesson_refusals import Feedback, LessonRunner

__all__ = ["LessonScreen", "split_prompt"]

HIDDEN = "none"
# shown: the default display, sent as "" (a trait set back to None never reaches the browser under the
# Pyodide kernel of the static build, docs/static-build.md)
SHOWN = ""
PREVIEW_TITLE = N_("What would happen")
PREVIEW_TEXT = N_("That move is legal, but not what this step asks. The table shows what it would do (the cards it "
                  "moved are marked); it was taken back.")
# the label over a feedback, by its kind
FEEDBACK_LABELS = {"right": N_("Right!"), "illegal": N_("Not allowed"), "other": N_("Not this one"), "info": ""}


def split_prompt(say: str) -> tuple[str, str]:
    """(the narration before the step's instruction, the instruction): the instruction is the last paragraph."""
    paras = [p for p in (say or "").strip().split("\n\n") if p.strip()]
    if len(paras) < 2:
        return "", "\n\n".join(paras)
    return "\n\n".join(paras[:-1]), paras[-1]


class LessonScreen(ScreenBase):
    """A lesson: narration, the table to move on, feedback, hint, back, next, restart, progress."""

    def __init__(self, runner: LessonRunner, on_home: Callable[[], object] | None = None,
                 on_change: Callable[[LessonScreen], object] | None = None,
                 next_lesson: tuple[str, Callable[[], object]] | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.runner = runner
        self.on_home = on_home
        self.on_change = on_change
        # (title, open it): the end card's "Next lesson"; None for the last lesson (or outside the App)
        self.next_lesson = next_lesson
        self.feedback: Feedback | None = None
        self.feedback_step = 0  # the step number the feedback is about (a right answer moves the lesson on)
        self.hint_text: str | None = None
        # a wrong move's consequence is on the table until the learner asks for the live table again
        self.showing_preview = False
        lid = runner.lesson.id
        self.add_class("uu-lesson")
        self.add_class(f"uu-lesson-{lid}")
        self.add_class("uu-game-screen")

        self.title = widgets.HTML()
        self.title.add_class("uu-lesson-title")
        self.progress_label = widgets.HTML()
        self.progress_label.add_class("uu-progress")
        self.narration = widgets.HTML()
        self.narration.add_class("uu-narration")
        # the step's instruction or question (data-role="prompt"): outside the narration's scrolling box,
        # so that it stays in view however long the narration
        self.task = widgets.HTML()
        self.task.add_class("uu-task-box")
        self.choice_buttons = [make_button("", ("uu-choice", "uu-role-choice"),
                                           functools.partial(self._on_choice_click, i)) for i in range(1, 6)]
        self.choice_box = widgets.Box(self.choice_buttons,
                                      layout=widgets.Layout(flex_flow="row wrap", display=HIDDEN))
        self.choice_box.add_class("uu-choices")
        self.preview_note = widgets.HTML()
        self.preview_note.add_class("uu-preview-note")
        # "Try again" is drawn on the table (its banner); this button does the same from Python
        self.preview_back = make_button(_("Try again"), "uu-preview-back", self.on_preview_back,
                                        style="primary", tooltip=_("Take that move back and show the live table"))
        self.preview_back.layout.display = HIDDEN
        self.next_button = make_button(_("Next"), ("uu-next", "uu-role-next"), self.on_next, style="primary")
        self.next_lesson_button = make_button(_("Next lesson"), ("uu-next-lesson", "uu-role-next"),
                                              self.on_next_lesson, style="success")
        self.next_lesson_button.layout.display = HIDDEN
        self.feedback_box = widgets.HTML()
        self.feedback_box.add_class("uu-feedback")
        self.hint_button = make_button(_("Hint"), "uu-hint", self.on_hint, style="info")
        self.hint_box = widgets.HTML()
        self.hint_box.add_class("uu-hint-text")
        self.back_button = make_button(_("Back"), "uu-back", self.on_back, tooltip=_("Back to the start of this step"))
        self.restart_button = make_button(_("Restart"), "uu-restart", self.on_restart, style="warning",
                                          tooltip=_("Start this lesson again"))
        self.home_button = make_button(_("All lessons"), ("uu-home", "uu-lesson-home"), self.on_home_click)
        if on_home is None:
            self.home_button.layout.display = HIDDEN
        self.game_table = GameTable(self.on_table_choice, self.on_stale_choice, prompt_here=False)
        self.game_table.widget.on_banner = self.on_preview_back
        self.table = self.game_table.widget

        head = widgets.HBox([self.title, self.progress_label])
        head.add_class("uu-panel-head")
        # a lesson with a game (the guided game): once it is done, the review of the learner's game
        self.review_button = make_button(_("Review my game"), "uu-review-game", self.on_review, style="success",
                                         tooltip=_("Grade each of your decisions and find the turning points"))
        self.review_box = widgets.VBox()
        buttons = widgets.HBox([self.next_button, self.next_lesson_button, self.review_button, self.hint_button,
                                self.back_button, self.restart_button, self.home_button])
        buttons.add_class("uu-panel-buttons")
        self.panel = widgets.VBox([head, self.narration, self.task, self.choice_box, self.feedback_box, self.hint_box,
                                   self.error_box, buttons, self.review_box])
        self.panel.add_class("uu-panel")
        self.children = [self.panel, self.table]
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
        # the referee is called from here, not through on_action: a click's path to the engine stays short
        # (docs/architecture.md, tests/test_click_path.py)
        step = self.runner.progress[0]
        self._moved(step, self.runner.try_move(self.runner.game.legal_actions[index]))

    @safe
    def on_action(self, action: Action) -> None:
        """A move given as an Action (a notebook, a test): judged exactly as a click on the table."""
        step = self.runner.progress[0]
        self._moved(step, self.runner.try_move(action))

    def _moved(self, step: int, fb: Feedback) -> None:
        """The referee's answer `fb` to a move made at step `step`, shown."""
        self.feedback, self.feedback_step = fb, step
        self._mark()
        self.showing_preview = fb.preview is not None
        self._changed()

    def _on_choice_click(self, option: int, _button: object) -> None:
        self.on_choice(option)

    @safe
    def on_choice(self, option: int) -> None:
        step = self.runner.progress[0]
        self.feedback = self.runner.choose(option)
        self.feedback_step = step
        self._mark()
        self._changed()

    @safe
    def on_stale_choice(self) -> None:
        self.feedback = Feedback(ok=False, kind="info", text=_(STALE_CLICK))

    @safe
    def on_preview_back(self, _b: object = None) -> None:
        self.showing_preview = False

    @safe
    def on_next(self, _b: object = None) -> None:
        step = self.runner.progress[0]
        fb = self.runner.next()
        self.feedback = fb if (fb.text or not fb.ok) else None
        self.feedback_step = step
        self._mark()
        self._changed()

    @safe
    def on_hint(self, _b: object = None) -> None:
        self.showing_preview = False
        self.hint_text = self.runner.hint()

    @safe
    def on_back(self, _b: object = None) -> None:
        self.runner.back()
        self.feedback = None
        self._mark()
        self._changed()

    @safe
    def on_restart(self, _b: object = None) -> None:
        self.runner.restart()
        self.feedback = None
        self._mark()
        self._changed()

    @safe
    def on_next_lesson(self, _b: object = None) -> None:
        if self.next_lesson is not None:
            self.next_lesson[1]()

    @safe
    def on_home_click(self, _b: object = None) -> None:
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

    @safe
    def on_review(self, _b: object = None) -> None:
        r = self.runner
        if r.record is None or not r.done:
            raise ValueError(_("the review is for the lesson's game, once the lesson is complete"))
        r.record.finish(r.game)
        self.review_box.children = (ReviewScreen(r.record, r.learner),)

    # ---- drawing -----------------------------------------------------------------------------------
    def refresh(self) -> None:
        r = self.runner
        self.review_button.layout.display = SHOWN if (r.done and r.record is not None) else HIDDEN
        if not r.done:
            self.review_box.children = ()
        k, n = r.progress
        st = r.step
        self.title.value = f"<h2 class='uu-lesson-h'>{esc(r.lesson.title)}</h2>"
        words = (_("Step {step} of {steps} · lesson complete") if r.done else _("Step {step} of {steps}"))
        self.progress_label.value = f"<span class='uu-progress-text'>{esc(words.format(step=k, steps=n))}</span>"
        if st is None:
            self.narration.value, self.task.value = "", self._done_html()
        else:
            self.narration.value, self.task.value = self._step_html(st)
        self.narration.layout.display = SHOWN if self.narration.value else HIDDEN
        if st is None:
            self.task.add_class("uu-task-done")
        else:
            self.task.remove_class("uu-task-done")
        question = st.question if st is not None and not r.stuck else None
        for i, b in enumerate(self.choice_buttons, 1):
            shown = question is not None and i <= len(question.options)
            with b.hold_sync():
                b.description = question.options[i - 1] if question is not None and shown else ""
                b.layout.display = SHOWN if shown else HIDDEN
        self.choice_box.layout.display = SHOWN if question is not None else HIDDEN
        self.next_button.layout.display = SHOWN if (st is not None and st.kind == "page") else HIDDEN
        done_next = r.done and self.next_lesson is not None
        self.next_lesson_button.layout.display = SHOWN if done_next else HIDDEN
        if done_next and self.next_lesson is not None:
            self.next_lesson_button.tooltip = _("Next lesson: {title}").format(title=self.next_lesson[0])
        self.hint_button.layout.display = HIDDEN if st is None else SHOWN
        self.back_button.layout.display = HIDDEN if st is None else SHOWN
        self.hint_button.disabled = st is None
        self.feedback_box.value = self._feedback_html(k)
        self.hint_box.value = ("" if not self.hint_text else
                               "<div class='uu-fb uu-fb-info'><b>" + esc(_("Hint")) + f"</b>{markdown_html(self.hint_text)}</div>")
        fb = self.feedback
        preview = fb.preview if fb is not None and self.showing_preview else None
        # the banner and its table in one message: a Try again pressed between them named the older table's
        # version and was ignored (the screen explorer of issue 38 met it on a phone)
        with self.table.hold_sync():
            if preview is not None:
                self.preview_note.value = ("<div class='uu-fb uu-fb-info'>" + esc(_(
                    "What that move would do is on the table, taken back: press Try again there to choose again."))
                    + "</div>")
                self.preview_back.layout.display = SHOWN
                self.table.banner = {"kind": "preview", "title": _(PREVIEW_TITLE), "text": _(PREVIEW_TEXT),
                                     "button": _("Try again")}
                self.game_table.show(preview, r.learner, [])  # a picture: nothing on it can be chosen
            else:
                self.preview_note.value = ""
                self.preview_back.layout.display = HIDDEN
                self.table.banner = {}
                moving = st is not None and st.kind not in ("page", "question") and not r.stuck
                self.game_table.show_session(r.session, r.learner, legal_actions(r.game, r.learner) if moving else [])

    def _step_html(self, st: ScriptStep) -> tuple[str, str]:
        """(the narration before the step's instruction, with the step's rules; the instruction, marked as
        the prompt)."""
        before, prompt = split_prompt(st.say)
        label = ""
        quiz = [i for i, x in enumerate(self.runner.lesson.script) if x.quiz]
        if self.runner.index in quiz:
            label = ("<div class='uu-quiz-label'>" + esc(_("Question {number} of {count}").format(
                number=quiz.index(self.runner.index) + 1, count=len(quiz))) + "</div>")
        # tabindex: a box that may scroll can be reached and scrolled from the keyboard
        return (f"<div class='uu-say' tabindex='0'>{markdown_html(before)}</div>"
                + rules_html(st.rules, _("The rules in this step")),
                f"<div class='uu-task' data-role='prompt' tabindex='0'>{label}{markdown_html(prompt)}</div>")

    def _feedback_html(self, k: int) -> str:
        fb = self.feedback
        if fb is None:
            return ""
        label = _(FEEDBACK_LABELS[fb.kind]) if FEEDBACK_LABELS.get(fb.kind) else ""
        if label and fb.text.lstrip().startswith(label):
            label = ""  # the text says it already ("Right! ...")
        if self.feedback_step != k:  # the step changed: this is about the last one, and says so
            label = (_("Step {step}: {label}").format(step=self.feedback_step, label=label) if label else
                     _("Step {step}:").format(step=self.feedback_step))
        label_rules = _("The rule") if fb.kind in ("illegal", "other") else _("Rules")
        rules = rules_html(fb.rules, label_rules)
        if rules and fb.kind in ("illegal", "other"):
            # open beside the table on a wide screen; folded on a phone (screen.css shows one of the two), where
            # the open rules would push the feedback's own sentence out of the bottom sheet
            rules = (f"<div class='uu-wide-only'>{rules_html(fb.rules, label_rules, open_=True)}</div>"
                     f"<div class='uu-phone-only'>{rules}</div>")
        body = markdown_html(fb.text) if fb.text else ""
        head = f"<b>{esc(label)}</b>" if label else ""
        coach = f"<div class='uu-coach'><b>Coach</b>{markdown_html(fb.coach)}</div>" if fb.coach else ""
        return (f"<div class='uu-fb uu-fb-{esc(fb.kind)}' role='status' data-role='feedback' tabindex='0'>{head}{body}"
                f"{coach}{rules}</div>")

    def quiz_score(self) -> tuple[int, int]:
        """(quiz steps right at the first try, quiz steps in the lesson)."""
        total = sum(1 for x in self.runner.lesson.script if x.quiz)
        return sum(1 for ok in self.runner.quiz_first.values() if ok), total

    def _done_html(self) -> str:
        r = self.runner
        recap = "".join(f"<li>{esc(line)}</li>" for line in r.lesson.spec.recap)
        right, total = self.quiz_score()
        score = ("<p class='uu-quiz-score'>" + esc(_("Quiz: {right} of {total} right at the first try.").format(
            right=right, total=total)) + "</p>" if total else "")
        after = (esc(_("Next: {title}.")).format(title=f"<b>{esc(self.next_lesson[0])}</b>")
                 if self.next_lesson is not None else
                 esc(_("Pick another lesson from Home, or press Restart to do this one again.")))
        return ("<div class='uu-done' tabindex='0'><div class='uu-done-head' data-role='prompt'><h3>"
                + esc(_("Lesson complete!")) + "</h3>" + score + f"<p>{after}</p></div>"
                + ("<div class='uu-recap' tabindex='0'><b>" + esc(_("Remember")) + f"</b><ul>{recap}</ul></div>" if recap else "")
                + "</div>")
