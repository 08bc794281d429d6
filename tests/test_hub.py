"""uu on JupyterHub (issue #28).

- The class view as a hub service (uu/server/hubservice.py) against a stand-in for the hub's API (a tiny tornado
  server answering `GET /hub/api/user` for three tokens): a report is bound to the user the token belongs to,
  whatever it claims; a bad token or report is refused with a reason; a learner gets 403 on the page, JSON and
  CSV; a teacher (holding the service's access scope) sees the rows; a browser without a login is sent to the
  hub's OAuth.
- The learner's side (uu/tutor/hubreport.py): which channel a kernel gets, and a report reaching the service.
- `python3 dev.py hub-check` (a real hub, configurable-http-proxy, three learners and a teacher in Chromium),
  when the machine allows: see `test_hub_check`.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("jupyterhub", reason="jupyterhub is in the test extra: pip install -e '.[test]'")

import tornado.httpclient  # noqa: E402
import tornado.web  # noqa: E402
from jupyterhub.services.auth import HubOAuth  # noqa: E402

from tests.conftest import run_async  # noqa: E402
from uu.server.classroom import CLASS_DB_ENV, ClassReporter, connect, learner_rows  # noqa: E402
from uu.server.hubservice import ReportPace, make_app, row_key, shown_name  # noqa: E402
from uu.server.tables import open_hub  # noqa: E402
from uu.together.client import TABLES_URL_ENV  # noqa: E402
from uu.tutor import hubreport  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PREFIX = "/services/uu-class/"
ACCESS = "access:services!service=uu-class"
# token -> what the hub answers for it (as /hub/api/user does: the owner's name, kind and the token's scopes)
TOKENS = {
    "ann-token": {"name": "ann", "kind": "user", "scopes": ["access:servers!server=ann/", "users:activity!user=ann"]},
    "bob-token": {"name": "bob", "kind": "user", "scopes": ["access:servers!server=bob/", "users:activity!user=bob"]},
    "tess-token": {"name": "tess", "kind": "user", "scopes": [ACCESS]},
    "svc-token": {"name": "other-service", "kind": "service", "scopes": [ACCESS]},
}


class FakeHubUser(tornado.web.RequestHandler):
    def get(self) -> None:
        token = self.request.headers.get("Authorization", "").partition(" ")[2]
        model = TOKENS.get(token)
        if model is None:
            self.set_status(403)
            self.finish({"status": 403, "message": "Missing or invalid credentials."})
            return
        self.finish(model)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def scenario(db: Path, steps: Any) -> Any:
    hub_port, service_port = free_port(), free_port()
    hub = tornado.web.Application([("/hub/api/user", FakeHubUser)])
    hub_server = hub.listen(hub_port, "127.0.0.1")
    auth = HubOAuth(api_url=f"http://127.0.0.1:{hub_port}/hub/api", api_token="service-token",
                    oauth_client_id="service-uu-class", base_url=PREFIX, hub_prefix="/hub/",
                    oauth_redirect_uri=f"http://127.0.0.1:{service_port}{PREFIX}oauth_callback",
                    access_scopes={ACCESS}, cache_max_age=0)
    service = make_app(db, PREFIX, auth, tables=open_hub(db)).listen(service_port, "127.0.0.1",
                                                                     max_body_size=64 * 1024)
    client = tornado.httpclient.AsyncHTTPClient()
    base = f"http://127.0.0.1:{service_port}{PREFIX}"

    async def call(path: str, token: str | None = None, body: Any = None, raw: bytes | None = None
                   ) -> tuple[int, str, dict[str, str]]:
        headers = {"Authorization": f"token {token}"} if token else {}
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        r = await client.fetch(base + path, method="POST" if data is not None else "GET", body=data,
                               headers=headers, raise_error=False, follow_redirects=False)
        return r.code, r.body.decode(), dict(r.headers)

    try:
        return await steps(call, base)
    finally:
        service.stop()
        hub_server.stop()


def run(db: Path, steps: Any) -> Any:
    return run_async(scenario(db, steps))


def test_a_report_is_bound_to_the_tokens_owner_whatever_it_claims(tmp_path):
    db = tmp_path / "class.sqlite3"

    async def steps(call, _base):
        out = {}
        out["ann"] = await call("api/report", "ann-token", {"name": "Ann", "lesson": "Setup", "step": 2, "steps": 7,
                                                            "quiz": {"Setup": [1, 2]}, "finished": ["Basics"]})
        out["bob"] = await call("api/report", "bob-token", {"name": "bob", "lesson": "Neigh", "step": 1, "steps": 5})
        # Ann's token, Bob's name: still Ann's row, and shown with her hub name
        out["claim"] = await call("api/report", "ann-token", {"name": "bob", "lesson": "Setup", "step": 3, "steps": 7})
        # naming a row outright is not a field a report has
        out["id"] = await call("api/report", "ann-token", {"name": "Ann", "id": "hub:bob", "step": 4})
        out["user"] = await call("api/report", "ann-token", {"name": "Ann", "user": "bob"})
        out["nobody"] = await call("api/report", None, {"name": "Ann"})
        out["bad-token"] = await call("api/report", "stolen-or-expired", {"name": "Ann"})
        out["service"] = await call("api/report", "svc-token", {"name": "Svc"})
        out["not-json"] = await call("api/report", "ann-token", raw=b"{'name':")
        out["blank"] = await call("api/report", "bob-token", {"name": "   ", "step": 1})
        out["huge"] = await call("api/report", "bob-token", raw=b'{"name": "' + b"x" * 100_000 + b'"}')
        return out

    out = run(db, steps)
    assert out["ann"][0] == out["bob"][0] == out["claim"][0] == 200
    assert json.loads(out["claim"][1]) == {"user": "ann"}
    for case in ("id", "user", "not-json"):
        assert out[case][0] == 400, (case, out[case])
    assert "Not a report this service takes" in json.loads(out["id"][1])["error"]
    assert out["nobody"][0] == 401 and "hub token" in json.loads(out["nobody"][1])["error"]
    assert out["bad-token"][0] == 403 and out["service"][0] == 403
    assert out["blank"][0] == 400 and "Type a name" in out["blank"][1]  # the rules of `uu app --class`
    assert out["huge"][0] in (400, 413)
    conn = connect(db)
    rows = {r["id"]: r for r in learner_rows(conn)}
    conn.close()
    assert set(rows) == {row_key("ann"), row_key("bob")}
    assert rows[row_key("bob")]["step"] == 1 and rows[row_key("bob")]["lesson"] == "Neigh"  # untouched by Ann
    assert rows[row_key("bob")]["name"] == "bob"
    ann = rows[row_key("ann")]
    assert (ann["name"], ann["step"], ann["quiz"], ann["finished"]) == ("bob (ann)", 3, {"Setup": [1, 2]}, ["Basics"])


def test_only_holders_of_the_access_scope_see_the_class(tmp_path):
    db = tmp_path / "class.sqlite3"

    async def steps(call, _base):
        out = {}
        await call("api/report", "ann-token", {"name": "<b>Ann</b>", "lesson": "Setup", "step": 2, "steps": 7})
        for path in ("", "class", "class.json", "class.csv"):
            out[("ann", path)] = await call(path, "ann-token")
            out[("tess", path)] = await call(path, "tess-token")
            out[("bad", path)] = await call(path, "nonsense")
        out["browser"] = await call("class.json")
        return out

    out = run(db, steps)
    for path in ("", "class", "class.json", "class.csv"):
        assert out[("ann", path)][0] == 403, path
        assert "The class view is for teachers" in out[("ann", path)][1]
        assert out[("bad", path)][0] == 403, path
        assert out[("tess", path)][0] == 200, path
        assert out[("tess", path)][2]["Cache-Control"] == "no-store"
    page = out[("tess", "")][1]
    assert "&lt;b&gt;Ann&lt;/b&gt; (ann)" in page and "<b>Ann</b>" not in page  # classview's page, escaped
    learners = json.loads(out[("tess", "class.json")][1])["learners"]
    assert [(x["name"], x["step"], x["connected"]) for x in learners] == [("<b>Ann</b> (ann)", "2 of 7", True)]
    assert out[("tess", "class.csv")][1].splitlines()[1].startswith("<b>Ann</b> (ann),yes,Setup,2,7")
    # no login yet: off to the hub's OAuth, coming back here afterwards
    code, _body, headers = out["browser"]
    assert code == 302 and "/hub/api/oauth2/authorize?" in headers["Location"]
    assert "client_id=service-uu-class" in headers["Location"]


def test_shown_name():
    assert shown_name("ann", "ann") == "ann"
    assert shown_name("Ann B.", "ann") == "Ann B. (ann)"


def test_which_channel_a_kernel_gets(monkeypatch, tmp_path):
    for name in ("JUPYTERHUB_API_URL", "JUPYTERHUB_SERVICE_PREFIX", "JUPYTERHUB_API_TOKEN",
                 hubreport.SERVICE_URL_ENV, CLASS_DB_ENV):
        monkeypatch.delenv(name, raising=False)
    assert hubreport.class_reporter() is None
    monkeypatch.setenv(CLASS_DB_ENV, str(tmp_path / "c.sqlite3"))
    assert isinstance(hubreport.class_reporter(), ClassReporter)  # `uu app --class`
    # on a hub the local file is never used; without the service configured nothing is reported
    monkeypatch.setenv("JUPYTERHUB_API_URL", "http://127.0.0.1:8081/hub/api")
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "ann-token")
    assert hubreport.class_reporter() is None
    monkeypatch.setenv(hubreport.SERVICE_URL_ENV, "http://127.0.0.1:1/services/uu-class/")
    got = hubreport.class_reporter()
    assert isinstance(got, hubreport.HubClassReporter)
    assert got.url == "http://127.0.0.1:1/services/uu-class/api/report"


def test_a_kernels_reports_reach_the_service(tmp_path):
    db = tmp_path / "class.sqlite3"

    async def steps(_call, base):
        r = hubreport.HubClassReporter(base, "bob-token")
        assert r.report({"lesson": "Setup"}) is False  # no name yet: nothing is sent
        r.name = "Bob"
        assert r.report({"lesson": "Setup", "step": 1, "steps": 7, "id": "hub:ann", "quiz": {}, "finished": []})
        for _ in range(100):  # the reporter's own thread posts it
            if r.sent:
                break
            await asyncio.sleep(0.05)
        r.stop()
        bad = hubreport.HubClassReporter(base, "stolen")
        bad.name = "Ann"
        assert await asyncio.to_thread(bad._post, {"name": "Ann"}) is False  # refused, logged, no exception
        return r.sent

    assert run(db, steps) == 1
    conn = connect(db)
    rows = learner_rows(conn)
    conn.close()
    assert [(r["id"], r["name"], r["lesson"], r["step"]) for r in rows] == [("hub:bob", "Bob (bob)", "Setup", 1)]


def test_the_service_refuses_to_run_outside_a_hub(monkeypatch, capsys, tmp_path):
    from uu.server import hubservice

    for name in ("JUPYTERHUB_SERVICE_URL", "JUPYTERHUB_SERVICE_PREFIX", "JUPYTERHUB_API_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    assert hubservice.main(["--db", str(tmp_path / "c.sqlite3")]) == 2
    assert "run me as a JupyterHub service" in capsys.readouterr().err
    # without an access scope jupyterhub's mixin would let every hub user in: the service does not start
    for name in ("JUPYTERHUB_SERVICE_NAME", "JUPYTERHUB_OAUTH_ACCESS_SCOPES", "JUPYTERHUB_OAUTH_SCOPES"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(ValueError, match="no access scope"):
        make_app(tmp_path / "c.sqlite3", PREFIX, HubOAuth(api_url="http://127.0.0.1:1/hub/api", api_token="x"))



def test_one_users_reports_are_paced():
    pace = ReportPace(burst=3, window_s=10)
    assert [pace.allow("ann", now=t) for t in (0, 1, 2, 3)] == [True, True, True, False]
    assert pace.allow("bob", now=3)  # another learner is not held up
    assert pace.allow("ann", now=10.5)  # the window moved on


def test_the_deployment_files_agree_with_the_code():
    """deploy/: the service's name, port and scope, the environment the kernels read, and the app's URL are
    the same in the one-machine config, the Zero to JupyterHub values and the code."""
    import yaml

    from uu.server.hubconfig import APP_URL
    from uu.tutor.folder import LESSONS_ENV

    local = (ROOT / "deploy" / "jupyterhub" / "jupyterhub_config.py").read_text()
    values = yaml.safe_load((ROOT / "deploy" / "z2jh" / "values.yaml").read_text())
    assert ACCESS in local and "uu.server.hubservice" in local and '"name": "uu-class"' in local
    for name in (hubreport.SERVICE_URL_ENV, LESSONS_ENV, "JUPYTER_CONFIG_PATH"):
        assert f'"{name}"' in local, name
    assert "Spawner.default_url = APP_URL" in local
    hub = values["hub"]
    assert hub["loadRoles"]["uu-teachers"]["scopes"] == [ACCESS]
    assert hub["loadRoles"]["uu-teachers"]["groups"] == ["uu-teachers"]
    assert "uu-teachers" in hub["config"]["JupyterHub"]["load_groups"]
    port = int(hub["services"]["uu-class"]["url"].rsplit(":", 1)[1])
    (sidecar,) = hub["extraContainers"]
    env = {e["name"]: e.get("value") for e in sidecar["env"]}
    assert env["JUPYTERHUB_SERVICE_PREFIX"] == PREFIX
    assert env["JUPYTERHUB_SERVICE_URL"].endswith(f":{port}")
    assert json.loads(env["JUPYTERHUB_OAUTH_ACCESS_SCOPES"]) == [ACCESS]
    assert sidecar["command"][:3] == ["python", "-m", "uu.server.hubservice"]
    single = values["singleuser"]
    assert single["defaultUrl"] == APP_URL
    assert single["extraEnv"][hubreport.SERVICE_URL_ENV] == f"http://hub:{port}{PREFIX}"
    assert single["extraEnv"][TABLES_URL_ENV] == f"http://hub:{port}{PREFIX}uu/tables"
    assert f'"{TABLES_URL_ENV}": f"http://127.0.0.1:{{CLASS_PORT}}{PREFIX}uu/tables"' in local
    assert single["extraEnv"][LESSONS_ENV] == single["storage"]["extraVolumeMounts"][0]["mountPath"]
    dockerfile = (ROOT / "deploy" / "z2jh" / "Dockerfile").read_text()
    assert "SINGLEUSER_CONFIG_DIR" in dockerfile and "/etc/jupyter/jupyter_server_config.py" in dockerfile


def test_a_learners_server_serves_the_tutor_only(monkeypatch, tmp_path):
    """uu.server.hubconfig: what every user's jupyter server on the hub is set to."""
    from traitlets.config import Config

    from uu.server import hubconfig, patches

    patched = []
    monkeypatch.setattr(patches, "patch_kernel_websocket_nodelay", lambda server="voila": patched.append(server))
    monkeypatch.setattr(hubconfig.tempfile, "tempdir", str(tmp_path))
    monkeypatch.setenv("JUPYTERHUB_USER", "a-learner-with-a-rather-long-name-from-single-sign-on@school.example.org")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", "restored by monkeypatch")
    c = Config()
    hubconfig.configure_singleuser(c)
    assert (Path(c.ServerApp.root_dir) / "app.ipynb").is_file()
    assert c.ServerApp.default_url == hubconfig.APP_URL == "/voila/render/app.ipynb"
    assert c.VoilaConfiguration.strip_sources is True and c.VoilaConfiguration.show_tracebacks is False
    assert c.VoilaConfiguration.allow_template_override == "NO"
    assert not any(c.ServerApp.jpserver_extensions.values()) and "jupyterlab" in c.ServerApp.jpserver_extensions
    assert c.ServerApp.terminals_enabled is False
    assert patched == ["jupyter_server"]
    if sys.platform == "linux":
        assert c.KernelManager.transport == "ipc"
        runtime = Path(os.environ["JUPYTER_RUNTIME_DIR"])
        assert runtime.parent == tmp_path and (runtime.stat().st_mode & 0o777) == 0o700
        # short whatever the user's name: under /tmp a kernel's socket stays within the 107-byte limit
        assert len(f"/tmp/{runtime.name}/kernel-00000000-0000-0000-0000-000000000000-ipc-5") <= 107


