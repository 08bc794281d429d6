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
    ("http://127.0.0.1:8000/repl/index.html?kernel=python&toolbar=0&code=import+uu.lite&lesson=goal",
     "http://127.0.0.1:8000/?lesson=goal"),
    ("https://school.example/uu/repl/index.html?kernel=python&position=v1.abc&lang=de",
     "https://school.example/uu/?position=v1.abc&lang=de"),
    ("https://school.example/uu/repl/?showBanner=0", "https://school.example/uu/"),
    # only the tutor's own parameters, the first of each, in the tutor's order; no fragment
    ("http://h/repl/index.html?lang=fr&evil=1&lesson=a&lesson=b&theme=x#code=1", "http://h/?lesson=a&lang=fr"),
])
def test_the_app_sees_the_site_address_not_the_repl_page(href: str, site: str) -> None:
    assert site_href(href) == site


# ---- the page's own script (uu/lite/page.js), run in Node with a stand-in page ---------------------------------
def _page_script(page: str, address: str) -> dict[str, Any]:
    import json
    import shutil

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    r = subprocess.run([node, str(ROOT / "tests" / "fixtures" / "lite_page_harness.mjs"),
                        str(ROOT / "uu" / "lite" / "page.js"), page, address], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


def _query(href: str) -> list[tuple[str, str]]:
    from urllib.parse import parse_qsl, urlsplit

    return parse_qsl(urlsplit(href).query, keep_blank_values=True)


def test_the_repl_page_runs_only_the_tutors_line_whatever_its_address_says() -> None:
    """A link with its own `code` (in the query or the fragment, where JupyterLite's REPL also looks) and other
    REPL parameters: the address JupyterLite then reads has the tutor's one line and the tutor's parameters."""
    did = _page_script("repl", "http://h/uu/repl/index.html?kernel=js&code=import%20js&execute=1&toolbar=1"
                               "&lesson=goal&lang=fr&lesson=other&position=" + "A" * 9000 + "#code=evil&kernel=x")
    state = did["state"]
    assert state.startswith("http://h/uu/repl/index.html?") and "#" not in state
    query = _query(state)
    codes = [v for k, v in query if k == "code"]
    assert len(codes) == 1 and codes[0].startswith("import uu.lite; uu.lite.app(page=\"")
    assert codes[0].endswith(", lang=\"fr\");")  # the tutor starts in the language the page chose
    assert "import js" not in state and "evil" not in state
    assert dict(query)["kernel"] == "python" and dict(query)["toolbar"] == "0"
    assert "execute" not in dict(query)
    tutor = [(k, v) for k, v in query if k in ("lesson", "position", "lang")]
    assert [k for k, _v in tutor] == ["lesson", "position", "lang"]
    assert dict(tutor)["lesson"] == "goal" and len(dict(tutor)["position"]) == 8193  # the tutor says "too long"
    # the loading screen speaks the link's language, and starts fetching what Python needs at once
    assert did["lang"] == "fr" and did["title"] == "TF" and did["fetched"] == ["http://h/uu/static/pyodide/a.whl"]
    token = codes[0].split('"')[1]
    assert did["channel"] == f"uu-loading-{token}" and len(token) == 16


def test_the_entry_page_passes_on_only_the_tutors_parameters() -> None:
    did = _page_script("entry", "http://h/uu/?code=import%20js&kernel=js&position=v1.abc&lang=de&x=1")
    assert did["replaced"] == "http://h/uu/repl/index.html?position=v1.abc&lang=de"
    assert _page_script("entry", "http://h/uu/")["replaced"] == "http://h/uu/repl/index.html"


# ---- the pages the build writes (uu/lite/pages.py) ------------------------------------------------------------
JUPYTERLITE_PAGE = """<!DOCTYPE html><html><head><title>REPLite</title>
<script id="jupyter-config-data" type="application/json" data-jupyter-lite-root="..">{}</script>
<script>(async function () { await import('../config-utils.js'); }.call(this));</script>
</head><body class="jp-ThemedContainer"><noscript><div>JupyterLite requires JavaScript</div></noscript></body></html>"""


def test_the_repl_page_gets_the_tutors_script_before_jupyterlites_and_its_loading_screen_first() -> None:
    from uu.lite.pages import repl_page
    from uu.lite.words import loading_words

    words = loading_words()
    words["en"]["note"] = "</script><script>alert(1)</script>"  # data never ends its element
    page = repl_page(JUPYTERLITE_PAGE, words, {"first": ["static/pyodide/x.whl"], "bytes": 1})
    assert page.index('src="../uu-page.js" data-page="repl"') < page.index("config-utils.js")
    assert page.index('id="uu-words"') < page.index('src="../uu-page.js"')
    assert page.index('<div id="uu-loading"') < page.index("</body>")
    assert "<script>alert(1)" not in page and "JupyterLite requires" not in page
    assert page.count("<noscript>") == 1


def test_the_policy_allows_script_from_the_site_only_and_the_pages_inline_scripts_by_hash() -> None:
    import base64
    import hashlib

    from uu.lite.pages import csp, inline_script_hashes

    body = "(async function () { await import('../config-utils.js'); }.call(this));"
    digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
    assert inline_script_hashes(JUPYTERLITE_PAGE) == [f"'sha256-{digest}'"]  # the JSON block is not a script
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
    from uu.lite import app as lite_app

    shown = lite_app()
    shown.open_link("http://127.0.0.1:8000/repl/index.html?kernel=python&hideCodeInput=1&lesson=neigh")
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


def test_the_kernels_jedi_is_an_empty_stand_in(tmp_path) -> None:
    """The kernel installs jedi unless the preload names it; the build's stand-in installs nothing (IPython then
    goes without code completion), and the real one is not downloaded at all."""
    import csv
    import io
    import zipfile

    from uu.lite.build import absent_wheel
    from uu.lite.pins import PRELOAD, WHEELS

    assert "jedi" in PRELOAD and not [w for w in WHEELS if w[0] in ("jedi", "parso")]
    wheel = absent_wheel(tmp_path, "jedi")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        assert all(n.startswith("uu_lite_absent_jedi-0.dist-info/") for n in names)
        record = next(n for n in names if n.endswith("RECORD"))
        listed = [row[0] for row in csv.reader(io.StringIO(z.read(record).decode()))]
    assert sorted(listed) == sorted(names)
    assert wheel.name == "uu_lite_absent_jedi-0-py3-none-any.whl"


def test_the_build_writes_both_pages_with_a_policy_that_hashes_their_own_inline_scripts(tmp_path) -> None:
    from uu.lite.bench import site_headers
    from uu.lite.pages import inline_script_hashes, write_pages
    from uu.lite.words import loading_words

    (tmp_path / "repl").mkdir()
    (tmp_path / "repl" / "index.html").write_text(JUPYTERLITE_PAGE, encoding="utf-8")
    policy = write_pages(tmp_path, loading_words(), {"first": [], "bytes": 0})
    for page in ("index.html", "repl/index.html"):
        text = (tmp_path / page).read_text(encoding="utf-8")
        assert text.index('http-equiv="Content-Security-Policy"') < text.index("<script")
        assert all(h in policy for h in inline_script_hashes(text))
    assert inline_script_hashes((tmp_path / "repl" / "index.html").read_text(encoding="utf-8"))  # JupyterLite's
    assert (tmp_path / "uu-page.js").read_bytes() == (ROOT / "uu" / "lite" / "page.js").read_bytes()
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
  return { packages: options.packages, files, loadedPackages: {} };
}
"""
BOOT_RUN = """
const [boot, wanted] = process.argv.slice(-2);
const { loadPyodide } = await import(boot);
console.log(JSON.stringify(await loadPyodide({ packages: JSON.parse(wanted) })));
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
    assert got["packages"] == ["native"]
    # listed as installed, so that Pyodide never fetches their wheels for an import (a restored start does not
    # find them itself)
    assert got["loadedPackages"] == {"app": build.IMAGE, "lib": build.IMAGE}
