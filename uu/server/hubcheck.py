"""`python3 dev.py hub-check [--users N]`: uu on a real JupyterHub, end to end, on this machine.

dev.py installs JupyterHub (pinned) into .venv and configurable-http-proxy (pinned) from npm into a folder of
.venv, then runs this module, which:
1. writes a hub config that loads deploy/jupyterhub/jupyterhub_config.py (the file an administrator uses) and
   swaps, for a test, what needs a real machine's accounts: a test login (DummyAuthenticator with a random
   password), SimpleLocalProcessSpawner (every user's server runs as the current OS user, with a home of its
   own in a temporary folder), free ports on 127.0.0.1, the hub's files in the temporary folder, a teacher's
   lessons folder holding one lesson;
2. starts the hub (which starts the proxy and the class service, uu/server/hubservice.py), and checks that a
   share link opened before logging in goes through the hub's login and back to it;
3. in headless Chromium, N learners (default 3) log in together, each lands in the tutor on their own server,
   joins the class, opens the teacher's lesson through a `?lesson=` link (with `&lang=`) and plays its first
   move by clicking the lit cards (data-legal="true"); at the end a `?position=` link opens a learner's sandbox;
4. a teacher logs in and must see every learner's row, at the step they reached, in the class view; a learner
   must get 403 on the class view (through the hub's login and with their own token), and a report posted
   with a learner's token that names another learner must land in the poster's own row;
5. two of the learners, each on their own server, play at one table served by the class service ("Play with
   others": the first makes a two-seat table, the second opens its link through the hub and joins, both
   move by clicking their tables, and every move must reach the other's screen);
6. stops everything it started (the hub stops the servers, the proxy and the service; any process left with
   this run's marker in its environment is killed) and removes the temporary folder.
The last line is `HUB-CHECK OK <figures>` (exit 0) or `HUB-CHECK FAILED <why>` (exit 1). The figures: spawn
(log in to the tutor's home, all N together), first interaction (the lesson's move clicked to the next table),
memory per user (RSS of the user's server and kernel), and the shared table's moves (the slowest to reach the
other screen).
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import quote

import yaml

from uu.server.hubconfig import APP_URL, socket_dir_for

ROOT = Path(__file__).resolve().parents[2]
DEPLOY_CONFIG = ROOT / "deploy" / "jupyterhub" / "jupyterhub_config.py"
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROME_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
MARKER_ENV = "UU_HUB_CHECK_RUN"
LAST_FAILURE = Path(tempfile.gettempdir()) / "uu-hub-check-last-failure"
LESSON_SOURCE = "09-pile.yaml"  # copied into the teacher's folder; its first step is a move
LESSON_ID = "hub-check-pile"
LESSON_TITLE = "The pile, from your teacher"
TEACHER = "teacher"  # in the uu-teachers group of deploy/jupyterhub/jupyterhub_config.py
SERVICE = "/services/uu-class/"
POSITION_NAME = "A position from a link"
WAIT_MS = 180_000
# when the tutor's home appeared in a page (the checks wait for pages one after another; this is each one's own)
SHOWN_JS = """const uuShown = setInterval(() => {
  if (document.querySelector('.uu-class-box')) { window.uuShownAt = Date.now(); clearInterval(uuShown); }
}, 50);"""


class CheckFailed(Exception):
    pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def say(msg: str) -> None:
    print(f"hub-check: {msg}", flush=True)


# ---- the hub --------------------------------------------------------------------------------------------------
def teacher_lessons(folder: Path) -> list[str]:
    """A teacher's lessons folder with one lesson (a shipped one under a new id); returns the first move's
    gesture (the table keys to click)."""
    from uu.table.seat_view import legal_actions
    from uu.tutor.check import shipped_lessons
    from uu.tutor.lesson_runner import LessonRunner

    source = next(p for p in shipped_lessons() if p.name == LESSON_SOURCE)
    data = yaml.safe_load(source.read_text())
    data["lesson"]["id"] = LESSON_ID
    data["lesson"]["title"] = LESSON_TITLE
    folder.mkdir(parents=True)
    path = folder / f"{LESSON_ID}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False))
    runner = LessonRunner(path)
    answer = runner.answer()
    legal = runner.game.legal_actions
    for a in legal_actions(runner.game, runner.learner):
        if legal[a["id"]] == answer:
            return list(a["gesture"])
    raise CheckFailed(f"{LESSON_SOURCE}: its first step's answer is not on the table")


def hub_config(work: Path, ports: dict[str, int], password: str, admin_token: str, proxy: str) -> Path:
    """The hub's config for this check: the deployment file, then the test's swaps (see the docstring)."""
    service_url = f"http://127.0.0.1:{ports['service']}"
    text = f"""