def test_kernel_sockets_only_in_a_folder_that_is_ours(monkeypatch, tmp_path):
    from uu.server import hubconfig

    if sys.platform != "linux":
        assert hubconfig.kernel_socket_dir() is None
        return
    monkeypatch.setattr(hubconfig.tempfile, "tempdir", str(tmp_path))
    monkeypatch.setenv("JUPYTERHUB_USER", "ann")
    monkeypatch.setenv("HOME", "/home/ann")
    folder = hubconfig.socket_dir_for("ann", "/home/ann")
    folder.mkdir(mode=0o755)  # made first by somebody, open to others: not used
    folder.chmod(0o755)
    assert hubconfig.kernel_socket_dir() is None
    folder.chmod(0o700)
    assert hubconfig.kernel_socket_dir() == folder
    assert hubconfig.socket_dir_for("bob", "/home/bob") != folder

# ---- the real hub ---------------------------------------------------------------------------------------------
HUB_CHECK_BUDGET_S = 600


@pytest.mark.browser
def test_hub_check():
    """`python3 dev.py hub-check` end to end: a real JupyterHub and configurable-http-proxy on 127.0.0.1, three
    learners and a teacher in Chromium. About a minute here (the first run also installs JupyterHub and the
    proxy, about half a minute more). Skipped, with the reason, where node/npm or Chromium are missing (the CI
    image installs Chromium but not Node.js)."""
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is missing: the hub's proxy (configurable-http-proxy) runs on Node.js")
    if not Path(os.environ.get("CHROMIUM") or "/usr/bin/chromium").exists():
        pytest.skip("Chromium is missing (apt-get install chromium)")
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, str(ROOT / "dev.py"), "hub-check"], cwd=ROOT, capture_output=True,
                          text=True, timeout=HUB_CHECK_BUDGET_S)
    last = (proc.stdout.strip().splitlines() or [""])[-1]
    assert proc.returncode == 0 and last.startswith("HUB-CHECK OK"), (
        f"exit {proc.returncode} after {time.monotonic() - t0:.0f} s\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")



