"""The package fit for the browser build (uu/lite, docs/static-build.md), checked without building the site:
the screens import and run without the server's packages, no widget state is ever sent as None (the Pyodide
kernel drops such a value, so the browser would never see it), the server packages are an extra, and the
page's address is read as the site's. The built site itself: tests/test_lite_site.py (`python3 dev.py lite-check`).
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from ipywidgets.widgets import widget as widget_module

from uu.lite import site_href
from uu.widgets import App

ROOT = Path(__file__).resolve().parents[1]
SERVER_PACKAGES = ("voila", "jupyter_server", "jupyterlab", "ipykernel", "jupyter_client", "nbconvert",
                   "jinja2", "tornado", "sqlite3", "zmq")

# Run in a fresh interpreter where importing any server package fails, as in the browser build: the screens
# import, and the App is built on each screen and plays a move.
WITHOUT_SERVER = """
import importlib.abc, sys
BLOCKED = set(sys.argv[1].split(","))
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{name} is blocked: the browser build has no server packages")
        return None
sys.meta_path.insert(0, Block())
import uu.widgets, uu.lite
from uu.widgets import App
app = App()
assert app.error is None and len(app.home.lessons.rows) == len(app.lessons) > 20, app.error
for open_screen in (lambda: app.open_lesson("goal"), app.open_play, app.open_sandbox, app.show_home):
    screen = open_screen()
    assert app.error is None and screen.error is None, (app.error, screen.error)
play = app.open_play()
play.table._on_message(play.table, {"type": "choose", "id": 0, "version": play.table.version}, [])
assert play.error is None, play.error
loaded = sorted(m.split(".")[0] for m in sys.modules)
print(" ".join(sorted(set(loaded) & BLOCKED)) or "none")
"""


def test_the_screens_run_without_the_server_packages() -> None:
    env = {k: v for k, v in os.environ.items() if k != "UU_CLASS_DB"}
    r = subprocess.run([sys.executable, "-c", WITHOUT_SERVER, ",".join(SERVER_PACKAGES)], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.split()[-1] == "none"


def test_the_server_packages_are_the_app_extra() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = {d.split(">")[0].split("=")[0].split("<")[0].strip().lower() for d in project["dependencies"]}
    assert names == {"pydantic", "pyyaml", "ipywidgets", "anywidget"}
    app = {d.split(">")[0].split("<")[0].strip().lower() for d in project["optional-dependencies"]["app"]}
    assert {"voila", "jupyter_server", "jupyterlab", "ipykernel", "jupyter_client", "nbconvert"} <= app


def test_uu_app_without_the_server_says_what_to_install(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    import importlib.util

    from uu import cli

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "voila" else real(name, *a))
    assert cli.main(["app", "--no-browser", "--lessons", "x"]) == 2
    err = capsys.readouterr().err
    assert "voila is missing" in err and "pip install 'uu-tutor[app]'" in err and "Traceback" not in err


# ---- no widget state sent as None ---------------------------------------------------------------------------
@pytest.fixture
def updates(monkeypatch: pytest.MonkeyPatch, widgets_without_kernel: None) -> list[tuple[Any, dict[str, Any]]]:
    """Every state update a widget sends, with the widget."""
    sent: list[tuple[Any, dict[str, Any]]] = []
    original_send = widget_module.Widget._send

    def send(self: Any, msg: dict[str, Any], buffers: Any = None) -> Any:
        if msg.get("method") == "update" and self.comm is not None:
            sent.append((self, dict(msg.get("state", {}))))
        return original_send(self, msg, buffers)

    monkeypatch.setattr(widget_module.Widget, "_send", send)
    return sent


def _nones(sent: list[tuple[Any, dict[str, Any]]]) -> list[str]:
    return [f"{type(w).__name__}.{k}" for w, state in sent for k, v in state.items() if v is None]


def test_no_update_sets_a_trait_to_none_through_a_lesson_a_game_and_the_sandbox(updates) -> None:
    from test_widgets_lesson import click_expected

    app = App()
    for lesson_id in ("goal", "setup", "neigh"):
        screen = app.open_lesson(lesson_id)
        clicks = 0
        while not screen.runner.done and clicks < 200:
            click_expected(screen)
            clicks += 1
        assert screen.runner.done
        app.show_home()
    play = app.open_play()
    for _ in range(3):
        play.table._on_message(play.table, {"type": "choose", "id": 0, "version": play.table.version}, [])
    sandbox = app.open_sandbox()
    sandbox.refresh()
    app.show_home()
    assert len(updates) > 50  # the check saw the screens change
    assert _nones(updates) == []


def test_an_update_to_none_is_caught(updates) -> None:
    """The check above can fail: a layout shown the old way (display back to None) is reported."""
    import ipywidgets as widgets

    from uu.widgets.common import built_whole

    with built_whole():
        b = widgets.Button(layout=widgets.Layout(display="none"))
    b.layout.display = None
    assert _nones(updates) == ["Layout.display"]


def _none_trait_assignments(path: Path) -> list[str]:
    """`x.layout.y = None`, `x.style.y = None` (or a conditional with a None branch) in a file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Assign):
            continue
        value = node.value
        branches = [value.body, value.orelse] if isinstance(value, ast.IfExp) else [value]
        if not any(isinstance(b, ast.Constant) and b.value is None for b in branches):
            continue
        for target in node.targets:
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Attribute) \
                    and target.value.attr in ("layout", "style"):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_no_widget_code_sets_a_layout_or_style_trait_to_none() -> None:
    files = [*(ROOT / "uu" / "widgets").glob("*.py"), *(ROOT / "uu" / "table").glob("*.py"),
             *(ROOT / "uu" / "lite").glob("*.py")]
    assert [f for path in files for f in _none_trait_assignments(path)] == []