import sys
load_subconfig({str(DEPLOY_CONFIG)!r})
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = {password!r}
c.Authenticator.allow_all = True
c.JupyterHub.spawner_class = "jupyterhub.spawner.SimpleLocalProcessSpawner"
c.SimpleLocalProcessSpawner.home_dir_template = {str(work / "homes" / "{username}")!r}
c.Spawner.environment["UU_CLASS_SERVICE_URL"] = {service_url + SERVICE!r}
c.Spawner.environment["UU_TABLES_URL"] = {service_url + SERVICE + "uu/tables"!r}
c.Spawner.environment["UU_LESSONS_DIR"] = {str(work / "teacher-lessons")!r}
c.Spawner.environment[{MARKER_ENV!r}] = {str(work)!r}
c.Spawner.start_timeout = 300
if {os.geteuid() == 0!r}:  # this check runs every user as the current OS user; jupyter refuses root unless told
    c.Spawner.args = ["--allow-root"]
c.Spawner.http_timeout = 300
c.JupyterHub.bind_url = "http://127.0.0.1:{ports['public']}"
c.JupyterHub.hub_bind_url = "http://127.0.0.1:{ports['hub']}"
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{ports['proxy_api']}"
c.ConfigurableHTTPProxy.command = [{proxy!r}]
c.JupyterHub.db_url = "sqlite:///" + {str(work / "jupyterhub.sqlite")!r}
c.JupyterHub.cookie_secret_file = {str(work / "cookie_secret")!r}
c.JupyterHub.pid_file = {str(work / "jupyterhub.pid")!r}
c.JupyterHub.concurrent_spawn_limit = 0  # the check's own N, all together
(uu_class,) = [s for s in c.JupyterHub.services if s["name"] == "uu-class"]
uu_class["url"] = {service_url!r}
uu_class["command"] = [sys.executable, "-m", "uu.server.hubservice", "--db", {str(work / "class.sqlite3")!r}]
c.JupyterHub.services.append({{"name": "hub-check", "api_token": {admin_token!r}}})
c.JupyterHub.load_roles.append({{"name": "hub-check", "services": ["hub-check"],
                                "scopes": ["tokens", "read:users", "admin:users"]}})
"""
    path = work / "jupyterhub_config.py"
    path.write_text(text)
    return path


def marked_pids(work: Path) -> list[int]:
    """Processes of this run: those with the run's marker in their environment."""
    mark = f"{MARKER_ENV}={work}".encode()
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if mark in (entry / "environ").read_bytes().split(b"\0"):
                out.append(int(entry.name))
        except OSError:
            continue
    return out


def memory_mib(pid: int) -> tuple[float, float]:
    """(RSS, PSS) of a process in MiB; PSS counts memory shared with other processes in shares."""
    rss = pss = 0.0
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) / 1024
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                pss = int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return rss, pss