# ---- issue #39: a report cannot break the class view; the teacher can remove a row ---------------------------
BAD_REPORTS = [
    b'{"name": "M", "step_since": -Infinity}', b'{"name": "M", "step_since": Infinity}',
    b'{"name": "M", "step_since": NaN}', b'{"name": "M", "step_since": -1e300}', b'{"name": "M", "step_since": 1e309}',
    b'{"name": "M", "step_since": "1700000000"}', b'{"name": "M", "step": "3"}', b'{"name": "M", "step": 3.5}',
    b'{"name": "M", "wrong": ' + b"9" * 400 + b"}", b'{"name": "M", "quiz": {"a": [1, ' + b"9" * 40 + b"]}}",
    b'{"name": "M", "quiz": {"a": [1, -2]}}', b'{"name": "M", "finished": "all"}', b'{"name": 7}',
    b'{"name": "M", "step": true}',
]


def test_a_report_with_a_number_the_page_cannot_show_is_refused_and_the_page_stays_up(tmp_path):
    db = tmp_path / "class.sqlite3"

    async def steps(call, _base):
        out = {"bad": [await call("api/report", "ann-token", raw=body) for body in BAD_REPORTS]}
        out["good"] = await call("api/report", "bob-token", {"name": "Bob", "step": 1, "steps": 5,
                                                            "step_since": time.time() - 90, "quiz": {"x": [1, 2]}})
        out["pages"] = [await call(path, "tess-token") for path in ("", "class.json", "class.csv")]
        return out

    out = run(db, steps)
    for body, (code, text, _headers) in zip(BAD_REPORTS, out["bad"], strict=True):
        assert code == 400, (body[:60], code, text)
        assert json.loads(text)["error"].startswith("Not a report this service takes ("), text
    assert out["good"][0] == 200
    assert [code for code, _t, _h in out["pages"]] == [200, 200, 200]
    learners = json.loads(out["pages"][1][1])["learners"]
    assert [(x["name"], x["on_step_for"]) for x in learners] == [("Bob (bob)", "1 min 30 s")]


