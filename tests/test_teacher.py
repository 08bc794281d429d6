"""For teachers, without a browser: a lessons folder checked (uu/tutor/folder.py), position links
(uu/scenario/link.py), the class view's store and page (uu/server/classroom.py, uu/server/classview.py), the App's part in
them, and `uu app`'s options (uu/server/teacher.py). The browser side is tests/test_teacher_e2e.py."""

from __future__ import annotations

import base64
import re
import sqlite3
import uuid
import zlib
from pathlib import Path

import pytest

from uu.scenario import build_game, parse_scenario
from uu.scenario.export import position_signature
from uu.scenario.link import (
    MAX_CODE_CHARS,
    LinkError,
    link_query,
    position_code,
    position_link,
    position_text,
)
from uu.server.classroom import (
    CLASS_DB_ENV,
    ClassReporter,
    bind_kernel,
    connect,
    learner_key,
    learner_rows,
    name_problem,
    valid_learner_id,
)
from uu.server.classview import csv_text, page_html
from uu.server.seats import new_token
from uu.server.teacher import CLASS_TOKEN_ENV, class_view_setup, teacher_lessons
from uu.tutor.folder import LESSONS_ENV, check_folder, report_lines
from uu.widgets import App
from uu.yamlfile import MAX_BYTES

ROOT = Path(__file__).resolve().parents[1]
POSITION = """\
name: A shared position
players: [Ana, Ben]
turn: {player: Ana, phase: action}
stables: {Ana: [Basic Unicorn (Red)], Ben: [Rhinocorn]}
hands: {Ana: [Neigh, Basic Unicorn (Blue)], Ben: [Neigh]}
"""


def code_of(data: bytes) -> str:
    return "v1." + base64.urlsafe_b64encode(data).decode().rstrip("=")


# ---- position links ---------------------------------------------------------------------------------------
def test_a_position_link_round_trips_compact():
    code = position_code(POSITION)
    assert re.fullmatch(r"v1\.[A-Za-z0-9_-]+", code) and len(code) < len(POSITION)
    assert position_text(code) == POSITION
    link = position_link("http://room:8866/?lesson=neigh#top", POSITION)
    assert link.startswith("http://room:8866/?position=v1.")
    assert position_text(link_query(link)["position"]) == POSITION


def test_a_position_link_on_binder_is_the_launch_link(monkeypatch):
    monkeypatch.setenv("BINDER_LAUNCH_HOST", "https://mybinder.org/")
    monkeypatch.setenv("BINDER_REQUEST", "v2/gh/school/uu/HEAD")
    link = position_link("https://hub.mybinder.turing.ac.uk/user/school-uu-abc/voila/render/uu/notebooks/"
                         "app.ipynb?x=1", POSITION)
    assert link.startswith("https://mybinder.org/v2/gh/school/uu/HEAD?urlpath=voila/render/uu/notebooks/"
                           "app.ipynb%3Fposition%3Dv1.")


@pytest.mark.parametrize("code, message", [
    ("v1." + "A" * (MAX_CODE_CHARS + 1), "too long"),
    ("v2.abc", "should start with 'v1.'"),
    ("eJzLSM3JyQcABiwCFQ", "should start with 'v1.'"),
    ("v1.", "damaged"),
    ("v1.a b", "damaged"),
    ("v1.<script>", "damaged"),
    ("v1.AAAA", "damaged"),                                              # not zlib
    (code_of(zlib.compress(b"\x00" * (MAX_BYTES * 4), 9)), "too large once unpacked"),  # a small zip bomb
    (code_of(zlib.compress(POSITION.encode())[:-6]), "cut short"),
    (code_of(zlib.compress(b"\xff\xfe name")), "not text"),
])
def test_a_bad_position_code_is_a_plain_message(code, message):
    assert len(code) <= MAX_CODE_CHARS or message == "too long"
    with pytest.raises(LinkError, match=re.escape(message)):
        position_text(code)


def test_link_query_keeps_only_the_link_parameters():
    assert link_query("http://x/?lesson=neigh&template=evil&position=v1.a") == {"lesson": "neigh",
                                                                                "position": "v1.a"}
    assert link_query("http://x/?" + "&".join(f"a{i}=1" for i in range(50))) == {}