def cpu_s(pid: int) -> float:
    """CPU time (user + system) a process has used so far, in seconds."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def user_of(pid: int) -> str | None:
    try:
        for item in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0"):
            if item.startswith(b"JUPYTERHUB_USER="):
                return item.split(b"=", 1)[1].decode()
    except OSError:
        pass
    return None


def memory_per_user(work: Path) -> dict[str, dict[str, float]]:
    """{user: {"rss", "pss", "server", "kernel", "cpu"}}: the user's processes (their server and its kernel)
    summed, in MiB, the RSS of each kind, and the CPU seconds they used so far (start-up included)."""
    out: dict[str, dict[str, float]] = {}
    for pid in marked_pids(work):
        user = user_of(pid)
        if not user:
            continue
        rss, pss = memory_mib(pid)
        try:
            kind = "kernel" if b"ipykernel" in Path(f"/proc/{pid}/cmdline").read_bytes() else "server"
        except OSError:
            continue
        mine = out.setdefault(user, {"rss": 0.0, "pss": 0.0, "server": 0.0, "kernel": 0.0, "cpu": 0.0})
        mine["cpu"] += cpu_s(pid)
        mine["rss"] += rss
        mine["pss"] += pss
        mine[kind] += rss
    return out


def http(url: str, token: str | None = None, body: Any = None, method: str | None = None) -> tuple[int, Any]:
    headers = {"Authorization": f"token {token}"} if token else {}
    data = None
    if body is not None:
        data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
    req = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            text = r.read().decode()
            code = r.status
    except urllib.error.HTTPError as e:
        text, code = e.read().decode(errors="replace"), e.code
    try:
        return code, json.loads(text)
    except ValueError:
        return code, text


def login_keeps_the_link(base: str) -> None:
    """A share link opened before logging in goes to the hub's login, which comes back to it (query included)."""
    import http.client
    from urllib.parse import parse_qs, urlsplit

    link = f"/hub/user-redirect{APP_URL}?lesson={LESSON_ID}&lang=en"
    where = urlsplit(base)
    conn = http.client.HTTPConnection(where.hostname or "127.0.0.1", where.port, timeout=30)
    try:
        conn.request("GET", link)
        answer = conn.getresponse()
        location = answer.getheader("Location") or ""
    finally:
        conn.close()
    back = parse_qs(urlsplit(location).query).get("next", [""])[0]
    if answer.status != 302 or "/hub/login" not in location or back != link:
        raise CheckFailed(f"a link opened before logging in went to {answer.status} {location!r}, not the login "
                          f"coming back to {link}")


