"""`HomeScreen`: "Continue: <lesson>, step k" and "Play a game" first, then the lessons in reading order with
the learner's progress, a card finder and the sandbox.

It reads the lessons and their progress from the `App` (kept in the browser: uu/widgets/progress.py) and
calls back into it to open a screen. The lessons are one widget, `lessons` (uu/widgets/lessonlist.py: its
rows are data; `home.lessons.click(id)` does what the lesson's button does, `home.lessons.row(id)` is what the
row shows). CSS classes: uu-home-screen, uu-continue, uu-lesson-list, uu-lesson-row, uu-open-lesson,
uu-lesson-<id> (the button that opens that lesson), uu-lessons and uu-teacher-lessons (the course's and the
teacher's rows), uu-play, uu-open-sandbox, uu-forget ("Forget my progress": progress is kept in this browser,
see uu/widgets/progress.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from uu.cards.localized import card_name
from uu.i18n import N_, _
from uu.render import esc
from uu.widgets.common import ScreenBase, make_button, plain_html, safe
from uu.widgets.host import AppHost
from uu.widgets.lessonlist import BrokenNote, LessonList, LessonRow

if TYPE_CHECKING:
    from uu.tutor.folder import TeacherLesson
    from uu.tutor.lesson_model import Lesson

__all__ = ["HomeScreen", "STATUS_LABELS"]

# marked here, translated where shown (the language may change while the app runs)
STATUS_LABELS = {"done": (N_("done"), "uu-status-done"), "in progress": (N_("in progress"), "uu-status-progress"),
                 "not started": (N_("not started"), "uu-status-new")}
BUTTON_TEXT = {"done": N_("Review"), "in progress": N_("Continue"), "not started": N_("Start")}


class HomeScreen(ScreenBase):
    def __init__(self, app: AppHost, **kwargs: Any):
        super().__init__(**kwargs)
        self.app = app
        self.add_class("uu-home-screen")
        self.play_button = make_button(_("Play a game"), "uu-play", self.on_play, style="success",
                                       tooltip=_("A full game against 1 to 7 bots"))
        # the first thing on the home: where the learner left off, and a game
        self.continue_button = make_button("", ("uu-continue", "uu-role-next"), self.on_continue, style="primary")
        self.continue_button.layout.width = "auto"
        self.play_button.layout.width = "auto"
        top_buttons = [self.continue_button, self.play_button]
        # a table for several people, held by the app's server: only when the teacher runs `uu app --class`
        from uu.together.client import tables_offered

        if tables_offered():
            self.together_button = make_button(_("Play with others"), "uu-play-together", self.on_together,
                                               tooltip=_("One table for you, your classmates and bots"))
            self.together_button.layout.width = "auto"
            top_buttons.append(self.together_button)
        self.top = widgets.HBox(top_buttons,
                                layout=widgets.Layout(flex_flow="row wrap", margin="4px 0 8px"))
        self.top.add_class("uu-home-top")
        self.sandbox_button = make_button(_("Open the sandbox"), "uu-open-sandbox", self.on_sandbox,
                                          tooltip=_("Build any position, play on from it, branch, get hints"))
        self.forget_button = make_button(_("Forget my progress"), "uu-forget", self.on_forget, style="danger",
                                         tooltip=_("Every lesson back to not started; also forgotten by this browser"))
        # every lesson's row, the teacher's lessons included, drawn by one widget (uu/widgets/lessonlist.py)
        self.lessons = LessonList(on_open=self.on_open,
                                  labels={"lessons": _("Lessons"), "teacher": _("Your teacher’s lessons")})
        # the class view's name box (uu.widgets.classname), when the teacher runs `uu app --class`
        self.class_box = app.class_box()
        from uu.cards import catalog

        # the card's name in the learner's language; its value stays the English id
        names = sorted(((card_name(c.name), c.name) for c in catalog()), key=lambda x: x[0].casefold())
        self.card_finder = widgets.Dropdown(options=[(_("Pick a card…"), "")] + names,
                                            value="", description=_("Find a card:"),
                                            style={"description_width": "initial"})
        self.card_finder.add_class("uu-card-finder")
        self.card_finder.observe(self.on_find_card, names="value")
        self.card_found = plain_html(css="uu-card-found")
        self.intro = plain_html(
            "<h1 style='margin:4px 0'>" + esc(_("Unstable Unicorns: learn to play")) + "</h1>"
            "<p>" + esc(_("Learn by doing: each lesson asks you for moves on a live game, the rules engine checks "
                          "them, and every step says which rule is at work. Take the lessons in order, or jump in "
                          "anywhere.")) + "</p>")
        top = [self.class_box] if self.class_box is not None else []
        self.children = [self.intro, self.top, *top, self.error_box, self.lessons,
                         plain_html("<p>" + esc(_("Which lesson shows a card? Pick it here.")) + "</p>"),
                         widgets.HBox([self.card_finder, self.card_found],
                                      layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
                         plain_html("<h3>" + esc(_("What if…?")) + "</h3><p>"
                                      + esc(_("The sandbox: build any position, play on from it with undo and "
                                              "branches, see what each move would do, ask for a hint, and share "
                                              "the position as text.")) + "</p>"),
                         self.sandbox_button,
                         plain_html("<h3>" + esc(_("Your progress")) + "</h3><p>"
                                      + esc(_("Kept in this browser only (no account): it survives a reload or a "
                                              "new session.")) + "</p>"),
                         self.forget_button]
        self.refresh()

    @safe
    def on_open(self, lesson_id: str) -> None:
        self.app.navigate(self.app.open_lesson, lesson_id)

    def _row(self, lesson: Lesson) -> LessonRow:
        status = self.app.status(lesson.id)
        label, css = STATUS_LABELS[status]
        k, n = self.app.step_of(lesson.id)
        button = _(BUTTON_TEXT[status])
        return LessonRow(id=lesson.id, order=lesson.order, title=lesson.title, summary=lesson.spec.summary or "",
                         status=_(label), status_class=css,
                         where=_(" · step {step} of {steps}").format(step=k, steps=n) if status == "in progress" else "",
                         button=button, tooltip=_("{action}: {lesson}").format(action=button, lesson=lesson.title),
                         primary=status != "done")

    @staticmethod
    def _broken_note(item: TeacherLesson) -> BrokenNote:
        problem = (item.problem or "").replace(str(item.path.parent) + "/", "")  # no path of the teacher's machine
        # the sentence around the file's name, which is drawn in bold
        before, _file, after = _("{file} cannot be opened: {problem}").partition("{file}")
        return BrokenNote(file=item.path.name, before=before.replace("{problem}", problem),
                          after=after.replace("{problem}", problem))

    @safe
    def on_find_card(self, change: dict[str, Any]) -> None:
        self.card_found.value = self.lessons_showing(change["new"])

    def lessons_showing(self, card: str) -> str:
        """HTML naming the lessons that show `card` ("" for no card)."""
        if not card:
            return ""
        from uu.tutor.check import cards_shown

        found = [les for les in self.app.lessons if card in cards_shown(les)]
        if not found:
            return "<span>" + esc(_("No lesson shows {card} yet: try it in the sandbox.").format(
                card=card_name(card))) + "</span>"
        names = "; ".join(f"{les.order}. {les.title}" for les in found)
        return "<span>" + esc(_("{card} is shown in: {lessons}").format(card=card_name(card), lessons=names)) + "</span>"

    @safe
    def on_continue(self, _b: object = None) -> None:
        target = self.app.continue_target()
        if target is not None:
            self.app.navigate(self.app.open_lesson, target[0])

    @safe
    def on_forget(self, _b: object = None) -> None:
        self.app.navigate(self.app.forget)

    @safe
    def on_play(self, _b: object = None) -> None:
        self.app.navigate(self.app.open_play)

    @safe
    def on_together(self, _b: object = None) -> None:
        self.app.navigate(self.app.open_together)

    @safe
    def on_sandbox(self, _b: object = None) -> None:
        self.app.navigate(self.app.open_sandbox)

    def refresh(self) -> None:
        """Redraw the lessons with the learner's progress (the browser gets only what changed, if anything)."""
        rows: list[LessonRow] = []
        mine: list[LessonRow] = []
        for lesson in self.app.lessons:
            (mine if self.app.is_teacher_lesson(lesson.id) else rows).append(self._row(lesson))
        self.lessons.show(rows, mine, [self._broken_note(t) for t in self.app.teacher if t.lesson is None],
                          list(self.app.load_problems))
        target = self.app.continue_target()
        with self.continue_button.hold_sync():
            self.continue_button.description = target[1] if target else _("Every lesson is done: review any below")
            self.continue_button.tooltip = self.continue_button.description
            self.continue_button.disabled = target is None