def test_the_app_opens_links_and_says_what_was_wrong():
    app = App()
    app.open_link("http://x/?lesson=neigh")
    assert app.error is None and app.screen is app.lesson_screens["neigh"]
    app.open_link("http://x/?lesson=<b>nope</b>")
    assert app.screen is app.home and 'called "<b>nope</b>"' in app.error
    assert "<b>nope" not in app.error_box.value  # escaped
    app.open_link("http://x/?position=v1.%%%")
    assert app.screen is app.home and "damaged" in app.error
    app.open_link("http://x/?position=" + position_code("players: [Ana]\n"))
    assert app.screen is app.home and "could not be opened" in app.error

    other = App()
    other.open_link("http://room:8866/?position=" + position_code(POSITION))
    assert other.error is None and other.screen is other.sandbox_screen
    shared = other.sandbox_screen.session.export_text
    assert position_signature(build_game(parse_scenario(shared))) == \
        position_signature(build_game(parse_scenario(POSITION)))
    # the link the sandbox gives is built on this page's address, and opens the same position again
    link = other.sandbox_screen.share.position_link.value
    assert link.startswith("http://room:8866/?position=v1.")
    third = App()
    third.open_link(link)
    assert third.sandbox_screen is not None and third.sandbox_screen.session.export_text == shared


def test_the_page_address_comes_with_the_restore_and_a_long_one_is_ignored():
    app = App()
    app.store._on_message(app.store, {"type": "restore", "items": {}, "href": "http://x/?lesson=neigh"}, [])
    assert app.screen is app.lesson_screens["neigh"]
    app = App()
    app.store._on_message(app.store, {"type": "restore", "items": {},
                                      "href": "http://x/?lesson=neigh&" + "x" * 20_000}, [])
    assert app.screen is app.home and app.page_url is None


# ---- a teacher's lessons folder ---------------------------------------------------------------------------
def lesson_copy(folder: Path, lesson_id: str, order: int, title: str, name: str = "mine.yaml") -> Path:
    text = (ROOT / "lessons" / "02-setup.yaml").read_text()
    text = re.sub(r"(?m)^  id: setup$", f"  id: {lesson_id}", text)
    text = re.sub(r"(?m)^  order: 2$", f"  order: {order}", text)
    text = re.sub(r"(?m)^  title: Setting up$", f"  title: {title}", text)
    path = folder / name
    path.write_text(text)
    return path


def test_a_lessons_folder_is_checked_as_uu_lesson_check_does(tmp_path):
    lesson_copy(tmp_path, "our-setup", 101, "Our setup")
    lesson_copy(tmp_path, "setup", 102, "Same id as a shipped one", "clash.yaml")
    (tmp_path / "bad.yaml").write_text("name: x\nplayers: [A, B]\nlesson: [not, a, mapping\n")
    items = check_folder(tmp_path, {"setup"})
    by_name = {t.path.name: t for t in items}
    assert by_name["mine.yaml"].lesson is not None and by_name["mine.yaml"].problem is None
    assert by_name["clash.yaml"].lesson is None and "already used" in by_name["clash.yaml"].problem
    assert by_name["bad.yaml"].lesson is None and "bad.yaml: line" in by_name["bad.yaml"].problem
    assert "PASS Our setup" in report_lines(items)
    assert check_folder(tmp_path / "missing")[0].problem.endswith("there is no such folder")
    (tmp_path / "empty").mkdir()
    assert "holds no *.yaml" in check_folder(tmp_path / "empty")[0].problem


