"""`ProgressStore`: the learner's progress kept in the browser's localStorage (an anywidget, progress.js).

The browser sends what it holds on render (`{"type": "restore", "items": {key: text}, "href": <the page's
address>}`); it is validated here (`Saved`: a malformed, oversized or hostile value is ignored, never a
traceback) and handed to `on_restore`, then the address to `on_page` (links: uu/scenario/link.py). Once the
learner leaves the screen a link opened, the browser is told to drop the link from its address (`unlink`), so
that a reload reopens the screen they are on (a game they went on to), not the link's lesson. The App
sets `state` whenever progress changes and the browser writes it; the answer to the restore (`{"type": "write",
"state": ...}`) has it written too, with whatever was set before the browser's view loaded. Saved form:

    {"v": 1, "lessons": {id: {"status": "done" | "in progress", "step": 3,
                              "history": [[step index, null | choice | action], ...], "quiz": {"4": true}}},
     "play": {"name": "You", "players": 3, "targeting": "declare-first", "seed": null, "level": "normal"},
     "game": {"seed": 123, "moves": [[0, action], ...]},   # the game in progress
     "screen": "lesson:neigh",                      # the screen open: "home", "play", "sandbox", "lesson:<id>"
     "learner": {"id": "...", "name": "Ann"},      # only with the class view (uu/server/classroom.py)
     "lang": "fr"}                                  # the language the learner chose (picker or ?lang= link)

The restore message also carries the browser's language (`navigator.language`, "browser"): the App uses it
when neither a link, a saved choice nor the class default names one (uu/widgets/tutor_app.py, `choose_language`).

A lesson's history holds the runner's recorded answers (LessonRunner.history): Next, a question's choice,
or a move by names; replaying it reopens the lesson at the step reached with the same table.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

import anywidget
import traitlets
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from uu.engine.actions import Action, Target
from uu.engine.errors import MalformedAction
from uu.scenario.link import link_query
from uu.widgets.common import AfterMessage
from uu.widgets.play import PlaySettings

__all__ = ["KEY", "GameSaved", "LearnerSaved", "LessonSaved", "ProgressStore", "Saved", "decode_history", "encode_history", "parse_saved"]

log = logging.getLogger(__name__)
HERE = Path(__file__).parent
KEY = "uu-progress"
MAX_HREF = 16_384  # the page's address (uu/scenario/link.py keeps a position link far below)
MAX_CHARS = 200_000  # far above a learner's whole course; a bigger value is not ours and is ignored
Name = Annotated[str, Field(max_length=80)]  # a card name


class _Strict(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class TargetSaved(_Strict):
    card: str | None = Field(default=None, max_length=80)
    owner: StrictInt | None = Field(default=None, ge=0, le=8)
    zone: str = Field(default="stable", max_length=20)
    player: StrictInt | None = Field(default=None, ge=0, le=8)


class ActionSaved(_Strict):
    """A move by names: the engine finds its legal twin on replay (Game.find), or the replay stops."""

    kind: str = Field(max_length=40)
    card: str | None = Field(default=None, max_length=80)
    into: StrictInt | None = Field(default=None, ge=0, le=8)
    target: list[TargetSaved] = Field(default_factory=list, max_length=16)
    option: str | None = Field(default=None, max_length=80)
    cards: list[Name] = Field(default_factory=list, max_length=16)


class LessonSaved(_Strict):
    status: Literal["done", "in progress"]
    step: StrictInt = Field(default=1, ge=1, le=1000)
    history: list[tuple[StrictInt, StrictInt | ActionSaved | None]] = Field(default_factory=list, max_length=2000)
    # JSON object keys are text: step numbers arrive as "4"
    quiz: dict[int, bool] = Field(default_factory=dict, max_length=1000)


class LearnerSaved(_Strict):
    """The learner's name and row in the class view (uu/server/classroom.py), kept only when the class view is on."""

    id: str = Field(pattern=r"^[A-Za-z0-9_-]{16,40}$")
    name: str = Field(min_length=1, max_length=40)


class GameSaved(_Strict):
    """The game in progress: its deal and its moves, replayed on a reload. `every_seat`: the moves are every
    seat's answers in order (saved so since the Hard bot's answers were found to change on a replay); without
    it, the learner's only, the bots asked again (saves made before)."""

    seed: StrictInt = Field(ge=0, le=2**31 - 1)
    moves: list[tuple[StrictInt, ActionSaved]] = Field(default_factory=list, max_length=8000)
    every_seat: StrictBool = False


class TableSaved(_Strict):
    """The seat at a table for several people (uu/widgets/together.py): back in it after a reload."""

    code: str = Field(pattern=r"^[A-Z0-9]{1,12}$")
    token: str = Field(pattern=r"^[A-Za-z0-9_-]{16,64}$")


class Saved(_Strict):
    v: Literal[1] = 1
    lessons: dict[str, LessonSaved] = Field(default_factory=dict, max_length=200)
    play: PlaySettings | None = None
    learner: LearnerSaved | None = None
    # the screen that was open ("home", "play", "sandbox", "lesson:<id>"), reopened on a reload
    screen: str | None = Field(default=None, max_length=120, pattern=r"^(home|play|sandbox|table|lesson:[A-Za-z0-9_-]{1,100})$")
    game: GameSaved | None = None
    table: TableSaved | None = None
    # the language the learner chose (uu.i18n.LANGUAGES); it wins over the browser's next time
    lang: str | None = Field(default=None, pattern=r"^(en|fr|de)$")