def wait_healthy(base: str, hub: subprocess.Popen, log: Path, timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if hub.poll() is not None:
            raise CheckFailed(f"the hub exited ({hub.returncode}); its log:\n{log.read_text()[-3000:]}")
        try:
            if http(base + "/hub/health")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise CheckFailed(f"the hub did not answer within {timeout:.0f} s")


def stop_all(hub: subprocess.Popen | None, work: Path) -> list[int]:
    """Stop the hub (it stops the users' servers, the proxy and the service), then anything of this run that
    is left. Returns the pids that had to be killed."""
    if hub is not None and hub.poll() is None:
        hub.send_signal(signal.SIGTERM)
        try:
            hub.wait(timeout=60)
        except subprocess.TimeoutExpired:
            hub.kill()
            hub.wait()
    left = marked_pids(work)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in marked_pids(work):
            try:
                os.kill(pid, sig)
            except OSError:
                pass
        deadline = time.monotonic() + 5
        while marked_pids(work) and time.monotonic() < deadline:
            time.sleep(0.1)
    # the proxy is started by the hub without the marker: it stops with the hub; check its port is free
    return left


# ---- the browsers ---------------------------------------------------------------------------------------------
def log_in(page: Any, base: str, user: str, password: str, next_path: str) -> None:
    page.goto(f"{base}/hub/login?next={quote(next_path)}", timeout=WAIT_MS)
    page.fill("input[name=username]", user)
    page.fill("input[name=password]", password)
    page.click("#login_submit")


def play(browser: Any, base: str, users: list[str], password: str, gesture: list[str], shots: Path | None,
         failures: Path | None = None) -> dict[str, Any]:
    """Every learner logs in at once and lands in the tutor; then each joins the class, opens the teacher's
    lesson by its link and plays the first move. Returns the figures and each learner's page."""
    from playwright.sync_api import expect

    learners: dict[str, Any] = {}
    start: dict[str, float] = {}
    home = f"/hub/user-redirect{APP_URL}"
    for user in users:  # all of them log in before any waits: their servers spawn together
        ctx = browser.new_context(viewport={"width": 1280, "height": 800})
        ctx.add_init_script(SHOWN_JS)
        page = ctx.new_page()
        start[user] = time.time()
        log_in(page, base, user, password, home)
        learners[user] = page
    spawn: dict[str, float] = {}
    for user, page in learners.items():
        expect(page.locator(".uu-class-box")).to_be_visible(timeout=WAIT_MS)
        spawn[user] = page.evaluate("() => window.uuShownAt") / 1000 - start[user]
        if f"/user/{user}/voila/render/app.ipynb" not in page.url:
            raise CheckFailed(f"{user} landed on {page.url}, not on their own server's tutor")
        if "from uu.widgets import App" in page.content():  # uu.server.hubconfig: strip_sources
            raise CheckFailed(f"the app notebook's source is in {user}'s page")
    all_in = max(start[u] + spawn[u] for u in users) - min(start.values())
    say(f"{len(users)} learners in the tutor {all_in:.1f} s after the first login "
        f"(each from their login: {', '.join(f'{s:.1f}' for s in spawn.values())} s)")
    first: dict[str, float] = {}
    for i, (user, page) in enumerate(learners.items()):
        stage = "joining the class"
        try:
            # the browser's store must be listening before the name is given: it writes only later changes
            # (uu/widgets/progress.js), and under load it may render after the home is on screen
            expect(page.locator(".uu-progress-store[data-storage='yes']")).to_have_count(1, timeout=WAIT_MS)
            page.locator(".uu-class-name input").fill(f"Learner {i + 1}")
            page.locator(".uu-class-join").click()
            expect(page.locator(".uu-class-msg")).to_contain_text("You are in the class as", timeout=WAIT_MS)
            # the browser keeps the name (uu/widgets/progress.js), so the link's new page reports under it too;
            # a learner who leaves at once, before it is kept, is asked again
            stage = "waiting for the browser to keep the name"
            page.wait_for_function("(name) => (localStorage.getItem('uu-progress') || '').includes(name)",
                                   arg=f"Learner {i + 1}", timeout=WAIT_MS)
            # a share link through the hub: the lesson (a teacher's), and a language passed along
            stage = "opening the lesson link"
            page.goto(f"{base}/hub/user-redirect{APP_URL}?lesson={LESSON_ID}&lang=en", timeout=WAIT_MS)
            screen = page.locator(f".uu-lesson.uu-lesson-{LESSON_ID}")
            expect(screen.locator(".uu-progress")).to_contain_text("Step 1 of", timeout=WAIT_MS)
            stage = "playing the first move"
            t0 = time.monotonic()
            for key in gesture:
                quoted = key.replace("\\", "\\\\").replace('"', '\\"')
                target = screen.locator(f'.uu-t [data-key="{quoted}"][data-legal="true"]:visible').first
                expect(target).to_be_visible(timeout=WAIT_MS)
                target.click()
            expect(screen.locator(".uu-progress")).to_contain_text("Step 2 of", timeout=WAIT_MS)
            first[user] = time.monotonic() - t0
        except Exception as e:
            if failures is not None:
                page.screenshot(path=str(failures / f"{user}.png"))
            kept = page.evaluate("() => { try { return localStorage.getItem('uu-progress'); } catch (e) { return null; } }")
            raise CheckFailed(f"{user}, {stage}: {type(e).__name__}: {str(e).splitlines()[0][:300]} "
                              f"(page {page.url}; kept in the browser: {str(kept)[:200]})") from e
        if shots is not None and i == 0:
            page.screenshot(path=str(shots / "hub-learner-1280.png"))
            page.set_viewport_size({"width": 390, "height": 844})
            page.screenshot(path=str(shots / "hub-learner-390.png"))
        shown = " ".join(page.locator(".uu-error").all_inner_texts()).strip()
        if shown:
            raise CheckFailed(f"{user} sees an error: {shown[:200]}")
    say(f"each learner played the lesson's first move ({', '.join(f'{s:.2f}' for s in first.values())} s)")
    return {"spawn": spawn, "all_in": all_in, "first": first, "pages": learners}


TABLE_SCREEN = ".uu-together-screen"
TABLE_MOVES = 3  # moves each of the two learners makes at their shared table


def _version(page: Any) -> str:
    return str(page.locator(f"{TABLE_SCREEN} .uu-t").get_attribute("data-version"))


def _move(page: Any) -> float | None:
    """Click lit elements of the learner's table (a hand card first) until its version changes: one move.
    Returns when (time.monotonic) the move's last click was made; None when nothing is lit."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect

    old = _version(page)
    for _ in range(8):
        lit = page.locator(f"{TABLE_SCREEN} .uu-t [data-legal='true'][data-zone='hand']:visible")
        if lit.count() == 0:
            lit = page.locator(f"{TABLE_SCREEN} .uu-t [data-legal='true']:visible")
        if lit.count() == 0:
            return None
        clicked = time.monotonic()
        try:
            lit.first.click(timeout=5000)
        except PlaywrightTimeout:
            return None  # the table changed under the click (the other's move came): look at it again
        if _version(page) != old:
            return clicked
        try:
            expect(page.locator(f"{TABLE_SCREEN} .uu-t:not([data-version='{old}'])")).to_have_count(1, timeout=2000)
            return clicked
        except AssertionError:
            continue  # a gesture of several clicks (a card, then where it goes)
    raise CheckFailed("eight clicks on lit elements of the shared table made no move")


def play_together(base: str, pages: list[Any], shots: Path | None) -> dict[str, Any]:
    """Two learners, each in the tutor on their own server, at one table served by the hub service: the first
    makes it ("Play with others", two seats), the second opens its link (through the hub, to their own
    server) and joins, the first starts, and each plays TABLE_MOVES moves by clicking its table. Returns how
    long each move took to reach the other's screen (from the move's last click)."""
    from playwright.sync_api import expect

    a, b = pages
    a.goto(f"{base}/hub/user-redirect{APP_URL}", timeout=WAIT_MS)
    # this learner was last in the sandbox (position_link): once the browser's progress is taken in, the App
    # reopens it (a click on the home before that raced it, and under load the home went under the click)
    expect(a.locator(".uu-app.uu-restored")).to_have_count(1, timeout=WAIT_MS)
    expect(a.locator(".uu-sandbox-screen")).to_be_visible(timeout=WAIT_MS)
    say("the first learner's next visit reopened the sandbox, where they were; they go home")
    a.locator(".uu-nav-home").click(timeout=WAIT_MS)
    a.get_by_role("button", name="Play with others").click(timeout=WAIT_MS)
    a.locator("[data-role='name'] input").fill("Learner 1")
    a.locator(f"{TABLE_SCREEN} select").first.select_option("2")
    a.get_by_role("button", name="Make a table").click()
    link = a.locator("[data-role='table-link']")
    expect(link).to_be_visible(timeout=WAIT_MS)
    href = link.get_attribute("href") or ""
    if "/hub/user-redirect/" not in href or "?table=" not in href:
        raise CheckFailed(f"the table's link does not go through the hub: {href}")
    b.goto(href, timeout=WAIT_MS)
    expect(b.locator("[data-role='name'] input")).to_be_visible(timeout=WAIT_MS)
    if "/user/" not in b.url or b.url.split("/user/")[1].split("/")[0] == a.url.split("/user/")[1].split("/")[0]:
        raise CheckFailed(f"the second learner's table link did not open their own server: {b.url}")
    b.locator("[data-role='name'] input").fill("Learner 2")
    b.get_by_role("button", name="Join the table").click()
    expect(a.locator(f"{TABLE_SCREEN} .uu-table-seats")).to_contain_text("Learner 2", timeout=WAIT_MS)
    a.locator("[data-role='start']").click()
    for page in (a, b):
        expect(page.locator(f"{TABLE_SCREEN} .uu-t [data-zone='hand']").first).to_be_visible(timeout=WAIT_MS)
    made = [0, 0]
    reach: list[float] = []
    deadline = time.monotonic() + WAIT_MS / 1000 * 6
    while min(made) < TABLE_MOVES:
        if time.monotonic() > deadline:
            raise CheckFailed(f"the two learners made {made} moves at their table in {WAIT_MS * 6 / 1000:.0f} s")
        for i, (me, other) in enumerate(((a, b), (b, a))):
            seen = _version(other)
            t0 = _move(me)
            if t0 is None:
                continue
            made[i] += 1
            expect(other.locator(f"{TABLE_SCREEN} .uu-t:not([data-version='{seen}'])")).to_have_count(
                1, timeout=WAIT_MS)
            reach.append(time.monotonic() - t0)
        time.sleep(0.2)
    for page in (a, b):
        shown = " ".join(page.locator(".uu-error").all_inner_texts()).strip()
        if shown:
            raise CheckFailed(f"a learner at the shared table sees an error: {shown[:200]}")
    if shots is not None:
        a.screenshot(path=str(shots / "hub-table-1280.png"))
    say(f"two learners, each on their own server, played {sum(made)} moves at one table "
        f"(each reached the other screen in at most {max(reach):.2f} s)")
    return {"moves": sum(made), "reach_max": max(reach)}


def class_rows(page: Any, base: str) -> tuple[int, Any]:
    r = page.request.get(f"{base}{SERVICE}class.json")
    try:
        return r.status, r.json()
    except Exception:
        return r.status, r.text()


def teacher_sees(browser: Any, base: str, password: str, users: list[str], shots: Path | None) -> Any:
    """The teacher logs in through the hub to the class view and waits for every learner's row at step 2."""
    from playwright.sync_api import expect

    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    log_in(page, base, TEACHER, password, SERVICE)
    expect(page.locator("h1")).to_have_text("Your class", timeout=WAIT_MS)
    deadline = time.monotonic() + 60
    while True:
        status, got = class_rows(page, base)
        rows = got.get("learners", []) if isinstance(got, dict) else []
        at_step = [r for r in rows if r["lesson"] == LESSON_TITLE and r["step"].startswith("2 of")
                   and r["connected"]]
        if status == 200 and len(at_step) == len(users):
            break
        if time.monotonic() > deadline:
            raise CheckFailed(f"the teacher's class view shows {status} {rows!r}, not {len(users)} learners at step 2")
        time.sleep(1)
    page.reload()
    expect(page.locator("#connected tr.live")).to_have_count(len(users), timeout=WAIT_MS)
    if shots is not None:
        page.screenshot(path=str(shots / "hub-teacher-1280.png"))
    return page


