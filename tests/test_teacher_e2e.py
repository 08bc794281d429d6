"""Browser end-to-end for teachers (issue #18): `uu app --lessons DIR --class`, driven in headless Chromium.

- a teacher's lesson folder is served: its good lesson is listed under "Your teacher's lessons" and played to
  the end by clicking, its broken lesson is listed with the `uu lesson check` message, and the app runs;
- a position link from the sandbox opens a new page in the sandbox at that position; `?lesson=` opens a
  lesson; a malformed or oversized link is a message on the home;
- two learners (two browsers) seen live in the class view (a hostile name shown as text), which refuses
  requests without its token, also from a learner's page;
- the class view's database survives a server restart.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from test_e2e import (
    HOME_READY,
    LOAD_MS,
    ROOT,
    SANDBOX_YAML,
    STEP_MS,
    click_plan,
    exact,
    export_text,
    finish_lesson,
    lesson_file,
    make_gesture,
    no_error_shown,
    open_home,
    open_sandbox,
    paste_and_load,
    shot,
)

from uu.scenario import build_game, parse_scenario
from uu.scenario.export import position_signature
from uu.server.appserver import AppServer

pytest.importorskip("playwright", reason="playwright (the test extra) is not installed")
from playwright.sync_api import Browser, Page, expect  # noqa: E402

pytestmark = pytest.mark.browser

TOKEN = "teacher-token-for-tests-0123"
MY_ID, MY_TITLE = "my-setup", "Setting up, our way"
HOSTILE_NAME = "<img src=x onerror=alert(1)>Ann"


def teacher_folder(where: Path) -> Path:
    """A teacher's folder: a copy of the shipped setup lesson under an id and title of its own, and a broken
    lesson (an unknown key, required keys missing)."""
    folder = where / "my-lessons"
    folder.mkdir()
    text = (ROOT / "lessons" / "02-setup.yaml").read_text()
    text = re.sub(r"(?m)^  id: setup$", f"  id: {MY_ID}", text)
    text = re.sub(r"(?m)^  order: 2$", "  order: 102", text)
    text = re.sub(r"(?m)^  title: Setting up$", f"  title: {MY_TITLE}", text)
    (folder / "my-setup.yaml").write_text(text)
    (folder / "broken.yaml").write_text("name: broken\nplayers: [A, B]\nlesson:\n  id: broken\n  oops: 1\n")
    return folder


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def class_json(base: str) -> list[dict]:
    status, body = get(f"{base}uu/class.json?token={TOKEN}")
    assert status == 200, body
    return json.loads(body)["learners"]


@pytest.fixture(scope="module")
def teacher_server(tmp_path_factory):
    cwd = tmp_path_factory.mktemp("teacher")
    folder = teacher_folder(cwd)
    args = ("--lessons", str(folder), "--class", "--class-db", str(cwd / "class.sqlite3"), "--class-token", TOKEN,
            "--preheat", "2")  # (a class's pool of 30 would take the test machine's CPU while it fills)
    with AppServer(cwd, max_kernels=20, console_script=True, extra_args=args) as server:
        server.wait_ready()
        yield server


def test_teacher_lessons_are_served_and_played(page: Page, teacher_server):
    log = teacher_server.log_text()
    assert f"PASS {MY_TITLE}" in log and "broken.yaml: line 5, lesson.oops: Extra inputs" in log
    open_home(page, teacher_server.url)
    section = page.locator(".uu-teacher-lessons")
    expect(section.locator(f"button.uu-lesson-{MY_ID}")).to_be_visible(timeout=STEP_MS)
    expect(section).to_contain_text(MY_TITLE)
    broken = section.locator(".uu-broken-lesson")
    expect(broken).to_contain_text("broken.yaml")
    expect(broken).to_contain_text("lesson.oops: Extra inputs are not permitted")
    assert "/my-lessons/" not in broken.inner_text()  # the folder's path on the server is not shown
    # the shipped course is still there, and the teacher's lesson is not in it
    expect(page.locator(".uu-lessons button.uu-lesson-setup")).to_be_visible()
    assert page.locator(f".uu-lessons button.uu-lesson-{MY_ID}").count() == 0
    shot(page, "teacher-lessons")
    finish_lesson(page, teacher_server.url, MY_ID, shots=False,
                  path=Path(teacher_server.log_path).parent / "my-lessons" / "my-setup.yaml")
    no_error_shown(page)


def test_position_link_round_trip(page: Page, browser: Browser, teacher_server):
    screen = open_sandbox(page, teacher_server.url)
    paste_and_load(screen, SANDBOX_YAML)
    expect(screen.locator(".uu-sb-position")).to_contain_text("Sandbox e2e position", timeout=STEP_MS)
    before = export_text(screen)
    link_box = screen.locator(".uu-sb-link input")
    expect(link_box).to_have_value(re.compile(r"\?position=v1\.[A-Za-z0-9_-]+$"), timeout=STEP_MS)
    link = link_box.input_value()
    assert link.startswith(teacher_server.url + "?position=v1."), link
    assert len(link) < 2000, len(link)  # compact: the position is about 1 kB of YAML

    other = browser.new_context().new_page()  # another browser: nothing shared but the link
    other.goto(link, wait_until="commit")
    sandbox = other.locator(".uu-sandbox-screen")
    expect(sandbox.locator(".uu-sb-position")).to_contain_text("Sandbox e2e position", timeout=LOAD_MS)
    after = export_text(sandbox)
    assert after == before
    assert position_signature(build_game(parse_scenario(after))) == \
        position_signature(build_game(parse_scenario(SANDBOX_YAML)))
    no_error_shown(other)
    shot(other, "position-link-opened")

    # a lesson by its id
    other.goto(f"{teacher_server.url}?lesson=neigh", wait_until="commit")
    expect(other.locator(".uu-lesson.uu-lesson-neigh .uu-progress")).to_contain_text("Step 1 of", timeout=LOAD_MS)
    other.context.close()


@pytest.mark.parametrize("query, message", [
    ("position=v1.%40%40not-base64", "damaged"),
    ("position=v1.eJzLSM3JyQcABiwCFQ", "name"),          # zlib of "hello": not a position
    ("position=v2.abc", "should start with 'v1.'"),
    ("position=v1." + "A" * 7000, "too long"),
    ("lesson=%3Cb%3Enope%3C%2Fb%3E", 'called "<b>nope</b>"'),
    ("lesson=%E2%80%AEhgien%E2%81%A6x", 'called "hgienx"'),   # a right-to-left override and an isolate
    ("lesson=", 'called ""'),
])
def test_a_bad_link_is_a_message(page: Page, teacher_server, query, message):
    page.goto(f"{teacher_server.url}?{query}", wait_until="commit")
    expect(page.locator(HOME_READY).first).to_be_visible(timeout=LOAD_MS)
    box = page.locator(".uu-app > .uu-error .uu-error-box, .uu-error .uu-error-box").first
    expect(box).to_contain_text(message, timeout=STEP_MS)
    assert not set(box.inner_text()) & set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")
    assert page.locator(".uu-error-box b").count() == 0  # markup in a link is text
    assert "Traceback" not in page.inner_text("body")


def join(page: Page, url: str, name: str) -> None:
    open_home(page, url)
    box = page.locator(".uu-class-box")
    expect(box).to_contain_text("Your teacher can see your progress in this class: your name, lesson, step, "
                                "wrong moves and quiz results.")
    box.locator(".uu-class-name input").fill(name)
    box.locator("button.uu-class-join").click()
    expect(box.locator(".uu-class-msg")).to_contain_text(f"You are in the class as {name}", timeout=STEP_MS)
    # the kernel has the name; the browser keeps it once the progress store's next state reaches the page
    page.wait_for_function("n => (window.localStorage.getItem('uu-progress') || '').includes(n)", arg=name,
                           timeout=STEP_MS)


def test_two_learners_seen_live_in_the_class_view(browser: Browser, teacher_server):
    base = teacher_server.url
    for path in ("uu/class", "uu/class.json", "uu/class.csv", "uu/class?token=wrong",
                 "uu/class.csv?token=" + TOKEN[:-1]):
        status, body = get(base + path)
        assert status == 403 and "Bo" not in body, (path, status)

    ann = browser.new_context().new_page()
    bo = browser.new_context().new_page()
    join(ann, base, HOSTILE_NAME)
    # a name with control or text-direction characters is refused, with what is allowed
    open_home(bo, base)
    bo.locator(".uu-class-name input").fill("Bo\u202e")
    bo.locator("button.uu-class-join").click()
    expect(bo.locator(".uu-class-msg")).to_contain_text("cannot contain control or text-direction characters",
                                                        timeout=STEP_MS)
    join(bo, base, "Bo")

    teacher = browser.new_context().new_page()
    teacher.goto(f"{base}uu/class?token={TOKEN}")
    connected = teacher.locator("#connected")
    expect(connected.locator("td.name", has_text=exact(HOSTILE_NAME))).to_be_visible(timeout=STEP_MS)
    expect(connected.locator("td.name", has_text=exact("Bo"))).to_be_visible()
    assert teacher.locator("#connected img").count() == 0  # the hostile name is text
    expect(connected).to_contain_text("The home page")

    # Ann opens the teacher's lesson and answers its first question wrong: seen live (the page reloads itself)
    ann.locator(f"button.uu-lesson-{MY_ID}").click()
    lesson = ann.locator(f".uu-lesson.uu-lesson-{MY_ID}")
    lesson.locator("button.uu-choice").filter(has_text=exact("114")).first.click()
    expect(lesson.locator(".uu-feedback")).to_contain_text("Not quite", timeout=STEP_MS)
    ann_row = connected.locator("tr", has=teacher.locator("td.name", has_text=exact(HOSTILE_NAME)))
    expect(ann_row).to_contain_text(MY_TITLE, timeout=15_000)
    expect(ann_row).to_contain_text("1 of 6")
    expect(ann_row.locator("td.wrong")).to_have_text("1")
    # Bo plays the shipped lesson up to its last step, answering its first quiz question right
    bo.locator("button.uu-lesson-setup").click()
    screen = bo.locator(".uu-lesson.uu-lesson-setup")
    for what, label, after in click_plan(lesson_file("setup"))[:5]:
        if what == "action":
            make_gesture(bo, screen, label)
        else:
            button = (screen.locator("button.uu-next") if what == "next" else
                      screen.locator("button.uu-choice").filter(has_text=exact(str(label))).first)
            expect(button).to_be_visible(timeout=STEP_MS)
            button.click()
        expect(screen.locator(".uu-progress")).to_contain_text(after, timeout=STEP_MS)
    bo_row = connected.locator("tr", has=teacher.locator("td.name", has_text=exact("Bo")))
    expect(bo_row).to_contain_text("6 of 6", timeout=15_000)
    expect(bo_row).to_contain_text("Setting up: 1/1")
    expect(bo_row.locator("td.wrong")).to_have_text("0")
    shot(teacher, "class-view")

    # a learner's page cannot read the class view (no token) nor the CSV
    for path in ("uu/class.json", "uu/class.csv"):
        status = ann.evaluate(f"async () => (await fetch('/{path}')).status")
        assert status == 403
    status, body = get(f"{base}uu/class.csv?token={TOKEN}")
    assert status == 200 and "'" + "=" not in body
    assert HOSTILE_NAME in body and "Bo" in body and MY_TITLE in body
    for p in (ann, bo, teacher):
        p.context.close()


def test_a_reload_keeps_the_row_and_a_page_cannot_take_another(browser: Browser, teacher_server):
    """The row is the server's binding of the page's kernel to the browser's seat cookie: Ada's reload continues
    her row; another browser whose saved progress claims Ada's row id (and another name) gets a row of its own,
    and Ada's row keeps her name."""
    base = teacher_server.url

    def names() -> list[str]:
        return [row["name"] for row in class_json(base)]

    ada = browser.new_context().new_page()
    join(ada, base, "Ada Row")
    saved = json.loads(ada.evaluate("() => window.localStorage.getItem('uu-progress')"))
    assert saved["learner"]["name"] == "Ada Row" and saved["learner"]["id"]
    ada.reload()
    expect(ada.locator(".uu-class-label")).to_contain_text("In class as Ada Row", timeout=LOAD_MS)
    assert names().count("Ada Row") == 1

    forged = json.dumps({**saved, "learner": {"id": saved["learner"]["id"], "name": "Eve Forged"}})
    eve_context = browser.new_context()
    eve_context.add_init_script(f"window.localStorage.setItem('uu-progress', {json.dumps(forged)});")
    eve = eve_context.new_page()
    open_home(eve, base)
    expect(eve.locator(".uu-class-label")).to_contain_text("In class as Eve Forged", timeout=LOAD_MS)
    eve.wait_for_timeout(500)
    now = names()
    assert now.count("Ada Row") == 1 and now.count("Eve Forged") == 1, now
    for p in (ada, eve):
        p.context.close()


def test_the_class_view_survives_a_restart(browser: Browser, tmp_path):
    db = tmp_path / "kept.sqlite3"
    args = ("--class", "--class-db", str(db), "--class-token", TOKEN, "--preheat", "0")
    with AppServer(tmp_path, max_kernels=5, console_script=True, extra_args=args) as server:
        server.wait_ready()
        page = browser.new_context().new_page()
        join(page, server.url, "Cleo")
        page.locator("button.uu-lesson-setup").click()
        expect(page.locator(".uu-lesson.uu-lesson-setup .uu-progress")).to_contain_text("Step 1 of 6",
                                                                                         timeout=STEP_MS)
        page.wait_for_timeout(500)
        [row] = class_json(server.url)
        assert row["name"] == "Cleo" and row["lesson"] == "Setting up" and row["connected"]
        page.context.close()
    with AppServer(tmp_path, max_kernels=5, console_script=True, extra_args=args) as server:
        server.wait_ready()
        [row] = class_json(server.url)
        assert row["name"] == "Cleo" and row["lesson"] == "Setting up" and row["step"] == "1 of 6"
        status, body = get(f"{server.url}uu/class.csv?token={TOKEN}")
        assert status == 200 and "Cleo" in body