# ---- the page's address ------------------------------------------------------------------------------------
@pytest.mark.parametrize("href, site", [
    ("http://127.0.0.1:8000/index.html?code=import+uu.lite&lesson=goal", "http://127.0.0.1:8000/?lesson=goal"),
    ("https://school.example/uu/?kernel=python&position=v1.abc&lang=de", "https://school.example/uu/?position=v1.abc&lang=de"),
    ("https://school.example/uu/index.html", "https://school.example/uu/"),
    # only the tutor's own parameters, the first of each, in the tutor's order; no fragment
    ("http://h/?lang=fr&evil=1&lesson=a&lesson=b&theme=x#code=1", "http://h/?lesson=a&lang=fr"),
])
def test_the_app_sees_the_site_address_with_the_tutors_parameters_only(href: str, site: str) -> None:
    assert site_href(href) == site


# ---- the page's own script (uu/lite/page.js), run in Node with a stand-in page ---------------------------------
def _page_script(address: str) -> dict[str, Any]:
    import json
    import shutil

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    r = subprocess.run([node, str(ROOT / "tests" / "fixtures" / "lite_page_harness.mjs"),
                        str(ROOT / "uu" / "lite" / "page.js"), address], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


def _query(href: str) -> list[tuple[str, str]]:
    from urllib.parse import parse_qsl, urlsplit

    return parse_qsl(urlsplit(href).query, keep_blank_values=True)


def test_the_page_keeps_only_the_tutors_parameters_and_starts_python_at_once() -> None:
    """A link with code and other parameters (in the query and the fragment): nothing but the tutor's own three
    stay in the address the tutor reads, bounded, and nothing of the link reaches Python but the language the
    page chose among the tutor's. Python's worker and the download start before the page has its body."""
    did = _page_script("http://h/uu/?kernel=js&code=import%20js&execute=1&toolbar=1"
                       "&lesson=goal&lang=fr&lesson=other&position=" + "A" * 9000 + "#code=evil&kernel=x")
    state = did["state"]
    assert state.startswith("http://h/uu/?") and "#" not in state
    query = _query(state)
    assert [k for k, _v in query] == ["lesson", "position", "lang"]
    assert dict(query)["lesson"] == "goal" and len(dict(query)["position"]) == 8193  # the tutor says "too long"
    assert "import js" not in state and "evil" not in state
    assert did["workers"] == [["uu-worker.mjs", {"type": "module"}]]
    assert did["told"] == [{"type": "start", "lang": "fr"}]
    # the loading screen speaks the link's language, and starts fetching what Python needs at once
    assert did["lang"] == "fr" and did["title"] == "TF" and did["fetched"] == ["http://h/uu/static/pyodide/a.whl"]


def test_a_link_in_a_language_the_tutor_does_not_speak_starts_it_in_the_browsers() -> None:
    did = _page_script("http://h/uu/?lang=%22%29%3Bimport%20js")
    assert did["told"] == [{"type": "start", "lang": "en"}]  # the stand-in browser's German is not in its words
    assert did["state"] == "http://h/uu/?lang=%22%29%3Bimport+js"  # the tutor then says what is wrong with it


# ---- the pages the build writes (uu/lite/pages.py) ------------------------------------------------------------
def test_the_tutors_page_has_its_script_first_and_its_loading_screen_first() -> None:
    from uu.lite.pages import tutor_page
    from uu.lite.words import loading_words

    words = loading_words()
    words["en"]["note"] = "</script><script>alert(1)</script>"  # data never ends its element
    page = tutor_page(words, {"first": ["static/pyodide/x.whl"], "bytes": 1})
    assert page.index('id="uu-words"') < page.index('src="uu-page.js"') < page.index("</head>")
    assert page.index('<div id="uu-loading"') < page.index('<main id="uu-app-root">') < page.index("</body>")
    assert "<script>alert(1)" not in page
    assert page.count("<noscript>") == 1 and "{" not in page.split("</head>")[1]  # every placeholder filled


INLINE_PAGE = """<!DOCTYPE html><html><head><title>T</title>
<script id="data" type="application/json">{}</script>
<script>(async function () { await import('./x.js'); }.call(this));</script>
</head><body></body></html>"""


def test_the_policy_allows_script_from_the_site_only_and_the_pages_inline_scripts_by_hash() -> None:
    import base64
    import hashlib

    from uu.lite.pages import csp, inline_script_hashes

    body = "(async function () { await import('./x.js'); }.call(this));"
    digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
    assert inline_script_hashes(INLINE_PAGE) == [f"'sha256-{digest}'"]  # the JSON block is not a script
    policy = dict(part.split(" ", 1) for part in csp([f"'sha256-{digest}'"]).split("; "))
    script = policy["script-src"].split()
    assert "'unsafe-inline'" not in script and "*" not in script
    assert not [s for s in script if s.startswith(("http", "data:", "https:"))]
    assert f"'sha256-{digest}'" in script and policy["object-src"] == "'none'"
    assert "frame-ancestors" not in policy and "frame-ancestors" in csp([], header=True)


def test_the_loading_screen_has_its_words_in_every_language() -> None:
    from uu.i18n import LANGUAGES
    from uu.lite.words import LOADING, loading_words

    words = loading_words()
    assert sorted(words) == sorted(LANGUAGES)
    for lang in LANGUAGES:
        assert sorted(words[lang]) == sorted(LOADING)
        assert "{done}" in words[lang]["download"] and "{total}" in words[lang]["download"]
        if lang != "en":
            assert all(words[lang][k] != LOADING[k] for k in LOADING), lang


def test_a_lesson_link_opens_the_lesson_in_the_static_app() -> None:
    import json

    from uu.lite import app as lite_app

    sent: list[str] = []
    shown = lite_app(send=lambda text, _buffers: sent.append(text))
    assert json.loads(sent[-1]) == {"type": "display", "model_id": shown.model_id}
    shown.open_link("http://127.0.0.1:8000/index.html?code=1&lesson=neigh")
    assert shown.screen is shown.lesson_screens["neigh"]
    assert shown.page_url == "http://127.0.0.1:8000/?lesson=neigh"


# ---- the lessons and the catalog read at build time (uu/lite/build.py `preread_table`) ---------------------
def test_a_text_read_before_gives_the_same_lesson_and_an_edited_text_is_read_again(monkeypatch) -> None:
    import hashlib

    import yaml

    from uu import yamlfile
    from uu.tutor.lesson_model import parse_lesson

    path = ROOT / "lessons" / "01-goal.yaml"
    text = path.read_text(encoding="utf-8")
    usual = parse_lesson(text, str(path))
    data = yaml.safe_load(text)
    monkeypatch.setattr(yamlfile, "_PREREAD", {hashlib.sha256(text.encode()).hexdigest(): data})
    assert yamlfile.data_read_before(text) == data and yamlfile.data_read_before(text) is not data
    assert yamlfile.data_read_before(text + "\n") is None
    import uu.scenario.load

    monkeypatch.setattr(uu.scenario.load, "compose_user_yaml", lambda *a: pytest.fail("read again"))
    assert parse_lesson(text, str(path)) == usual


def test_the_app_looks_for_the_class_view_where_uu_app_puts_it(monkeypatch, tmp_path) -> None:
    """uu/widgets/classreport.py names the class view's variable itself (importing uu.server.classroom to read it would
    bring the server's modules into the browser): the same name, and the reporter is made from it."""
    from uu.server.classroom import CLASS_DB_ENV, ClassReporter
    from uu.widgets.classreport import class_reporter

    assert CLASS_DB_ENV == "UU_CLASS_DB"
    monkeypatch.delenv(CLASS_DB_ENV, raising=False)
    assert class_reporter() is None
    monkeypatch.setenv(CLASS_DB_ENV, str(tmp_path / "class.sqlite3"))
    assert isinstance(class_reporter(), ClassReporter)


def test_the_build_writes_the_page_its_scripts_and_a_policy_in_the_page_and_in_headers(tmp_path) -> None:
    from uu.lite.bench import site_headers
    from uu.lite.pages import inline_script_hashes, write_pages
    from uu.lite.words import loading_words

    policy = write_pages(tmp_path, loading_words(), {"first": [], "bytes": 0})
    text = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert text.index('http-equiv="Content-Security-Policy"') < text.index("<script")
    assert all(h in policy for h in inline_script_hashes(text))
    for name, on_site in (("page.js", "uu-page.js"), ("page.css", "uu-page.css"), ("worker.mjs", "uu-worker.mjs")):
        assert (tmp_path / on_site).read_bytes() == (ROOT / "uu" / "lite" / name).read_bytes()
    headers = dict(site_headers(tmp_path))
    assert headers["Content-Security-Policy"].startswith(policy) and "frame-ancestors" in headers[
        "Content-Security-Policy"]
    assert headers["Cache-Control"] == "no-cache"


FAKE_PYODIDE = """
export const version = "fake";
export async function loadPyodide(options) {
  const files = {};
  const FS = { mkdirTree() {}, writeFile(path, data) { files[path] = new TextDecoder().decode(data); } };
  await options.fsInit(FS, { sitePackages: "/site" });
  return { packages: options.packages, files, loadedPackages: {}, loadPackage(names) { this.loaded = names; } };
}
"""
BOOT_RUN = """
const [boot, wanted] = process.argv.slice(-2);
const { loadPyodide } = await import(boot);
console.log(JSON.stringify(await loadPyodide({ packages: JSON.parse(wanted), uuSnapshot: false })));
"""


def test_the_kernels_packages_come_installed_from_one_file_and_compiled_ones_through_pyodide(tmp_path,
                                                                                            monkeypatch) -> None:
    """The build installs the preloaded wheels into one file (uu.lite.build `site_image`); the kernel's
    loadPyodide (uu/lite/boot.mjs, run here in Node over a stand-in for Pyodide) writes the files of the packages
    asked for and of what they depend on into site-packages before Python starts, and leaves the packages with
    compiled modules (and what they need) to Pyodide's loader. A wheel's .data folder is not installed."""
    import json
    import shutil
    import subprocess
    import zipfile

    import uu.lite.build as build

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is needed")
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    contents = {"app": {"app/__init__.py": "A", "app-1.dist-info/METADATA": "m", "app-1.data/scripts/x": "no"},
                "lib": {"lib.py": "L"}, "native": {"native/_core.so": "wasm"}, "typing": {"typing_x.py": "T"},
                "unused": {"unused.py": "U"}}
    depends = {"app": ["lib", "native"], "lib": [], "native": ["typing"], "typing": [], "unused": []}
    lock = {}
    for name, files in contents.items():
        with zipfile.ZipFile(wheels / f"{name}-1-py3-none-any.whl", "w") as z:
            for path, text in files.items():
                z.writestr(path, text)
        lock[name] = {"file_name": f"{name}-1-py3-none-any.whl", "depends": depends[name]}
    (wheels / "pyodide-lock.json").write_text(json.dumps({"packages": lock}))
    monkeypatch.setattr(build, "PRELOAD", ["app", "unused"])
    monkeypatch.setattr(build, "WASM", {"native"})
    site = tmp_path / "site"
    site.mkdir()
    inside = build.site_image(wheels, site / build.IMAGE)
    assert sorted(inside) == ["app", "lib", "unused"]  # the compiled one and what it needs stay with the loader
    shutil.copy(ROOT / "uu" / "lite" / "boot.mjs", site / build.BOOT)
    (site / "pyodide.mjs").write_text(FAKE_PYODIDE)
    r = subprocess.run([node, "--input-type=module", "-e", BOOT_RUN, (site / build.BOOT).as_uri(), '["app"]'],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["files"] == {"/site/app/__init__.py": "A", "/site/app-1.dist-info/METADATA": "m", "/site/lib.py": "L"}
    # Pyodide starts with none of them (its own start goes on while the image is read), then its loader installs
    # the compiled one (and, by the lock, what it needs)
    assert got["packages"] == [] and got["loaded"] == ["native"]
    # listed as installed, so that Pyodide never fetches their wheels for an import (a restored start does not
    # find them itself)
    assert got["loadedPackages"] == {"app": build.IMAGE, "lib": build.IMAGE}