def refusals(base: str, admin_token: str, learner_page: Any, users: list[str], teacher_page: Any) -> None:
    """A learner gets 403 on the class view (browser and token), and cannot write another learner's row."""
    first, second = users[0], users[1]
    status, _ = class_rows(learner_page, base)
    if status != 403:
        raise CheckFailed(f"{first}'s browser got {status} on the class view, not 403")
    code, got = http(f"{base}/hub/api/users/{first}/tokens", admin_token, {"note": "hub-check", "expires_in": 600})
    if code not in (200, 201):
        raise CheckFailed(f"could not make a token for {first}: {code} {got}")
    token = got["token"]
    for path in ("", "class.json", "class.csv"):
        code, _ = http(f"{base}{SERVICE}{path}", token)
        if code != 403:
            raise CheckFailed(f"{first}'s own token got {code} on {SERVICE}{path}, not 403")
    _, before = class_rows(teacher_page, base)
    theirs = [r for r in before["learners"] if r["name"] == f"Learner 2 ({second})"]
    code, got = http(f"{base}{SERVICE}api/report", token, {"id": f"hub:{second}", "name": "Learner 2", "step": 9})
    if code != 400:
        raise CheckFailed(f"a report naming another learner's row got {code}, not 400: {got}")
    code, got = http(f"{base}{SERVICE}api/report", token,
                     {"name": "Learner 2", "lesson": "Forged", "step": 9, "steps": 9})
    if code != 200 or got.get("user") != first:
        raise CheckFailed(f"a report with {first}'s token was not bound to {first}: {code} {got}")
    _, after = class_rows(teacher_page, base)
    still = [r for r in after["learners"] if r["name"] == f"Learner 2 ({second})"]
    forged = [r for r in after["learners"] if r["name"] == f"Learner 2 ({first})"]
    if [(r["lesson"], r["step"]) for r in still] != [(r["lesson"], r["step"]) for r in theirs] or not forged:
        raise CheckFailed(f"{first}'s forged report changed another row: before {theirs}, after {still}")