def test_no_stored_row_breaks_the_class_page_json_or_csv(tmp_path):
    """Rows a report can no longer write (an older service, a hand-edited file): each bad value reads as empty."""
    db = tmp_path / "class.sqlite3"
    conn = connect(db)
    bad = [("hub:a", "A", float("-inf"), 1, 2, -1e300, 0), ("hub:b", "B", float("inf"), 10**18, -5, 1e300, 1e300),
           ("hub:c", "C", float("nan"), "three", "many", 0, "later"), ("hub:d", "x" * 5000, -1.0, 2, 3, "now", "x")]
    for key, name, since, step, wrong, first, last in bad:
        conn.execute("INSERT INTO learners (id, name, step_since, step, steps, wrong, quiz, finished, first_seen, "
                     "last_seen) VALUES (?, ?, ?, ?, 9, ?, ?, ?, ?, ?)",
                     (key, name, since, step, wrong, '{"q": [1, 1e400], "r": [2, 3]}', '[1, "ok"]', first, last))
    conn.close()

    async def steps(call, _base):
        return [await call(path, "tess-token") for path in ("", "class.json", "class.csv")]

    pages = run(db, steps)
    assert [code for code, _t, _h in pages] == [200, 200, 200], pages
    learners = json.loads(pages[1][1])["learners"]
    assert sorted(x["name"] for x in learners) == ["?", "A", "B", "C"]
    assert all(x["on_step_for"] == "" and x["wrong"] >= 0 for x in learners)
    assert len(pages[2][1].splitlines()) == 5


