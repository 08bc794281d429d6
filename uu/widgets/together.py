"""`TogetherScreen`: "Play with others", a table for several learners and bots held by the app's server.

The kernel is a client of its learner's seat (uu/together/client.py): the table, its legal actions and the steps
to play back come from the server already made for this seat, and go to the table widget as they are; a click
goes back as the action's index and the version it was made on. A thread waits on the server (a long poll) and
draws every change the moment it happens: another seat's move, a seat taken, the start.

Contract for browser tests (docs/architecture.md): the join form's name box carries data-role="name", the
table's link data-role="table-link" (the page's address with `?table=CODE`: it opens this form with the code
filled in), the maker's start button data-role="start"; the table itself is the table component's contract.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

import ipywidgets as widgets

from uu.i18n import _, current_language
from uu.render import esc
from uu.scenario.record import GameRecord
from uu.table.widget import TableWidget
from uu.together import TableRefused
from uu.together.client import TableClient
from uu.together.level_words import level_word
from uu.together.wire import SeatedScreen, SeatScreen
from uu.widgets.common import ScreenBase, make_button, plain_html, safe

__all__ = ["TogetherScreen"]

log = logging.getLogger(__name__)
POLL_S = 20.0  # one long poll's wait; the server answers at once when anything changes


def shared_address(page: str) -> str:
    """The page's address as the others can open it. On JupyterHub each learner's page is on their own server
    (/user/NAME/...): the others open the same page on theirs through the hub's /hub/user-redirect/."""
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "")
    if not prefix.startswith("/user/"):
        return page
    parts = urlsplit(page)
    if not parts.path.startswith(prefix):
        return page
    base = os.environ.get("JUPYTERHUB_BASE_URL", "/").rstrip("/")
    path = f"{base}/hub/user-redirect/{parts.path[len(prefix):]}"
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