def position_link(page: Any, base: str) -> None:
    """A `?position=` link through the hub opens the learner's sandbox at that position."""
    from playwright.sync_api import expect

    from uu.scenario.link import position_code
    from uu.tutor.check import shipped_lessons

    source = next(p for p in shipped_lessons() if p.name == LESSON_SOURCE)
    data = {k: v for k, v in yaml.safe_load(source.read_text()).items() if k != "lesson"}
    data["name"] = POSITION_NAME
    code = position_code(yaml.safe_dump(data, allow_unicode=True, sort_keys=False))
    page.goto(f"{base}/hub/user-redirect{APP_URL}?position={code}", timeout=WAIT_MS)
    sandbox = page.locator(".uu-sandbox-screen")
    expect(sandbox.locator(".uu-sb-position")).to_contain_text(POSITION_NAME, timeout=WAIT_MS)


# ---- the whole check ----------------------------------------------------------------------------------------
def run(users_n: int, proxy: str, keep: bool, shots: Path | None = None) -> tuple[bool, str]:
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="uu-hub-check-"))
    hub: subprocess.Popen | None = None
    ports = {name: free_port() for name in ("public", "hub", "proxy_api", "service")}
    base = f"http://127.0.0.1:{ports['public']}"
    password, admin_token = secrets.token_urlsafe(12), secrets.token_urlsafe(24)
    users = [f"learner{i + 1}" for i in range(users_n)]
    t_start = time.monotonic()
    figures = ""
    ok, why = False, ""
    try:
        gesture = teacher_lessons(work / "teacher-lessons")
        config = hub_config(work, ports, password, admin_token, proxy)
        env = {**os.environ, MARKER_ENV: str(work),
               "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])}
        log = work / "hub.log"
        say(f"starting JupyterHub at {base} (work folder {work})")
        with open(log, "wb") as out:
            hub = subprocess.Popen([str(Path(sys.executable).with_name("jupyterhub")), "-f", str(config)], cwd=work,
                                   env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        wait_healthy(base, hub, log)
        say(f"hub up after {time.monotonic() - t_start:.1f} s")
        login_keeps_the_link(base)
        say("a ?lesson= link opened before logging in goes to the hub's login, which comes back to it")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS, headless=True)
            try:
                played = play(browser, base, users, password, gesture, shots, work)
                memory = memory_per_user(work)
                teacher_page = teacher_sees(browser, base, password, users, shots)
                say(f"the teacher sees the {users_n} learners at step 2")
                refusals(base, admin_token, played["pages"][users[0]], users, teacher_page)
                say("a learner gets 403 on the class view and cannot write another learner's row")
                position_link(played["pages"][users[0]], base)
                say("a ?position= link through the hub opens the sandbox at that position")
                together = play_together(base, [played["pages"][u] for u in users[:2]], shots)
            finally:
                browser.close()
        spawn, first = list(played["spawn"].values()), list(played["first"].values())
        if any(memory.get(u, {}).get("kernel", 0.0) <= 0 for u in users):
            raise CheckFailed(f"no server and kernel found for some learners: {memory}")

        def median(key: str) -> float:
            return statistics.median(memory[u][key] for u in users)

        figures = (f"learners={users_n} spawn_median={statistics.median(spawn):.1f}s spawn_max={max(spawn):.1f}s "
                   f"all_in={played['all_in']:.1f}s first_interaction_median={statistics.median(first):.2f}s "
                   f"first_interaction_max={max(first):.2f}s rss_per_user_median={median('rss'):.0f}MiB "
                   f"(server {median('server'):.0f} + kernel {median('kernel'):.0f}) "
                   f"rss_per_user_max={max(memory[u]['rss'] for u in users):.0f}MiB "
                   f"pss_per_user_median={median('pss'):.0f}MiB cpu_per_user_median={median('cpu'):.1f}s "
                   f"table_moves={together['moves']} table_move_reach_max={together['reach_max']:.2f}s")
        ok = True
    except CheckFailed as e:
        why = str(e)
    except Exception as e:  # a browser timeout or anything unexpected: say what, with the hub's last words
        why = f"{type(e).__name__}: {str(e)[:1500]}"
    finally:
        killed = stop_all(hub, work)
        if killed:
            say(f"{len(killed)} processes were left after the hub stopped; killed")
        if not ok and (work / "hub.log").exists():
            print((work / "hub.log").read_text(errors="replace")[-4000:], file=sys.stderr)
            LAST_FAILURE.mkdir(exist_ok=True)
            for kept in [work / "hub.log", *work.glob("*.png")]:
                shutil.copy(kept, LAST_FAILURE / kept.name)
            say(f"the hub's log and the failing page are kept in {LAST_FAILURE}")
        for user in [*users, TEACHER]:  # each user's server's runtime folder (uu.server.hubconfig)
            shutil.rmtree(socket_dir_for(user, str(work / "homes" / user)), ignore_errors=True)
        if keep:
            say(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    left = marked_pids(work)
    if ok and left:
        ok, why = False, f"processes still running after the check: {left}"
    if ok:
        shutil.rmtree(LAST_FAILURE, ignore_errors=True)  # an earlier failure's log no longer applies
        return True, f"{figures} total={time.monotonic() - t_start:.0f}s"
    return False, why


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m uu.server.hubcheck", description=__doc__.splitlines()[0])
    p.add_argument("--users", type=int, default=3, metavar="N", help="learners (at least 2; default 3)")
    p.add_argument("--proxy", required=True, help="the configurable-http-proxy command")
    p.add_argument("--keep", action="store_true", help="keep the temporary folder (logs, databases)")
    p.add_argument("--shots", default=None, metavar="DIR", help="save screenshots of a learner and the teacher here")
    args = p.parse_args(argv)
    shots = Path(args.shots).resolve() if args.shots else None
    if shots is not None:
        shots.mkdir(parents=True, exist_ok=True)
    if args.users < 2:
        print("HUB-CHECK FAILED --users takes 2 or more (one learner tries to write another's row)")
        return 1
    if not DEPLOY_CONFIG.is_file():
        print(f"HUB-CHECK FAILED {DEPLOY_CONFIG} is missing: run the check from a clone (python3 dev.py hub-check)")
        return 1
    if not Path(CHROMIUM).exists():
        print(f"HUB-CHECK FAILED Chromium not found at {CHROMIUM} (apt-get install chromium, or set CHROMIUM)")
        return 1
    # the hub runs in its own folder: a relative path to the proxy would not be found from there
    proxy = str(Path(args.proxy).resolve()) if os.sep in args.proxy else (shutil.which(args.proxy) or args.proxy)
    ok, text = run(args.users, proxy, args.keep, shots)
    print(f"HUB-CHECK {'OK' if ok else 'FAILED'} {text}", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