def parse_saved(items: object) -> Saved | None:
    """The progress in what the browser sent (`{key: text}`), or None when absent or not valid."""
    if not isinstance(items, dict):
        return None
    text = items.get(KEY)
    if not isinstance(text, str) or len(text) > MAX_CHARS:
        return None
    try:
        return Saved.model_validate(json.loads(text))
    except (ValueError, TypeError, RecursionError, ValidationError):  # JSONDecodeError is a ValueError
        log.info("saved progress ignored: not valid")
        return None


def encode_history(history: list[tuple[int, Action | int | None]]) -> list[tuple[int, Any]]:
    def one(a: Action | int | None) -> Any:
        if a is None or isinstance(a, int):
            return a
        return ActionSaved(kind=a.kind, card=a.card, into=a.into, option=a.option, cards=list(a.cards),
                           target=[TargetSaved(card=t.card, owner=t.owner, zone=t.zone, player=t.player)
                                   for t in a.target]).model_dump(exclude_defaults=True)
    return [(i, one(a)) for i, a in history]


def decode_history(history: list[tuple[int, int | ActionSaved | None]]) -> list[tuple[int, Action | int | None]]:
    """The recorded answers as the runner takes them; a move the engine refuses as malformed (an unknown kind)
    makes the whole history unusable, so the lesson starts from the beginning (as for one that no longer fits)."""
    def one(a: int | ActionSaved | None) -> Action | int | None:
        if not isinstance(a, ActionSaved):
            return a
        return Action(a.kind, card=a.card, into=a.into, option=a.option, cards=tuple(a.cards),
                      target=tuple(Target(t.card, t.owner, t.zone, t.player) for t in a.target))
    try:
        return [(i, one(a)) for i, a in history]
    except MalformedAction:
        return []


class ProgressStore(anywidget.AnyWidget):
    _esm = HERE / "progress.js"

    # what the browser writes to localStorage (its changes, and its value once the restore is taken in: progress.js)
    state = traitlets.Dict().tag(sync=True)

    def __init__(self, on_restore: Callable[[Saved], object] | None = None,
                 on_page: Callable[[str], object] | None = None,
                 on_language: Callable[[Saved | None, str | None, str | None], object] | None = None,
                 on_taken: Callable[[], object] | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.on_restore = on_restore
        self.on_page = on_page
        # called first, with (the saved progress, the page's address, the browser's language): the language is
        # settled before anything is reopened, so the learner's screen is built once, in their words
        self.on_language = on_language
        # called once the browser's message is taken in (saved progress or none, the link opened)
        self.on_taken = on_taken
        self.restored = False
        # the screen the page's link (?lesson=, ?position=) opened, while the learner is on it ("lesson:<id>",
        # "sandbox"); None without a link or once they left it
        self.link_screen: str | None = None
        self._make_state: Callable[[], dict[str, Any]] | None = None
        self._later = AfterMessage(self._save_made)
        self.on_msg(self._on_message)

    def save(self, state: dict[str, Any]) -> None:
        self.state = state
        screen = state.get("screen")
        if self.link_screen is not None and screen is not None and screen != self.link_screen:
            # the learner left the screen the page's link opened: the address loses the link, so that a reload
            # reopens where they are now (the saved screen), not the link's lesson or position again
            self.link_screen = None
            self.send({"type": "unlink"})

    def save_later(self, make_state: Callable[[], dict[str, Any]]) -> None:
        """Save `make_state()` once the kernel has answered the message it is handling (at once where no event
        loop runs); calls meanwhile make one save, of the state then. A progress not kept is no reason to
        break the lesson: an error goes to the log."""
        self._make_state = make_state
        self._later()

    def _save_made(self) -> None:
        make, self._make_state = self._make_state, None
        if make is not None:
            self.save(make())

    def forget(self) -> None:
        # the message clears the browser's keys even when `state` was already empty here (a value that
        # was ignored as malformed is still in the browser)
        self.state = {}
        self.send({"type": "forget"})

    def _on_message(self, _widget: object, content: object, _buffers: object) -> None:
        if not isinstance(content, dict) or content.get("type") != "restore":
            return
        self._restore(content)
        if self.on_taken is not None:
            try:
                self.on_taken()
            except Exception:
                log.exception("error after the restore")
        # the view writes what this kernel holds now: progress made before the view loaded (a name joined, a
        # lesson begun while a busy page drew the rest first) changes nothing after, so no change event says it
        if self.state:
            self.send({"type": "write", "state": self.state})

    def _restore(self, content: dict[object, object]) -> None:
        # one restore per kernel: a second view of the App (JupyterLab) must not roll progress back
        if self.restored:
            return
        self.restored = True
        saved = parse_saved(content.get("items"))
        href = content.get("href")
        href = href if isinstance(href, str) and len(href) <= MAX_HREF else None
        browser = content.get("browser")
        browser = browser if isinstance(browser, str) and len(browser) <= 40 else None
        if self.on_language is not None:
            try:
                self.on_language(saved, href, browser)
            except Exception:
                log.exception("error while choosing the language")
        if saved is not None and self.on_restore is not None:
            try:
                self.on_restore(saved)
            except Exception:  # the page must never show a traceback; the log keeps it
                log.exception("error while restoring saved progress")
        # then the page's address, after the progress: a link to a lesson opens it where the learner was
        if href is not None and self.on_page is not None:
            try:
                self.on_page(href)
            except Exception:
                log.exception("error while opening the page's link")
            # from now on (the screens passed through while it opened do not count): a save of another screen
            # drops the link from the address
            query = link_query(href)
            self.link_screen = ("sandbox" if "position" in query else
                                f"lesson:{query['lesson']}" if "lesson" in query else None)