def test_a_teacher_removes_a_learners_row_on_the_hub(tmp_path):
    db = tmp_path / "class.sqlite3"

    async def steps(call, _base):
        out = {}
        await call("api/report", "ann-token", {"name": "Ann"})
        await call("api/report", "bob-token", {"name": "Bob"})
        page = (await call("", "tess-token"))[1]
        out["forms"] = page.count("action='class/remove?")
        # a teacher's browser posts with the hub's cookie: each form carries jupyterhub's _xsrf field, which
        # HubClassRemove checks (a form posted from another site has none)
        out["xsrf"] = page.count("name=\"_xsrf\"")
        out["learner"] = await call("class/remove", "ann-token", raw=b"id=hub%3Abob")
        out["nobody"] = await call("class/remove", None, raw=b"id=hub%3Abob")
        out["no id"] = await call("class/remove", "tess-token", raw=b"")
        out["teacher"] = await call("class/remove", "tess-token", raw=b"id=hub%3Abob")
        out["after"] = json.loads((await call("class.json", "tess-token"))[1])["learners"]
        return out

    out = run(db, steps)
    assert out["forms"] == out["xsrf"] == 2
    assert out["learner"][0] == 403 and out["nobody"][0] in (302, 403)
    assert out["no id"][0] == 400 and "which learner" in out["no id"][1]
    code, _text, headers = out["teacher"]
    assert code == 303 and headers["Location"].startswith("../class")
    assert [x["name"] for x in out["after"]] == ["Ann (ann)"]