class TogetherScreen(ScreenBase):
    def __init__(self, client: TableClient, on_seat: Callable[[str | None, str | None], object] | None = None,
                 page_url: Callable[[], str | None] | None = None, code: str = "",
                 on_review: Callable[[GameRecord, int], object] | None = None, **kwargs: Any):
        """`on_seat(code, token)`: the seat taken (or left, with None), for the browser to keep for a reload.
        `page_url`: the page's address, for the table's link. `code`: a table's code from a link.
        `on_review(record, seat)`: "Review my game" once the table has ended (the app opens its review)."""
        super().__init__(**kwargs)
        self.on_review = on_review
        self.add_class("uu-together-screen")
        self.client = client
        self.on_seat = on_seat
        self.page_url = page_url or (lambda: None)
        self.code: str | None = None
        self.token: str | None = None
        self.screen: SeatScreen | None = None  # the seat's screen as the server sent it last
        self._drawn_version: int | None = None
        self.screen_version_hinted: int | None = None  # the table version the hint on show was asked on
        self._lock = threading.Lock()
        self._poller: threading.Thread | None = None
        self._stop = threading.Event()
        # the form: a name, and a code to join (or nothing: a new table with these options)
        self.name_box = widgets.Text(placeholder=_("Your name, as the others will see it"),
                                     description=_("Your name:"), style={"description_width": "initial"})
        self.name_box.add_class("uu-role-name")
        self.code_box = widgets.Text(value=code, placeholder=_("A table's code (empty: a new table)"),
                                     description=_("Table code:"), style={"description_width": "initial"})
        self.code_box.add_class("uu-table-code")
        self.players = widgets.Dropdown(options=[(str(n), n) for n in range(2, 9)], value=4,
                                        description=_("Seats:"), style={"description_width": "initial"})
        self.level = widgets.Dropdown(options=[(_("Easy"), "easy"), (_("Normal"), "normal"), (_("Hard"), "hard")],
                                      value="normal", description=_("Bots for empty seats:"),
                                      style={"description_width": "initial"})
        self.coach = widgets.Checkbox(value=True, description=_("Hints on (each player's own)"), indent=False)
        self.answer_time = widgets.Dropdown(
            options=[(_("no limit"), 0), *((_("{seconds} s").format(seconds=n), n) for n in (20, 40, 60))], value=0,
            description=_("Time to answer a Neigh:"), style={"description_width": "initial"},
            layout=widgets.Layout(width="auto"))  # a long label in German must not squeeze the choice
        self.answer_time.add_class("uu-answer-time")
        self.make_button = make_button(_("Make a table"), "uu-make-table", self.on_make, style="primary")
        self.join_button = make_button(_("Join the table"), "uu-join-table", self.on_join, style="primary")
        self.options_box = widgets.HBox([self.players, self.level, self.answer_time, self.coach],
                                        layout=widgets.Layout(flex_flow="row wrap"))
        self.form = widgets.VBox([
            plain_html("<h2>" + esc(_("Play with others")) + "</h2><p>" + esc(_(
                "Make a table and give the others its link or code, or join a table with the code you were "
                "given. Whoever makes the table starts the game; empty seats are played by bots.")) + "</p>"),
            self.name_box, self.code_box, self.options_box, widgets.HBox([self.make_button, self.join_button])])
        # the table: its link, who sits where, the maker's controls, the game
        self.link_html = plain_html(css="uu-table-link")
        self.seats_html = plain_html(css="uu-table-seats")
        self.start_button = make_button(_("Start the game"), ("uu-start-table", "uu-role-start"), self.on_start,
                                        style="success")
        self.end_button = make_button(_("End the table"), "uu-end-table", self.on_end, style="danger")
        # the seat's own coach (only this screen asks it and shows it); hidden when the maker switched it off
        self.hint_button = make_button(_("Hint"), "uu-hint-button", self.on_hint, style="info")
        self.hint_box = plain_html(css="uu-hint-box")
        # each player's own review of the game, once it is over (the coach's game review, as after a game alone)
        self.review_button = make_button(_("Review my game"), "uu-review-game", self.on_review_click, style="success")
        self.review_button.layout.display = "none"
        self.table = TableWidget(on_choose=self.on_choose, on_refused=self._stale, prompt_here=True)
        self.table.add_class("uu-table")
        self.table.on_why = self._why
        self.seated = widgets.VBox([self.link_html, self.seats_html,
                                    widgets.HBox([self.start_button, self.end_button, self.hint_button,
                                                  self.review_button]),
                                    self.hint_box, self.table])
        self.seated.layout.display = "none"
        self.children = [self.error_box, self.form, self.seated]
        self.code_box.observe(self._form_mode, names="value")
        self._form_mode()

    def _form_mode(self, _change: object = None) -> None:
        joining = bool(self.code_box.value.strip())
        self.options_box.layout.display = "none" if joining else ""
        self.make_button.layout.display = "none" if joining else ""
        self.join_button.layout.display = "" if joining else "none"

    # ---- taking a seat ----------------------------------------------------------------------------------
    @safe
    def on_make(self, _b: object = None) -> None:
        options = {"players": self.players.value, "bot_level": self.level.value, "coach": self.coach.value,
                   "answer_s": self.answer_time.value}
        self._seat(lambda: self.client.make(self.name_box.value, options))

    @safe
    def on_join(self, _b: object = None) -> None:
        self._seat(lambda: self.client.join(self.code_box.value, self.name_box.value))

    def _seat(self, ask: Callable[[], SeatedScreen]) -> None:
        try:
            got = ask()
        except TableRefused as e:
            self._set_error(_(str(e)))
            return
        self.resume(got["code"], got["token"], got)

    def resume(self, code: str, token: str, screen: SeatScreen | None = None) -> bool:
        """Back in a seat (a reload: the browser kept its code and token). False when the table no longer has
        it: the form is shown."""
        try:
            screen = screen or self.client.view(code, token)
        except TableRefused as e:
            self._set_error(_(str(e)))
            if self.on_seat is not None:
                self.on_seat(None, None)
            return False
        self.code, self.token = code, token
        self._drawn_version = None
        if self.on_seat is not None:
            self.on_seat(code, token)
        self.form.layout.display = "none"
        self.seated.layout.display = ""
        self.draw(screen)
        self._start_polling()
        return True

    # ---- the game ---------------------------------------------------------------------------------------
    @safe
    def on_start(self, _b: object = None) -> None:
        self._act(lambda c, t: self.client.start(c, t))

    @safe
    def on_end(self, _b: object = None) -> None:
        self._act(lambda c, t: self.client.end(c, t))

    def on_choose(self, index: int) -> None:
        version = self.screen["version"] if self.screen else 0
        self._act(lambda c, t: self.client.move(c, t, index, version))

    def _stale(self) -> None:
        self._set_error(_("That click was made on an older table: choose again on the table shown now."))

    def _act(self, ask: Callable[[str, str], SeatScreen]) -> None:
        if self.code is None or self.token is None:
            return
        screen: SeatScreen | None
        try:
            screen = ask(self.code, self.token)
        except TableRefused as e:
            self._set_error(_(str(e)))
            screen = self._fetch()
        else:
            self._set_error(None)
        if screen is not None:
            self.draw(screen)

    def _fetch(self) -> SeatScreen | None:
        try:
            return self.client.view(self.code or "", self.token or "", since=self._drawn_version)
        except TableRefused:
            return None

    def draw(self, screen: SeatScreen) -> None:
        """Show the seat's screen (from the server); the steps since the table on show are played back."""
        with self._lock:
            if self.screen is not None and screen.get("revision", 0) < self.screen.get("revision", 0):
                return  # an older answer overtaken by a newer one
            self.screen = screen
            self.link_html.value = self._link_html(screen["code"])
            self.seats_html.value = self._seats_html(screen)
            maker, phase = screen["maker"], screen["phase"]
            self.start_button.layout.display = "" if maker and phase == "open" else "none"
            coach = screen["options"]["coach"] and phase == "playing"
            mine = bool(screen.get("actions")) and not screen.get("answering")
            self.hint_button.layout.display = "" if coach and mine else "none"
            if screen.get("version") != (self.screen_version_hinted or screen.get("version")) or not coach:
                self.hint_box.value = ""  # a hint is about the table it was asked on
                self.table.hint = []
                self.screen_version_hinted = None
            self.end_button.layout.display = "" if maker and phase == "playing" else "none"
            self.review_button.layout.display = "" if phase == "ended" and self.on_review is not None else "none"
            steps = screen.get("steps") if self._drawn_version is not None else None
            self.table.set_table(screen.get("table"), screen.get("actions") or [], steps or None)
            self._drawn_version = screen["version"] if screen.get("table") is not None else None

    @safe
    def on_hint(self, _b: object = None) -> None:
        """The seat's own hint, worked out by the server for this seat only; shown here and nowhere else."""
        if self.code is None or self.token is None:
            return
        self.hint_box.value = "<div class='uu-hint-wait' role='status'>" + esc(_("Thinking…")) + "</div>"
        try:
            got = self.client.hint(self.code, self.token, current_language())
        except TableRefused as e:
            self.hint_box.value = ""
            self._set_error(_(str(e)))
            return
        self._set_error(None)
        self.hint_box.value = "<div class='uu-hint' role='status'><b>" + esc(_("Hint")) + f"</b> {got['hint']}</div>"
        self.table.hint = [i for i in got.get("lit", []) if isinstance(i, int)]
        self.screen_version_hinted = got.get("version")

    @safe
    def on_review_click(self, _b: object = None) -> None:
        """The ended game's review for this seat (the server sends the record only once the table has ended)."""
        if self.code is None or self.token is None or self.on_review is None:
            return
        try:
            record, seat = self.client.record(self.code, self.token)
        except TableRefused as e:
            self._set_error(_(str(e)))
            return
        self.on_review(record, seat)

    def _why(self, key: str, name: str) -> str:
        """A click on an element that is not lit: the server says why, for this seat only."""
        if self.code is None or self.token is None:
            return _("That is not one of the choices now: {task}.").format(
                task=_("choose one of the lit cards or places"))
        try:
            return self.client.why(self.code, self.token, key, name, current_language())
        except TableRefused as e:
            return _(str(e))

    def _link_html(self, code: str) -> str:
        page = shared_address(self.page_url() or "")
        href = f"{page.split('?')[0]}?{urlencode({'table': code})}"
        return ("<p>" + esc(_("Table {code}: give the others this link or the code.").format(code=code))
                + f" <a data-role='table-link' href='{esc(href)}' target='_blank' rel='noopener'>{esc(href)}</a></p>")

    @staticmethod
    def _seats_html(screen: SeatScreen) -> str:
        items = []
        for s in screen["seats"]:
            name = s["name"] if s["kind"] != "empty" else _("an empty seat")
            bot = _(" (bot, {level})").format(level=level_word(s.get("level"))) if s["kind"] == "bot" else ""
            away = _(" (away: a bot plays for now)") if s["away"] else ""
            you = _(" (you)") if s["seat"] == screen["seat"] else ""
            items.append(f"<li>{esc(name)}{esc(bot)}{esc(away)}{esc(you)}</li>")
        state = {"open": _("Waiting for the start."), "playing": _("The game is on."),
                 "ended": _("The game is over.")}[screen["phase"]]
        return f"<p>{esc(state)}</p><ol class='uu-seat-list'>{''.join(items)}</ol>"

    # ---- the long poll ----------------------------------------------------------------------------------
    def _start_polling(self) -> None:
        if self._poller is not None and self._poller.is_alive():
            return
        self._stop.clear()
        self._poller = threading.Thread(target=self._poll, name="uu-table-poll", daemon=True)
        self._poller.start()

    def stop(self) -> None:
        self._stop.set()

    def _poll(self) -> None:
        failures = 0
        while not self._stop.is_set() and self.code is not None and self.token is not None:
            shown = self.screen
            try:
                screen = self.client.view(self.code, self.token, since=self._drawn_version,
                                          revision=shown["revision"] if shown else 0, wait=POLL_S)
                failures = 0
            except TableRefused:
                failures += 1
                self._stop.wait(min(30.0, 2.0 * failures))
                continue
            try:
                if shown is None or (screen["revision"], screen["version"]) != (shown["revision"], shown["version"]):
                    self.draw(screen)
            except Exception:  # the screen must keep listening; the log keeps what went wrong
                log.exception("drawing a table's screen failed")
            if shown is not None and screen["phase"] == shown["phase"] == "ended":
                self._stop.wait(POLL_S)