def test_the_app_lists_a_teachers_lessons_and_the_broken_ones(tmp_path, monkeypatch):
    lesson_copy(tmp_path, "our-setup", 101, "Our setup")
    (tmp_path / "broken.yaml").write_text("name: x\nplayers: [A, B]\nlesson: {id: broken, oops: 1}\n")
    monkeypatch.setenv(LESSONS_ENV, str(tmp_path))
    app = App()
    assert app.is_teacher_lesson("our-setup") and not app.is_teacher_lesson("setup")
    home = app.home
    assert [r["id"] for r in home.lessons.teacher_rows] == ["our-setup"]
    assert "our-setup" not in [r["id"] for r in home.lessons.rows]
    [broken] = home.lessons.broken
    sentence = broken["before"] + broken["file"] + broken["after"]
    assert broken["file"] == "broken.yaml" and "cannot be opened: broken.yaml" in sentence, broken
    assert str(tmp_path) not in sentence
    app.open_lesson("our-setup")
    assert app.error is None
    # App(lessons=...) is the teacher's own choice from Python: no folder added
    assert not App(lessons=[ROOT / "lessons" / "02-setup.yaml"]).teacher


def test_uu_app_lessons_option(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(LESSONS_ENV, "")  # teacher_lessons sets it: undone after the test
    assert teacher_lessons(str(tmp_path / "nope")) == 2
    assert "no such folder" in capsys.readouterr().err
    lesson_copy(tmp_path, "our-setup", 101, "Our setup")
    (tmp_path / "broken.yaml").write_text("name: x\n")
    assert teacher_lessons(str(tmp_path)) == 0  # a broken lesson never stops the app
    out = capsys.readouterr().out
    assert "PASS Our setup" in out and "FAIL" in out and "broken.yaml" in out
    import os

    assert os.environ[LESSONS_ENV] == str(tmp_path.resolve())


# ---- the class view ---------------------------------------------------------------------------------------
def test_uu_app_class_options(tmp_path, monkeypatch, capsys):
    import os

    monkeypatch.setenv(CLASS_TOKEN_ENV, "from-the-environment-1")
    monkeypatch.setenv(CLASS_DB_ENV, str(tmp_path / "stale.sqlite3"))
    assert class_view_setup(False, None, None) == ("", "")
    assert CLASS_DB_ENV not in os.environ and CLASS_TOKEN_ENV not in os.environ  # off: nothing reported
    assert class_view_setup(True, str(tmp_path / "c.sqlite3"), "short") == 2
    assert "at least 12" in capsys.readouterr().err
    monkeypatch.setenv(CLASS_TOKEN_ENV, "from-the-environment-1")
    db, token = class_view_setup(True, str(tmp_path / "c.sqlite3"), None)
    assert token == "from-the-environment-1" and CLASS_TOKEN_ENV not in os.environ  # kernels never see it
    assert os.environ[CLASS_DB_ENV] == db and Path(db).is_file()
    assert Path(db).stat().st_mode & 0o077 == 0  # names: readable by the server's user only
    db2, token2 = class_view_setup(True, str(tmp_path / "d.sqlite3"), None)
    assert len(token2) >= 20 and token2 != token


def test_a_reporter_writes_only_after_a_name(tmp_path):
    db = tmp_path / "c.sqlite3"
    r = ClassReporter(db)
    assert not r.report({"lesson": "x"}) and not db.exists()
    r.name = "Ann"
    assert r.report({"lesson": "Neigh!", "step": 2, "steps": 9, "wrong": 1, "quiz": {"Neigh!": [1, 2]},
                     "finished": ["Your goal"], "id": "forged"})
    r.report({"step": 3, "wrong": 0})
    [row] = learner_rows(connect(db))
    assert row["id"] == r.learner_id and row["name"] == "Ann" and row["step"] == 3 and row["wrong"] == 0
    assert row["lesson"] == "Neigh!" and row["quiz"] == {"Neigh!": [1, 2]} and row["finished"] == ["Your goal"]
    assert connect(db).execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    r.stop()


def test_names_are_checked():
    assert name_problem("") and "Type a name" in name_problem("")
    assert "at most 40" in name_problem("x" * 41)
    assert "control or text-direction" in name_problem("Bo\u202e")
    assert name_problem("Zoë <3") is None


def test_the_class_page_escapes_names_and_the_csv_defuses_formulas(tmp_path):
    db = tmp_path / "c.sqlite3"
    r = ClassReporter(db)
    r.name = "<script>alert(1)</script>"
    r.report({"lesson": "<i>x</i>", "step": 1, "steps": 2, "step_since": 0, "quiz": {}, "finished": []})
    s = ClassReporter(db)
    s.name = "=HYPERLINK(\"http://evil\")"
    s.report({"lesson": "The home page", "quiz": {"Neigh!": [2, 3]}, "finished": ["Your goal", "Neigh!"]})
    rows = learner_rows(connect(db))
    page = page_html(rows, "tok")
    assert "none yet" in page and "2: Your goal, Neigh!" in page and "Neigh!: 2/3" in page
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<i>" not in page
    text = csv_text(rows)
    assert "'=HYPERLINK" in text and "\n=HYPERLINK" not in text and ",=HYPERLINK" not in text


def test_a_bad_value_in_the_database_reads_as_empty(tmp_path):
    db = tmp_path / "c.sqlite3"
    conn = connect(db)
    conn.execute("INSERT INTO learners (id, name, quiz, finished, first_seen, last_seen) "
                 "VALUES ('a', 'Ann', 'not json', '{\"a\": 1}', 0, 0)")
    [row] = learner_rows(conn)
    assert row["quiz"] == {} and row["finished"] == []
    assert "Ann" in page_html([row], "t")


def test_the_app_reports_step_wrong_moves_and_quiz(tmp_path, monkeypatch):
    db = tmp_path / "c.sqlite3"
    monkeypatch.setenv(CLASS_DB_ENV, str(db))
    seat = new_token()
    app = App()
    assert app.class_box() is not None and app.classroom is not None
    app.classroom.kernel_id = _bound_kernel(db, seat)  # as uu app does when it hands the page out
    app.open_lesson("setup")
    assert not db.exists() or not learner_rows(connect(db))  # no name yet: nothing reported
    assert "control" in app.set_learner_name("A\u0007")
    assert app.set_learner_name("Ann") is None
    assert app._class_box.msg.value.count("Ann") == 1
    assert "In class as <b>Ann</b>: your teacher sees your progress" in app.class_label.value
    screen = app.lesson_screens["setup"]
    screen.on_choice(1)  # wrong
    screen.on_choice(2)  # wrong again
    [row] = learner_rows(connect(db))
    assert (row["name"], row["lesson"], row["step"], row["steps"], row["wrong"]) == ("Ann", "Setting up", 1, 6, 2)
    screen.on_choice(3)  # right: step 2, no wrong move there yet
    [row] = learner_rows(connect(db))
    assert (row["step"], row["wrong"]) == (2, 0)
    from uu.engine.actions import Action

    screen.on_action(Action("play", card="Neigh"))  # not a legal move on step 2
    assert screen.feedback.kind == "illegal"
    app.show_home()
    [row] = learner_rows(connect(db))
    assert row["lesson"] == "The home page" and row["step"] is None
    since = row["step_since"]
    app.show_home()
    assert learner_rows(connect(db))[0]["step_since"] == since  # still there since then
    app.open_lesson("setup")  # back on step 2: its wrong move still counts
    [row] = learner_rows(connect(db))
    assert (row["step"], row["wrong"]) == (2, 1)
    # the browser keeps the name; a reload (a new kernel, the same seat cookie) continues the same row
    state = app.saved_state()
    assert state["learner"] == {"id": app.classroom.learner_id, "name": "Ann"}
    assert app.classroom.learner_id == learner_key(seat)
    again = App()
    again.classroom.kernel_id = _bound_kernel(db, seat)
    import json

    again.store._on_message(again.store, {"type": "restore", "items": {"uu-progress": json.dumps(state)}}, [])
    assert again.classroom.name == "Ann" and again.classroom.learner_id == app.classroom.learner_id
    assert len(learner_rows(connect(db))) == 1
    for a in (app, again):
        a.classroom.stop()


def test_without_the_class_view_nothing_is_reported(tmp_path, monkeypatch):
    monkeypatch.delenv(CLASS_DB_ENV, raising=False)
    app = App()
    assert app.classroom is None and app.class_box() is None
    assert "no class view" in app.set_learner_name("Ann")
    assert "learner" not in app.saved_state()
    assert not list(tmp_path.iterdir())


def test_a_goal_missed_counts_as_a_wrong_move_in_the_class_view(tmp_path, monkeypatch):
    """Lesson 1's "Win the game": a DRAW ends the turn without the goal and the step starts again on the same
    position; the class view counts it as a wrong move (it counted none: issue 38)."""
    from uu.engine.actions import Action

    db = tmp_path / "c.sqlite3"
    monkeypatch.setenv(CLASS_DB_ENV, str(db))
    app = App()
    app.classroom.kernel_id = _bound_kernel(db, new_token())
    app.open_lesson("goal")
    assert app.set_learner_name("Ann") is None
    screen = app.lesson_screens["goal"]
    while screen.runner.step.kind != "goal":
        assert screen.click_answer()
    step = screen.runner.progress[0]
    screen.on_action(Action("draw"))
    assert screen.feedback.kind == "other" and screen.runner.progress[0] == step
    [row] = learner_rows(connect(db))
    assert (row["step"], row["wrong"]) == (step, 1)
    assert screen.click_answer() and screen.runner.progress[0] == step + 1  # the step still goes on


def _bound_kernel(db: Path, seat: str) -> str:
    kernel_id = str(uuid.uuid4())
    bind_kernel(db, kernel_id, seat)
    return kernel_id


def test_a_page_cannot_write_or_rename_another_learners_row(tmp_path, monkeypatch):
    """The row is the server's binding of the kernel to the browser's seat cookie: a page whose saved progress
    claims Ann's row id (and a name) writes its own row, and Ann's stays hers."""
    import json

    db = tmp_path / "c.sqlite3"
    monkeypatch.setenv(CLASS_DB_ENV, str(db))
    ann = App()
    ann.classroom.kernel_id = _bound_kernel(db, new_token())
    assert ann.set_learner_name("Ann") is None
    claim = {"v": 1, "learner": {"id": ann.classroom.learner_id, "name": "Mallory"}}
    eve = App()
    eve.classroom.kernel_id = _bound_kernel(db, new_token())
    eve.store._on_message(eve.store, {"type": "restore", "items": {"uu-progress": json.dumps(claim)}}, [])
    eve.open_lesson("setup")
    rows = {r["id"]: r for r in learner_rows(connect(db))}
    assert rows[ann.classroom.learner_id]["name"] == "Ann" and rows[ann.classroom.learner_id]["lesson"] == "The home page"
    assert eve.classroom.learner_id != ann.classroom.learner_id
    assert rows[eve.classroom.learner_id]["name"] == "Mallory" and len(rows) == 2
    unbound = ClassReporter(db, kernel_id=str(uuid.uuid4()))  # a kernel the server did not bind: a row of its own
    assert unbound.learner_id not in rows and valid_learner_id(unbound.learner_id)
    hub = ClassReporter(db, "hub-user-ada-lovelace")  # a caller's own identity is the row key
    assert hub.learner_id == "hub-user-ada-lovelace"
    for a in (ann, eve):
        a.classroom.stop()


@pytest.mark.parametrize("name", [" =1+1", "\u00a0=SUM(1)", "\t=1", "\r=1", "\u2003+1", "\u200b-1", "\ufeff@x",
                                  "\u3000=1", "\n=1", "\uff1d1+1", "=1", "+1", "-1", "@x",
                                  # issue #39: these slipped past (marks, fillers, a variation selector...)
                                  "\u034f=1", "\u3164=1", "\u115f+1", "\uffa0-1", "\ufe0f@x", "\u2800=1",
                                  "\u180b=1", "\U000e0100=1", "\u2065=1", "\ue000=1", "\u200e\u034f\u3164 =1"])
def test_every_cell_a_spreadsheet_could_run_is_quoted(name):
    from uu.server.classview import _cell

    assert _cell(name) == "'" + name
    assert _cell("Ann") == "Ann" and _cell(" Ann") == " Ann" and _cell(3) == "3" and _cell(None) == ""


def test_a_forged_learner_in_the_browser_is_ignored(tmp_path, monkeypatch):
    monkeypatch.setenv(CLASS_DB_ENV, str(tmp_path / "c.sqlite3"))
    import json

    app = App()
    bad = {"v": 1, "learner": {"id": "x'; DROP TABLE learners; --", "name": "Eve"}}
    app.store._on_message(app.store, {"type": "restore", "items": {"uu-progress": json.dumps(bad)}}, [])
    assert app.classroom.name is None  # the whole saved value is refused as malformed
    with pytest.raises(sqlite3.OperationalError):
        sqlite3.connect(tmp_path / "c.sqlite3").execute("SELECT * FROM learners").fetchall()


def test_the_lessons_folder_on_binder_is_found_from_the_notebooks_folder(tmp_path, monkeypatch):
    """On Binder the repository is the home directory and Voila runs the notebook from uu/notebooks; the package
    itself is installed elsewhere (site-packages)."""
    from uu.tutor.folder import FOLDER_NAME, lessons_folder

    monkeypatch.delenv(LESSONS_ENV, raising=False)
    notebooks = tmp_path / "uu" / "notebooks"
    notebooks.mkdir(parents=True)
    assert lessons_folder(cwd=notebooks) in (None, ROOT / FOLDER_NAME)
    (tmp_path / FOLDER_NAME).mkdir()
    if not (ROOT / FOLDER_NAME).is_dir():
        assert lessons_folder(cwd=notebooks) == tmp_path / FOLDER_NAME
    monkeypatch.setenv(LESSONS_ENV, str(tmp_path / "elsewhere"))
    assert lessons_folder(cwd=notebooks) == tmp_path / "elsewhere"


def _learner_writes(path: str, n: int) -> int:
    r = ClassReporter(path)
    r.name = f"learner {r.learner_id[:4]}"
    written = sum(r.report({"lesson": "Neigh!", "step": i % 9 + 1, "steps": 9, "wrong": i % 3}) for i in range(n))
    r.stop()
    return written


def test_many_kernels_write_at_once(tmp_path):
    """A class's kernels report together (WAL, short transactions, a busy timeout): every report is written,
    one row per learner, while the teacher's page reads."""
    from concurrent.futures import ProcessPoolExecutor

    db = str(tmp_path / "c.sqlite3")
    connect(db).close()
    with ProcessPoolExecutor(8) as pool:
        jobs = [pool.submit(_learner_writes, db, 60) for _ in range(8)]
        reads = 0
        while not all(j.done() for j in jobs):
            learner_rows(connect(db))
            reads += 1
        assert [j.result() for j in jobs] == [60] * 8
    rows = learner_rows(connect(db))
    assert len(rows) == 8 and all(r["steps"] == 9 for r in rows) and reads > 0


def test_a_position_too_large_for_a_link_says_so(monkeypatch):
    import uu.widgets.sandbox_share as share

    app = App()
    app.open_link("http://room:8866/?position=" + position_code(POSITION))
    sandbox = app.sandbox_screen
    assert sandbox.share.position_link.value and not sandbox.share.position_link_note.value
    monkeypatch.setattr(share, "MAX_CODE_CHARS", 100)
    sandbox.refresh()
    assert sandbox.share.position_link.value == "" and "too large for a link" in sandbox.share.position_link_note.value


# ---- issue #39: the class view on one machine: rows removed, names told apart, token guesses paced ----------
def test_two_learners_with_one_name_are_shown_apart():
    from uu.server.classview import shown_names

    rows = [{"id": "b", "name": "Ann", "first_seen": 20.0}, {"id": "a", "name": "Ann", "first_seen": 10.0},
            {"id": "c", "name": "ANN", "first_seen": 30.0}, {"id": "d", "name": "Ann (2)", "first_seen": 5.0},
            {"id": "e", "name": "Bo", "first_seen": 1.0}]
    assert shown_names(rows) == {"a": "Ann", "b": "Ann (3)", "c": "ANN (4)", "d": "Ann (2)", "e": "Bo"}
    page = page_html([{**r, "lesson": None, "step": None, "steps": None, "step_since": None, "wrong": 0,
                       "quiz": {}, "finished": [], "last_seen": 0.0} for r in rows], "tok")
    assert page.count(">Ann (3)<") == 1 and page.count(">Ann<") == 1


def test_wrong_tokens_are_paced_per_address():
    from uu.server.classview import GUESS_WINDOW_S, GUESSES, Guesses

    now = [0.0]
    g = Guesses(clock=lambda: now[0])
    for _ in range(GUESSES):
        assert g.refused("10.0.0.5") == 0
        g.wrong("10.0.0.5")
    assert g.refused("10.0.0.5") == pytest.approx(GUESS_WINDOW_S) and g.refused("10.0.0.6") == 0
    now[0] += GUESS_WINDOW_S + 1
    assert g.refused("10.0.0.5") == 0


def test_the_class_view_on_one_machine_removes_a_row_and_refuses_guessers(tmp_path):
    """A real server with `class_handlers` (as `uu app --class` serves them): a teacher's Remove; ten wrong
    tokens from one address, after which even the right one waits."""
    import asyncio
    import json as jsonlib

    import tornado.httpclient
    import tornado.web

    from conftest import run_async
    from uu.server.appserver import free_port
    from uu.server.classview import GUESSES, class_handlers

    db = tmp_path / "c.sqlite3"
    for name in ("Ann", "Ann", "Bo"):
        r = ClassReporter(db)
        r.name = name
        r.report({"lesson": "x"})
    token = "the-right-token-123"

    async def scenario() -> dict:
        port = free_port()
        server = tornado.web.Application(class_handlers("/", str(db), token)).listen(port, "127.0.0.1")
        client = tornado.httpclient.AsyncHTTPClient()
        base = f"http://127.0.0.1:{port}/uu/"

        async def call(path: str, body: str | None = None) -> tornado.httpclient.HTTPResponse:
            return await client.fetch(base + path, method="POST" if body is not None else "GET", body=body,
                                      raise_error=False, follow_redirects=False)
        try:
            out: dict = {}
            first = await call(f"class?token={token}")
            first_cookie = first.headers.get_list("Set-Cookie")
            page = first.body.decode()
            out["shown"] = sorted(x["name"] for x in jsonlib.loads(
                (await call(f"class.json?token={token}")).body)["learners"])
            ids = {x["name"]: x["id"] for x in jsonlib.loads((await call(f"class.json?token={token}")).body)["learners"]}
            out["forms"] = page.count("<form method='post' action='class/remove?token=")
            out["bad remove"] = (await call("class/remove?token=wrong", f"id={ids['Bo']}")).code
            removed = await call(f"class/remove?token={token}", f"id={ids['Bo']}")
            out["removed"] = (removed.code, removed.headers.get("Location"))
            out["after"] = sorted(x["name"] for x in jsonlib.loads(
                (await call(f"class.json?token={token}")).body)["learners"])
            out["guesses"] = [(await call(f"class.csv?token=guess{n}")).code for n in range(GUESSES + 2)]
            late = await call(f"class?token={token}")
            out["right token now"] = (late.code, late.headers.get("Retry-After"), late.body.decode())
            # the teacher's browser, which opened the page before the guessing, keeps its way in
            cookie = next(c.split(";")[0] for c in first_cookie if c.startswith("uu-class-teacher="))
            teacher = await client.fetch(base + f"class?token={token}", headers={"Cookie": cookie}, raise_error=False)
            forged = await client.fetch(base + "class?token=guess", headers={"Cookie": cookie}, raise_error=False)
            out["teacher during guessing"] = (teacher.code, forged.code)
            return out
        finally:
            server.stop()
            await asyncio.sleep(0)

    out = run_async(scenario())
    assert out["shown"] == ["Ann", "Ann (2)", "Bo"] and out["forms"] == 3
    assert out["bad remove"] == 403
    assert out["removed"] == (303, f"../class?token={token}&lang=en")
    assert out["after"] == ["Ann", "Ann (2)"]
    assert out["guesses"][:GUESSES - 1] == [403] * (GUESSES - 1) and out["guesses"][-2:] == [429, 429]
    code, retry, text = out["right token now"]
    assert code == 429 and int(retry) > 0 and "Too many wrong tokens" in text
    assert out["teacher during guessing"] == (200, 429)  # the cookie lets the right token in, no guess