def test_the_service_holds_the_tables_and_the_teacher_sees_and_watches_them(tmp_path):
    """On a hub the tables live in the class service, under its prefix: a learner's kernel needs no hub token
    for them (a seat is its secret token); the teacher's class page and JSON list them and Watch opens one; a
    learner without the access scope sees neither."""
    db = tmp_path / "class.sqlite3"

    async def steps(call, _base):
        out = {}
        code, body, _h = await call("uu/tables/new", body={"name": "Ann", "options": {"players": 2}})
        made = json.loads(body)
        out["new"] = code, made
        out["start"] = (await call(f"uu/tables/{made['code']}/start", body={"token": made["token"]}))[0]
        out["json"] = await call("class.json", "tess-token")
        out["page"] = await call("class", "tess-token")
        out["watch"] = await call(f"class/table?code={made['code']}", "tess-token")
        out["ann-watch"] = await call(f"class/table?code={made['code']}", "ann-token")
        return out

    out = run(db, steps)
    code, made = out["new"]
    assert code == 200 and made["maker"] and out["start"] == 200
    tables = json.loads(out["json"][1])["tables"]
    assert [(t["code"], t["phase"], [s["kind"] for s in t["seats"]]) for t in tables] == [
        (made["code"], "playing", ["person", "bot"])]
    assert f"data-code='{made['code']}'" in out["page"][1]
    assert out["watch"][0] == 200 and "hidden card" in out["watch"][1]
    assert out["ann-watch"][0] == 403
    assert (tmp_path / "class.tables.sqlite3").exists()
