"""`App`: the whole tutor in one widget. Home, lesson and play screens switch inside one kernel (one VBox
whose children change), so Voila serves a single notebook.

    app = App()                  # the home screen
    app = App(start="setup")     # straight into a lesson (by id); App(start="play") for a game,
                                 # App(start="sandbox") for the what-if sandbox
    app.open_lesson("neigh"); app.open_play(); app.open_sandbox(); app.show_home()
    app.screen                   # the screen shown now (HomeScreen, LessonScreen, PlayScreen or SandboxScreen)
    app.status("setup")          # "not started" | "in progress" | "done"
    app.forget()                 # "Forget my progress": here and in the browser

Progress (each lesson's status, recorded answers and quiz results, the play settings) is kept in the browser's
localStorage by `app.store` (uu/widgets/progress.py) and restored when a page opens, so it outlives a reload,
a culled kernel or an ended Binder session. A saved lesson is replayed only when it is opened.

Lesson screens, the game and the sandbox are kept while the App lives: leaving one and coming back resumes it.

Language (uu/widgets/language.py): `App(lang="fr")` or the class default (`uu app --lang`) until the browser
reports; then a link's `?lang=`, the learner's saved choice, the class default or the browser's language, in
that order. `app.set_lang("de")` (the picker on every screen) changes every word and keeps the learner where
they are: each open lesson is rebuilt on its translation (`uu.tutor.translation.translated_lesson`) and
replayed to the same step, the game in progress replayed to the same move, the sandbox reopened on the same
position.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from uu.engine.actions import Action
from uu.i18n import _, current_language, normalize, set_language
from uu.render import esc
from uu.scenario.link import LinkError, link_query, position_text
from uu.scenario.record import GameRecord
from uu.together.client import TableClient, tables_offered, tables_url
from uu.tutor.check import shipped_lessons
from uu.tutor.folder import TeacherLesson, check_folder, lessons_folder
from uu.tutor.lesson_model import Lesson, LessonFileError, load_lesson
from uu.tutor.translation import translated_lesson
from uu.widgets.classreport import class_reporter, name_problem, quiz_summary
from uu.widgets.common import (
    ScreenBase,
    built_whole,
    error_html,
    make_button,
    plain_html,
    readable,
    style_widget,
)
from uu.widgets.home import HomeScreen
from uu.widgets.language import choose_language, class_default, language_picker, link_language
from uu.widgets.lesson import LessonScreen
from uu.widgets.play import PlayScreen, PlaySettings
from uu.widgets.progress import (
    GameSaved,
    LessonSaved,
    ProgressStore,
    Saved,
    TableSaved,
    decode_history,
    encode_history,
)
from uu.widgets.relanguage import rebuild_in_language
from uu.widgets.review import ReviewScreen
from uu.widgets.sandbox import SandboxScreen
from uu.widgets.together import TogetherScreen
from uu.words.lesson_refusals import LessonRunner

if TYPE_CHECKING:
    from uu.widgets.classname import ClassNameBox

log = logging.getLogger(__name__)

__all__ = ["App"]


class App(widgets.VBox):
    def __init__(self, start: str = "home", lessons: list[Lesson] | list[str | Path] | None = None,
                 delay: float = 0.9, lang: str | None = None, **kwargs: Any):
        # the language until the browser says more: the one asked for, else the link's ?lang= when the server
        # passed the page's query to this kernel (Voila sets QUERY_STRING), else the class default (uu app --lang)
        query = os.environ.get("QUERY_STRING", "")
        set_language(normalize(lang) or link_language(f"?{query}" if query else None) or class_default() or "en")
        with built_whole():  # the whole app in one message per widget
            self._build(start, lessons, delay, **kwargs)

    def __repr__(self) -> str:  # display() adds a text form; ipywidgets' walks every widget (10 ms a page)
        return f"<uu App on {type(getattr(self, 'screen', None)).__name__}>"

    def _build(self, start: str, lessons: list[Any] | None, delay: float, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # the language the learner chose (picker or link), kept with the progress; None: not chosen
        self.lang_chosen: str | None = None
        # each lesson's English source (a file, or a Lesson given as is): translations are loaded from it
        self._sources: list[Lesson | str | Path] = []
        self.add_class("uu-app")
        self.add_class("uu-root")
        self.delay = delay
        self.error: str | None = None
        self.error_box = plain_html(css="uu-error")
        self.lessons: list[Lesson] = []
        self.load_problems: list[str] = []
        # the teacher's own lessons (uu.tutor.folder): playable ones are in self.lessons too
        self.teacher: list[TeacherLesson] = []
        self._load(lessons)
        if lessons is None:
            self._load_teacher()
        self.progress: dict[str, str] = {}
        # restored from the browser, for lessons not opened yet (replayed by open_lesson) and the play screen
        self.saved: dict[str, LessonSaved] = {}
        self.play_saved: PlaySettings | None = None
        self.game_saved: GameSaved | None = None  # the game in progress the browser kept, until it is reopened
        self.last_lesson: str | None = None  # the lesson opened last: the home's "Continue"
        self.store = ProgressStore(on_restore=self.restore, on_page=self.open_link, on_language=self._browser_language,
                                   on_taken=self._browser_taken)
        # the class view (uu/tutor/hubreport.py): None unless the teacher runs `uu app --class` or the hub has it
        self.classroom = class_reporter() if lessons is None else None
        self._class_box: ClassNameBox | None = None
        # where the learner is ((lesson id, step) or a screen's name), since when; wrong moves per step (kept)
        self._on_step: tuple[str, int] | str | None = None
        self._step_since = 0.0
        self._wrong: dict[tuple[str, int], int] = {}
        self.page_url: str | None = None  # the page's address (origin and path), once the browser said it
        self.lesson_screens: dict[str, LessonScreen] = {}
        self.play_screen: PlayScreen | None = None
        self.sandbox_screen: SandboxScreen | None = None
        self.review_screen: ReviewScreen | None = None
        self.together_screen: TogetherScreen | None = None  # "Play with others" (only with `uu app --class`)
        self.table_saved: TableSaved | None = None  # the seat the browser kept, until the screen is opened
        self.home_button = make_button(_("Home"), ("uu-home", "uu-nav-home"), self._nav_home,
                                       tooltip=_("All lessons and the game"))
        # with the class view, every screen says the teacher sees this learner's progress (once named)
        self.class_label = plain_html(css="uu-class-label")
        self.lang_picker = language_picker(lambda lang: self._guard(self.set_lang, lang, True))
        spacer = widgets.Box(layout=widgets.Layout(flex="1 1 auto"))
        self.nav = widgets.HBox([self.home_button, self.class_label, spacer, self.lang_picker],
                                layout=widgets.Layout(align_items="center"))
        self.nav.add_class("uu-nav")
        self.home = HomeScreen(self)
        self.screen: ScreenBase = self.home
        self.style_html = style_widget()
        self._show(self.home)
        self._guard(self._open_start, start)

    # ---- lessons and progress -------------------------------------------------------------------------
    def _load(self, lessons: list[Any] | None) -> None:
        sources = shipped_lessons() if lessons is None else lessons
        for src in sources:
            if isinstance(src, Lesson):
                self.lessons.append(src)
                self._sources.append(src)
                continue
            try:
                self.lessons.append(self._in_language(src))
                self._sources.append(src)
            except Exception as e:
                log.exception("cannot load lesson %s", src)
                self.load_problems.append(_("A lesson could not be loaded: {problem}").format(problem=e))
        self.lessons.sort(key=lambda lesson: lesson.order)

    @staticmethod
    def _in_language(src: Lesson | str | Path) -> Lesson:
        """The lesson `src` in the language in use: its translation, or the English lesson when it has none (a
        teacher's lesson, say) or when the translation does not fit the English file (logged)."""
        if isinstance(src, Lesson):
            if src.path.startswith("<") or not Path(src.path).is_file():
                return src
            src = src.path
        try:
            return translated_lesson(src, current_language())
        except LessonFileError:
            log.exception("the %s translation of %s does not fit; the English lesson is used",
                          current_language(), src)
            return load_lesson(src)

    def _load_teacher(self) -> None:
        folder = lessons_folder()
        if folder is None:
            return
        try:
            self.teacher = check_folder(folder, {lesson.id for lesson in self.lessons})
        except Exception as e:  # never stop the app for a teacher's folder; the log keeps the details
            log.exception("cannot check the lessons in %s", folder)
            self.teacher = [TeacherLesson(folder, None, f"{folder}: the lessons could not be checked ({e})")]
        for t in self.teacher:
            if t.lesson is not None:
                self._sources.append(t.lesson)
                self.lessons.append(self._in_language(t.lesson))

    def is_teacher_lesson(self, lesson_id: str) -> bool:
        return any(t.lesson is not None and t.lesson.id == lesson_id for t in self.teacher)

    def lesson(self, lesson_id: str) -> Lesson:
        for lesson in self.lessons:
            if lesson.id == lesson_id:
                return lesson
        raise ValueError(f"there is no lesson {lesson_id!r}; lessons: {', '.join(x.id for x in self.lessons)}")

    def status(self, lesson_id: str) -> str:
        return self.progress.get(lesson_id, "not started")

    def step_of(self, lesson_id: str) -> tuple[int, int]:
        screen = self.lesson_screens.get(lesson_id)
        if screen is None:
            n = len(self.lesson(lesson_id).script)
            saved = self.saved.get(lesson_id)
            return (min(saved.step, n) if saved is not None else 1), n
        return screen.runner.progress

    def continue_target(self) -> tuple[str, str] | None:
        """(lesson id, the button's words) for the home's first button: the lesson the learner was last in,
        else the first one not finished; None when every lesson is done."""
        lid = self.last_lesson
        if lid is None or self.status(lid) == "done":
            lid = next((x.id for x in self.lessons if self.status(x.id) == "in progress"), None)
        if lid is None:
            lid = next((x.id for x in self.lessons if self.status(x.id) == "not started"), None)
        if lid is None:
            return None
        title = self.lesson(lid).title
        if self.status(lid) == "not started":
            return lid, _("Start: {title}").format(title=title)
        k, _n = self.step_of(lid)
        return lid, _("Continue: {title}, step {step}").format(title=title, step=k)

    def _lesson_changed(self, screen: LessonScreen) -> None:
        lid = screen.runner.lesson.id
        if screen.runner.done:
            self.progress[lid] = "done"
        elif self.progress.get(lid) != "done":
            self.progress[lid] = "in progress"
        self.save()
        if self.classroom is not None and self.screen is screen:  # else reported as it is shown (_show)
            self._class_lesson(screen)

    # ---- the class view (uu/server/classroom.py) ---------------------------------------------------------------
    def class_box(self) -> ClassNameBox | None:
        if self.classroom is None:
            return None
        if self._class_box is None:
            from uu.widgets.classname import ClassNameBox

            self._class_box = ClassNameBox(self)
        return self._class_box

    def set_learner_name(self, name: str) -> str | None:
        """The learner's name for the class view: reported from now on. Returns what is wrong with it, if
        anything (then nothing changes)."""
        if self.classroom is None:
            return _("There is no class view in this app.")
        problem = name_problem(name)
        if problem:
            return problem
        self.classroom.name = name
        if self._class_box is not None:
            self._class_box.show_name(name)
        self.class_label.value = self._class_words(name)
        self.save()
        self._class_report()
        return None

    @staticmethod
    def _class_words(name: str) -> str:
        words = esc(_("In class as {name}: your teacher sees your progress.")).format(name=f"<b>{esc(name)}</b>")
        return f"<span style='margin-left:1em;color:#555'>{words}</span>"

    def _now_on(self, where: tuple[str, int] | str) -> None:
        if where != self._on_step:
            self._on_step, self._step_since = where, time.time()

    def _class_lesson(self, screen: LessonScreen) -> None:
        runner = screen.runner
        key = (runner.lesson.id, runner.index)
        self._now_on(key)
        fb = screen.feedback
        if fb is not None and not fb.ok and fb.kind in ("illegal", "other") and not getattr(fb, "_uu_counted", 0):
            fb._uu_counted = True  # type: ignore[attr-defined]  # counted once, even when reported again
            self._wrong[key] = self._wrong.get(key, 0) + 1
        self._class_report()

    def _class_report(self) -> None:
        if self.classroom is None or self.classroom.name is None:
            return
        fields: dict[str, Any] = {"quiz": self._quiz_summary(),
                                  "finished": [x.title for x in self.lessons if self.progress.get(x.id) == "done"]}
        screen = self.screen
        if isinstance(screen, LessonScreen):
            runner = screen.runner
            k, n = runner.progress
            key = (runner.lesson.id, runner.index)
            self._now_on(key)
            fields.update(lesson_id=runner.lesson.id, lesson=runner.lesson.title, step=k, steps=n,
                          step_since=self._step_since, wrong=self._wrong.get(key, 0))
        else:
            where = (_("Playing a game") if screen is self.play_screen else
                     _("The sandbox") if screen is self.sandbox_screen else _("The home page"))
            self._now_on(where)
            fields.update(lesson_id=None, lesson=where, step=None, steps=None, step_since=self._step_since, wrong=0)
        self.classroom.report(fields)

    def _quiz_summary(self) -> dict[str, list[int]]:
        return quiz_summary(self)

    # ---- progress kept in the browser -----------------------------------------------------------------
    def saved_state(self) -> dict[str, Any]:
        """What the browser keeps (uu/widgets/progress.py `Saved`): every lesson started, and the play
        settings once a game was set up."""
        lessons: dict[str, Any] = {}
        for lid, status in self.progress.items():
            screen = self.lesson_screens.get(lid)
            if screen is not None:
                r = screen.runner
                lessons[lid] = {"status": status, "step": r.progress[0], "history": encode_history(r.history),
                                "quiz": {str(i + 1): ok for i, ok in r.quiz_first.items()}}
            elif lid in self.saved:
                lessons[lid] = self.saved[lid].model_dump(mode="json", exclude_defaults=True)
        state: dict[str, Any] = {"v": 1, "lessons": lessons}
        if self.classroom is not None and self.classroom.name is not None:
            state["learner"] = {"id": self.classroom.learner_id, "name": self.classroom.name}
        play = self._play_settings()
        if play is not None:
            state["play"] = play.model_dump()
        state["screen"] = self._screen_name()
        if self.lang_chosen is not None:
            state["lang"] = self.lang_chosen
        game = self._game_in_progress()
        if game is not None:
            state["game"] = game
        t = self.together_screen
        if t is not None and t.code is not None and t.token is not None:
            state["table"] = {"code": t.code, "token": t.token}
        elif self.table_saved is not None:
            state["table"] = self.table_saved.model_dump()
        return state

    def _screen_name(self) -> str:
        if isinstance(self.screen, LessonScreen):
            return f"lesson:{self.screen.runner.lesson.id}"
        if self.screen is not None and self.screen is self.together_screen:
            return "table"
        return "play" if self.screen is self.play_screen else "sandbox" if self.screen is self.sandbox_screen \
            else "home"

    def _game_in_progress(self) -> dict[str, Any] | None:
        p = self.play_screen
        if p is None:
            return self.game_saved.model_dump(mode="json") if self.game_saved is not None else None
        if p.game is None or p.game.pending is None:
            return None
        return {"seed": p.deal_seed, "moves": encode_history(list(enumerate(p.game.moves))), "every_seat": True}

    def _play_settings(self) -> PlaySettings | None:
        if self.play_screen is None:
            return self.play_saved
        try:
            return self.play_screen.settings()
        except ValueError:  # being edited into something invalid: keep what was kept before
            return self.play_saved

    def save(self, _change: object = None) -> None:
        # once the kernel has answered the message under way: the table of a move reaches the page first
        self.store.save_later(self.saved_state)

    def restore(self, saved: Saved) -> None:
        """Take the progress the browser kept (already validated). A lesson or game opened in this kernel
        before it arrived keeps its live state; unknown lesson ids are dropped."""
        known = {lesson.id for lesson in self.lessons}
        if saved.screen and saved.screen.startswith("lesson:") and self.last_lesson is None:
            self.last_lesson = saved.screen.removeprefix("lesson:") if saved.screen[7:] in known else None
        for lid, entry in saved.lessons.items():
            if lid in known and lid not in self.lesson_screens:
                self.progress[lid] = entry.status
                self.saved[lid] = entry
        if self.play_screen is None:
            self.play_saved = saved.play
            self.game_saved = saved.game
        if self.together_screen is None or self.together_screen.code is None:
            self.table_saved = saved.table
        learner = saved.learner
        if self.classroom is not None and learner is not None and self.classroom.name is None \
                and name_problem(learner.name) is None:
            # the same browser again (a reload): the same name; the row is the one the server bound this
            # kernel to (uu/server/classroom.py), never the id the page sends
            self.set_learner_name(learner.name)
        if self.screen is self.home:
            self.home.refresh()
            self._reopen(saved.screen)
        self.save()

    def _browser_taken(self) -> None:
        """The browser's copy of the progress and the page's link are taken in: the screen open now is the one the
        learner will use. The page can tell (the class `uu-restored`): the static site's loading screen waits for
        it (uu/lite/page.js), so the home is not redrawn under a first click, nor shown a moment before a
        reload's lesson or game."""
        self.add_class("uu-restored")

    def _reopen(self, screen: str | None) -> None:
        """A reload lands where the learner was: the lesson step, the game in progress, the sandbox."""
        if screen is None or screen == "home":
            return
        if screen.startswith("lesson:"):
            lesson_id = screen.removeprefix("lesson:")
            if any(lesson.id == lesson_id for lesson in self.lessons):
                self._guard(self.open_lesson, lesson_id)
        elif screen == "play":
            self._guard(self.open_play)
        elif screen == "sandbox":
            self._guard(self.open_sandbox)
        elif screen == "table" and tables_offered():
            self._guard(self.open_together)

    def forget(self) -> None:
        """"Forget my progress": every lesson from the start, default play settings, the browser's keys gone."""
        self.progress.clear()
        self.saved.clear()
        self.lesson_screens.clear()
        self.play_screen = None
        self.play_saved = None
        self.game_saved = None
        self.store.forget()
        if self.screen is self.home:
            self.home.refresh()

    # ---- the language ---------------------------------------------------------------------------------
    def _browser_language(self, saved: Saved | None, href: str | None, browser: str | None) -> None:
        """The browser's first message: a link's `?lang=` > the saved choice > the class default > the browser's
        language (uu/widgets/language.py)."""
        lang, chosen = choose_language(link_language(href), saved.lang if saved is not None else None,
                                       class_default(), browser)
        self._guard(self.set_lang, lang, chosen)

    def set_lang(self, lang: str, chosen: bool = True) -> None:
        """Speak `lang` from now on (English for a tag not supported), keeping the learner where they are:
        same screen, same lesson step, same game position; only the words change. `chosen`: the learner
        chose it (the picker, a link), so it is kept with their progress."""
        lang = normalize(lang) or "en"
        if chosen:
            self.lang_chosen = lang
        # only a choice is new to the saved progress: the browser's language is asked again at every visit, and
        # a visit that changes nothing must store nothing ("Forget my progress" leaves the browser empty)
        if lang == current_language():
            if self.store.restored and chosen:
                self.save()
            return
        set_language(lang)
        with built_whole():  # the new screens are sent whole, then shown (an opened widget may not refer to them before)
            shown = self._rebuild_in_language()
        self._show(shown)
        if self.store.restored and chosen:
            self.save()

    def _rebuild_in_language(self) -> ScreenBase:
        return rebuild_in_language(self)

    # ---- navigation -----------------------------------------------------------------------------------
    def navigate(self, fn: Callable[..., object], *args: object) -> None:
        """Run a navigation step (open_lesson, open_play, show_home): an error is logged and shown in the App,
        and the home screen stays usable."""
        self._guard(fn, *args)

    def _guard(self, fn: Callable[..., object], *args: object) -> None:
        try:
            self._set_error(None)
            fn(*args)
        except Exception as e:
            log.exception("error in %s", getattr(fn, "__name__", fn))
            self._set_error(readable(e))
            if self.screen is not self.home:
                self._show(self.home)

    def _set_error(self, message: str | None) -> None:
        self.error = message
        self.error_box.value = error_html(message)

    def _show(self, screen: ScreenBase) -> None:
        self.screen = screen
        self.home_button.layout.display = "none" if screen is self.home else ""
        if screen is self.home:
            self.home.refresh()
        with self.hold_sync():  # the children and the layout class in one message
            self.children = [self.style_html, self.store, self.nav, self.error_box, screen]
            # a lesson or a game is fixed to the window (screen.css); the home and the sandbox's build scroll
            if isinstance(screen, (LessonScreen, PlayScreen)):
                self.add_class("uu-app-game")
            else:
                self.remove_class("uu-app-game")
        if self.store.restored:  # the screen open is kept, for a reload (not before the browser's copy came)
            self.save()
        if self.classroom is not None:
            if isinstance(screen, LessonScreen):
                self._class_lesson(screen)
            else:
                self._class_report()

    def _open_start(self, start: str) -> None:
        if start == "home":
            return
        if start == "play":
            self.open_play()
        elif start == "sandbox":
            self.open_sandbox()
        else:
            self.open_lesson(start)

    def _nav_home(self, _b: object = None) -> None:
        self._guard(self.show_home)

    def show_home(self) -> HomeScreen:
        self._show(self.home)
        return self.home

    def open_lesson(self, lesson_id: str) -> LessonScreen:
        screen = self.lesson_screens.get(lesson_id)
        if screen is None:
            runner = LessonRunner(self.lesson(lesson_id))
            saved = self.saved.pop(lesson_id, None)
            if saved is not None:
                # quiz results first: a replayed answer must not overwrite the first try's
                runner.quiz_first = {i - 1: ok for i, ok in saved.quiz.items()}
                runner.resume(decode_history(saved.history))
            with built_whole():
                screen = LessonScreen(runner, on_change=self._lesson_changed,  # the nav bar has Home
                                      next_lesson=self._next_lesson(lesson_id))
            self.lesson_screens[lesson_id] = screen
        self.last_lesson = lesson_id
        self._lesson_changed(screen)
        self._show(screen)
        return screen

    def _next_lesson(self, lesson_id: str) -> tuple[str, Any] | None:
        """The lesson after this one in reading order, as (its title, a callback opening it)."""
        ids = [lesson.id for lesson in self.lessons]
        at = ids.index(lesson_id) if lesson_id in ids else -1
        if at < 0 or at + 1 >= len(ids):
            return None
        nxt = self.lessons[at + 1]
        return nxt.title, lambda: self.navigate(self.open_lesson, nxt.id)

    def open_play(self) -> PlayScreen:
        self._show(self._make_play())
        return self.play_screen  # type: ignore[return-value]  # made just above

    def _make_play(self) -> PlayScreen:
        if self.play_screen is None:
            s = self.play_saved or PlaySettings()
            with built_whole():
                self.play_screen = PlayScreen(delay=self.delay, name=s.name, players=s.players, seed=s.seed,
                                              targeting=s.targeting, level=s.level, on_review=self.open_review)
            p = self.play_screen
            kept, self.game_saved = self.game_saved, None
            if kept is not None:  # a reload: the game in progress, replayed through the learner's moves
                moves = [a for _i, a in decode_history([(i, a) for i, a in kept.moves])]
                p.resume(kept.seed, [a for a in moves if isinstance(a, Action)], every_seat=kept.every_seat)
                p.refresh()
            for control in (p.name_input, p.players_input, p.targeting_input, p.seed_input, p.level_input,
                            p.fixed_seed_input):
                control.observe(self.save, names="value")
            p.table.observe(self.save, names="version")  # the game in progress, move by move
        return self.play_screen

    def open_review(self, record: GameRecord, player: int) -> ReviewScreen:
        """"Review my game": the review screen; a decision clicked there opens in the sandbox."""
        with built_whole():
            screen = ReviewScreen(record, player, on_open=self.open_in_sandbox, on_home=self.show_home)
        self.review_screen = screen
        self._show(screen)
        return screen

    def open_in_sandbox(self, text: str, note: str) -> None:
        """Open a position (scenario YAML) in the sandbox, live, with its decision yours to make."""
        sandbox = self.open_sandbox()
        if not sandbox.load_yaml(text, note):
            raise ValueError(_("this position could not be opened in the sandbox: {problem}").format(
                problem=sandbox.session.load_message))
        sandbox.start()
        sandbox.session.say("info", _("Opened from the review of your game: {note}. Try another move, or let the "
                                      "bots play on.").format(note=note))
        sandbox.refresh()

    def open_together(self, code: str = "") -> TogetherScreen:
        """"Play with others": the table the learner sits at (back in their seat after a reload), else the form
        to make or join one (`code`: a table's link)."""
        url = tables_url()
        if url is None:
            raise ValueError(_("Playing with others needs the app started by your teacher for the class "
                               "(uu app --class)."))
        screen = self.together_screen
        if screen is None:
            screen = self.together_screen = TogetherScreen(TableClient(url), on_seat=self._seat_changed,
                                                           page_url=lambda: self.page_url, code=code,
                                                           on_review=self.open_review)
            kept, self.table_saved = self.table_saved, None
            if kept is not None and (not code or code == kept.code):
                screen.resume(kept.code, kept.token)
        elif code and screen.code is None:
            screen.code_box.value = code
        self._show(screen)
        return screen

    def _seat_changed(self, code: str | None, token: str | None) -> None:
        if self.store.restored:
            self.save()

    def open_sandbox(self) -> SandboxScreen:
        if self.sandbox_screen is None:
            with built_whole():
                self.sandbox_screen = SandboxScreen()
                self.sandbox_screen.page_href = self.page_url
        self._show(self.sandbox_screen)
        return self.sandbox_screen

    # ---- links: ?lesson=<id>, ?position=v1.<code> (uu/scenario/link.py) ------------------------------------
    def open_link(self, href: str) -> None:
        """The page's address, sent by the browser once it shows the app: remembered for the sandbox's links,
        and a link's lesson or position opened. A bad link leaves the home on show with a message."""
        self.page_url = href
        if self.sandbox_screen is not None:
            self.sandbox_screen.page_href = href
        query = link_query(href)
        if "position" in query:
            self._guard(self._open_position, query["position"])
        elif "lesson" in query:
            self._guard(self._open_lesson_link, query["lesson"])
        elif "table" in query:
            self._guard(self.open_together, query["table"].strip().upper()[:12])

    def _open_position(self, code: str) -> None:
        try:
            text = position_text(code)
        except LinkError as e:
            self._show(self.home)
            self._set_error(str(e))
            return
        sandbox = self.open_sandbox()
        if not sandbox.load_yaml(text, _("the link's position")):
            problem = sandbox.session.load_message or _("it is not a position this tutor can set up")
            sandbox.session.forget_load_message()
            sandbox.refresh()
            self._show(self.home)
            self._set_error(_("This link's position could not be opened: {problem}").format(problem=problem))
            return
        sandbox.refresh()

    def _open_lesson_link(self, lesson_id: str) -> None:
        if any(lesson.id == lesson_id for lesson in self.lessons):
            self.open_lesson(lesson_id)
            return
        shown = lesson_id if len(lesson_id) <= 60 else lesson_id[:60] + "…"
        self._show(self.home)
        self._set_error(_("This link asks for a lesson called \"{name}\", and there is no lesson by that name "
                          "here. Pick one from the list below.").format(name=shown))
